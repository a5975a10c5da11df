#include "io/graph_inputs.h"

#include "graph/algorithms.h"

#include <algorithm>

namespace fxray::io {
namespace {

using graph::Node;

bool isGetitemAt(const Node& get)
{
    return get.target.kind == graph::Target::Kind::Getitem && get.args.size() == 2 &&
           get.args[1].kind == graph::Arg::Kind::Int && get.args[1].i >= 0 && get.args[1].i <= (1 << 20);
}

// Dynamo's helpers that take the BackwardState: torch.fx prints them by their mangled module path.
bool isDynamoHelper(const Node& n)
{
    return n.kind == graph::NodeKind::CallFunction && n.target.kind == graph::Target::Kind::Python &&
           (n.target.op.starts_with("torch__dynamo_") || n.target.op.starts_with("torch._dynamo."));
}

// True when `user` reads `value` only as its keyword argument `name` (and nowhere else).
bool readsOnlyAsKwarg(const Node& user, int value, const std::string& name)
{
    bool asKwarg = false, elsewhere = false;
    for (const graph::Arg& a : user.args)
        graph::forEachNodeRef(a, [&](int r) { elsewhere = elsewhere || r == value; });
    for (const auto& kwarg : user.kwargs) {
        // A named copy, not the structured binding: clang before 16 cannot capture a binding in a lambda (the ASan
        // and fuzz builds use clang).
        const bool named = kwarg.first == name;
        graph::forEachNodeRef(kwarg.second, [&](int r) {
            if (r == value)
                (named ? asKwarg : elsewhere) = true;
        });
    }
    return asKwarg && !elsewhere;
}

// A placeholder read as a list by int getitems: its form, or nullopt when it is not read so.
std::optional<InputForm> listForm(const LoadedGraph& lg, const Node& n, int node, const std::vector<std::vector<int>>& users)
{
    const graph::Graph& g = lg.graph;
    const bool compiledAutograd = lg.entry.kind == GraphKind::CompiledAutograd;
    const auto& getters = users[static_cast<std::size_t>(node)];
    if (getters.empty())
        return compiledAutograd ? std::optional<InputForm>(InputForm{InputForm::Kind::None, {}, -1}) : std::nullopt;
    for (int u : getters)
        if (!isGetitemAt(g.nodes[static_cast<std::size_t>(u)]))
            return std::nullopt;
    // Hooks and packed data are Python objects: the nodes that use them need Python and are reported so.
    const bool opaque = compiledAutograd && (n.name == "hooks" || n.name == "packed_data");
    InputForm form{InputForm::Kind::List, {}, -1};
    for (int u : getters) {
        const Node& get = g.nodes[static_cast<std::size_t>(u)];
        if (get.meta)
            continue;
        if (opaque || users[static_cast<std::size_t>(u)].empty())
            continue;  // None
        const std::string label = n.name + "[" + std::to_string(get.args[1].i) + "] (" + get.name + ")";
        return InputForm{InputForm::Kind::Missing,
                         "input " + label + " has no recorded metadata to build it from" +
                             (compiledAutograd ? " (compiled autograd records none; the dynamo_output_graph of its compile, "
                                                 "if logged, does not annotate this node)"
                                               : ""),
                         u};
    }
    return form;
}

}  // namespace

std::optional<std::string> opaqueInput(const graph::Graph& g, int placeholder, const std::vector<std::vector<int>>& users)
{
    const auto& us = users[static_cast<std::size_t>(placeholder)];
    const Node& p = g.nodes[static_cast<std::size_t>(placeholder)];
    if (us.empty())  // an AOT forward takes the BackwardState among its primals and leaves it to its backward
        return "'" + p.name + "' is never read (a Python object such as dynamo's BackwardState, left to another graph)";
    std::vector<std::string> readers;
    for (int u : us) {
        const Node& user = g.nodes[static_cast<std::size_t>(u)];
        if (user.kind == graph::NodeKind::Output)
            readers.push_back("the output");
        else if (readsOnlyAsKwarg(user, placeholder, "bw_state"))
            readers.push_back(user.name + " (bw_state=)");
        else if (isDynamoHelper(user))
            readers.push_back(user.name + " (" + user.target.op + ")");
        else
            return std::nullopt;
    }
    std::string s = "'" + p.name + "' is a Python object the graph only passes along (dynamo's BackwardState), to ";
    for (std::size_t k = 0; k < readers.size(); ++k)
        s += (k ? ", " : "") + readers[k];
    return s;
}

bool isGeneratorInput(const graph::Graph& g, int placeholder, const std::vector<std::vector<int>>& users)
{
    const auto& us = users[static_cast<std::size_t>(placeholder)];
    return !us.empty() && std::all_of(us.begin(), us.end(), [&](int u) {
        const Node& user = g.nodes[static_cast<std::size_t>(u)];
        return user.isOp() && user.target.ns == "higher_order" && user.target.op == "graphsafe_run_with_rng_state" &&
               readsOnlyAsKwarg(user, placeholder, "rng_state");
    });
}

std::vector<InputForm> inputForms(const LoadedGraph& lg)
{
    const graph::Graph& g = lg.graph;
    const std::vector<int> placeholders = g.placeholders();
    const std::vector<std::vector<int>> users = graph::computeUsers(g);
    std::vector<InputForm> out;
    out.reserve(placeholders.size());
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const int node = placeholders[k];
        const Node& n = g.nodes[static_cast<std::size_t>(node)];
        // Before the metadata: a capture records a generator input as metadata of no kind (graph_dumper_aot has none).
        if (isGeneratorInput(g, node, users)) {
            out.push_back({InputForm::Kind::Generator, "'" + n.name + "' is the generator of graphsafe_run_with_rng_state", -1});
            continue;
        }
        if (k < lg.inputs.size() && lg.inputs[k].meta) {
            out.push_back({});
            continue;
        }
        if (auto list = listForm(lg, n, node, users)) {
            out.push_back(std::move(*list));
            continue;
        }
        if (auto why = opaqueInput(g, node, users)) {
            out.push_back({InputForm::Kind::Opaque, std::move(*why), -1});
            continue;
        }
        out.push_back({InputForm::Kind::Missing, "input '" + n.name + "' has no recorded metadata to build it from", node});
    }
    return out;
}

std::optional<std::string> unbuildableInput(const LoadedGraph& lg)
{
    for (const InputForm& f : inputForms(lg))
        if (f.kind == InputForm::Kind::Missing)
            return f.why;
    return std::nullopt;
}

}  // namespace fxray::io
