// Before capturing: which nodes would make one CUDA graph of the whole replay wrong or impossible.
#include "replay/cuda_graph/cuda_graph_safety.h"

#include "graph/dynamo_numpy.h"

#include <ATen/core/alias_info.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/function_schema.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;
using graph::Node;
using graph::NodeKind;
using Kind = CudaGraphFinding::Kind;

// Ops that read device memory back to the host or size their output by the data: a stream capture fails at them
// (or, worse, bakes in one run's answer). `where` with one argument is nonzero under another name.
bool isHostSyncOp(const graph::Graph& g, const Node& n)
{
    static const std::set<std::string, std::less<>> kOps = {
        "_local_scalar_dense", "item", "nonzero", "nonzero_numpy", "argwhere", "masked_select", "unique",
        "_unique", "_unique2", "unique_dim", "unique_consecutive", "equal", "is_nonzero", "allclose", "bincount",
        "histc", "masked_scatter_backward",
    };
    if (n.target.ns != "aten")
        return false;
    if (kOps.contains(n.target.op))
        return true;
    if (n.target.op == "where" && n.args.size() == 1)
        return true;
    // Indexing with a boolean mask is nonzero inside (x[x > 0]): its output size is the count of true elements.
    if ((n.target.op == "index" || n.target.op == "_unsafe_index") && n.args.size() >= 2) {
        bool mask = false;
        graph::forEachNodeRef(n.args[1], [&](int ref) {
            const auto& m = g.nodes[static_cast<std::size_t>(ref)].meta;
            mask = mask || (m && m->isTensor() && (m->tensor.dtype == graph::DType::Bool || m->tensor.dtype == graph::DType::UInt8));
        });
        return mask;
    }
    // repeat_interleave(repeats: Tensor) counts its output on the host unless output_size is given.
    if (n.target.op == "repeat_interleave" && n.target.overload != "self_int") {
        for (const auto& [key, v] : n.kwargs)
            if (key == "output_size" && v.kind != Arg::Kind::None)
                return false;
        return true;
    }
    return false;
}

bool hasTrueKwargOrArg(const Node& n, std::string_view key, std::size_t position)
{
    for (const auto& [k, v] : n.kwargs)
        if (k == key)
            return v.kind == Arg::Kind::Bool && v.b;
    return n.args.size() > position && n.args[position].kind == Arg::Kind::Bool && n.args[position].b;
}

// The graph's outputs, flattened in the order the replayer collects them; -1 for non-node entries.
void flattenOutputs(const Arg& a, std::vector<int>& out)
{
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        for (const Arg& item : a.items)
            flattenOutputs(item, out);
        return;
    }
    out.push_back(a.kind == Arg::Kind::Node ? a.node : -1);
}

// Node references inside one argument plan (lists included).
void refsOf(const ArgPlan& a, std::vector<int>& out)
{
    if (a.node >= 0)
        out.push_back(a.node);
    for (const ArgPlan& item : a.items)
        refsOf(item, out);
}

bool sharesAliasSet(const c10::AliasInfo* a, const c10::AliasInfo* b)
{
    if (!a || !b)
        return false;
    for (const auto& s : a->beforeSets())
        if (b->beforeSets().contains(s))
            return true;
    return false;
}

std::string placeholderList(const graph::Graph& g, const std::set<int>& phs)
{
    std::string out;
    for (int ph : phs)
        out += (out.empty() ? "'" : ", '") + g.nodes[static_cast<std::size_t>(ph)].name + "'";
    return out;
}

// The op's dropout_p argument is absent (its default, 0) or a literal 0.
bool dropoutIsOff(const Node& n, const c10::FunctionSchema& schema)
{
    const auto& params = schema.arguments();
    for (std::size_t a = 0; a < params.size(); ++a) {
        if (params[a].name() != "dropout_p")
            continue;
        const Arg* given = a < n.args.size() ? &n.args[a] : nullptr;
        for (const auto& [name, value] : n.kwargs)
            if (name == "dropout_p")
                given = &value;
        if (!given)
            return true;
        return (given->kind == Arg::Kind::Float && given->f == 0.0) || (given->kind == Arg::Kind::Int && given->i == 0);
    }
    return false;
}

// The dispatcher's operator (and through it the schema) of an ATen op node; nullopt when it is not registered here.
std::optional<c10::OperatorHandle> schemaOf(const Node& n)
{
    if (!n.isOp())
        return std::nullopt;
    return c10::Dispatcher::singleton().findSchema(
        {n.target.qualifiedName(), n.target.overload == "default" ? "" : n.target.overload});
}

// The op has a dropout_p argument and it is not a literal 0 (a SymFloat counts as on).
bool dropoutIsOn(const Node& n)
{
    const std::optional<c10::OperatorHandle> op = schemaOf(n);
    if (!op)
        return false;
    const auto& params = op->schema().arguments();
    const bool takesDropout = std::any_of(params.begin(), params.end(), [](const c10::Argument& a) { return a.name() == "dropout_p"; });
    return takesDropout && !dropoutIsOff(n, op->schema());
}

}  // namespace

bool isRandomOp(const Node& n)
{
    // np.random through dynamo's wrappers (torch._numpy's draws from the default generator).
    if (graph::isNumpyRandomFunction(graph::dynamoNumpyWrapped(n)))
        return true;
    if (!n.isOp())
        return false;
    static const std::set<std::string, std::less<>> kRandom = {
        "rand", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm", "bernoulli", "bernoulli_",
        "native_dropout", "dropout", "feature_dropout", "alpha_dropout", "_fused_dropout", "normal", "normal_",
        "normal_functional", "uniform", "uniform_", "exponential_", "geometric_", "log_normal_", "cauchy_",
        "multinomial", "poisson", "rrelu_with_noise", "random_", "philox_rand", "inductor_random", "inductor_randint",
        "inductor_seed", "inductor_seeds", "seed", "seeds", "lookup_seed",
    };
    if (kRandom.contains(n.target.op))
        return true;
    // Activation checkpointing's forward hands on the generator state it read (and its op may draw); the
    // backward's run_with_rng_state draws from the state it is given: deterministic.
    if (n.target.ns == "higher_order")
        return n.target.op == "run_and_save_rng_state";
    // Attention with dropout draws random numbers: dropout_p where the op's schema puts it (efficient attention's 6th
    // argument, flash's 4th, SDPA's 5th; reading the 6th for all made flash's and a positional SDPA's dropout
    // deterministic). A backward redraws from the seed it is given: deterministic on the device that drew it.
    if (n.target.op.find("attention") != std::string::npos && n.target.op.find("backward") == std::string::npos)
        return dropoutIsOn(n);
    return false;
}

bool isUninitialisedOp(const Node& n)
{
    static const std::set<std::string, std::less<>> kEmpty = {"empty", "empty_like", "empty_strided", "new_empty",
                                                              "new_empty_strided", "empty_permuted"};
    return n.isOp() && kEmpty.contains(n.target.op);
}

bool isAtomicOp(const Node& n)
{
    if (!n.isOp())
        return false;
    static const std::set<std::string, std::less<>> kAtomics = {
        "index_add", "index_add_", "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_", "index_reduce",
        "index_reduce_", "embedding_dense_backward", "embedding_backward", "_embedding_bag_backward",
        "_embedding_bag_dense_backward", "_embedding_bag_per_sample_weights_backward", "avg_pool3d_backward",
        "adaptive_avg_pool2d_backward", "_adaptive_avg_pool2d_backward", "adaptive_avg_pool3d_backward",
        "_adaptive_avg_pool3d_backward", "adaptive_max_pool2d_backward", "adaptive_max_pool3d_backward",
        "max_pool3d_with_indices_backward", "fractional_max_pool2d_backward", "fractional_max_pool3d_backward",
        "upsample_linear1d_backward", "upsample_bilinear2d_backward", "upsample_bicubic2d_backward",
        "upsample_trilinear3d_backward", "_upsample_bilinear2d_aa_backward", "_upsample_bicubic2d_aa_backward",
        "grid_sampler_2d_backward", "grid_sampler_3d_backward", "reflection_pad1d_backward",
        "reflection_pad2d_backward", "reflection_pad3d_backward", "replication_pad1d_backward",
        "replication_pad2d_backward", "replication_pad3d_backward", "nll_loss2d_forward", "_ctc_loss",
        "_ctc_loss_backward", "histc", "bincount", "kthvalue", "median", "nanmedian", "put", "put_",
        "_scaled_dot_product_efficient_attention_backward", "_efficient_attention_backward",
        "_scaled_dot_product_flash_attention_backward", "_flash_attention_backward",
        "_scaled_dot_product_cudnn_attention_backward",
    };
    const std::string& op = n.target.op;
    if (kAtomics.contains(op))
        return true;
    // Accumulating index_put (also what `x[idx] += v` becomes) adds with atomics.
    if (op == "index_put" || op == "index_put_" || op == "_index_put_impl_" || op == "_unsafe_index_put")
        return hasTrueKwargOrArg(n, "accumulate", 3);
    return false;
}

namespace {

// The op of node i; a native stand-in (CUDA-only attention on the CPU) has no handle of its own: the recorded op's.
std::optional<c10::OperatorHandle> recordedOp(const graph::Graph& g, const std::vector<NodePlan>& plans, std::size_t i)
{
    const Node& n = g.nodes[i];
    std::optional<c10::OperatorHandle> op = i < plans.size() ? plans[i].op : std::nullopt;
    if (!op && i < plans.size() && n.isOp())
        op = c10::Dispatcher::singleton().findSchema(
            {n.target.qualifiedName(), n.target.overload == "default" ? "" : n.target.overload});
    return op;
}

struct RngStateReturn {
    std::string what;  // "op name"
    bool neverWritten = false;
};
// Return k of node `from`, calling `op`, when it is RNG state (a return named *seed*, *offset* or *rng_state*:
// attention's philox seed and offset), and whether the kernel never writes it (dropout off: CUDA attention returns
// at::empty scalars, whose bits are the allocator's, not a draw that a restored generator could reproduce).
std::optional<RngStateReturn> rngStateReturn(const Node& from, const c10::OperatorHandle& op, std::size_t k)
{
    const auto& returns = op.schema().returns();
    if (k >= returns.size())
        return std::nullopt;
    const std::string& name = returns[k].name();
    if (name.find("seed") == std::string::npos && name.find("offset") == std::string::npos &&
        name.find("rng_state") == std::string::npos)
        return std::nullopt;
    return RngStateReturn{from.target.str() + " " + name, dropoutIsOff(from, op.schema())};
}

// What is upstream of each node's value (outputNondeterminism's per-node answer).
std::vector<OutputNondeterminism> upstreamOfNodes(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                  const std::set<std::string>& generated)
{
    std::vector<OutputNondeterminism> upstream(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        OutputNondeterminism& here = upstream[i];
        graph::forEachNodeRef(n, [&](int ref) {
            const auto& from = upstream[static_cast<std::size_t>(ref)];
            here.atomics.insert(from.atomics.begin(), from.atomics.end());
            here.random.insert(from.random.begin(), from.random.end());
            here.generatedConstants.insert(from.generatedConstants.begin(), from.generatedConstants.end());
            here.lowPrecision.insert(from.lowPrecision.begin(), from.lowPrecision.end());
        });
        if (n.meta && n.meta->isTensor() &&
            (n.meta->tensor.dtype == graph::DType::BFloat16 || n.meta->tensor.dtype == graph::DType::Float16))
            here.lowPrecision.insert(std::string(graph::dtypeTorchName(n.meta->tensor.dtype)));
        if (n.kind == NodeKind::GetAttr && generated.contains(n.attr))
            here.generatedConstants.insert(n.attr);
        if (isAtomicOp(n))
            here.atomics.insert(n.target.str());
        if (isRandomOp(n))
            here.random.insert(n.target.str());
        // The CPU stand-in of a fused attention backward with dropout redraws the mask from the seed it is given
        // (plan/attention_fallback): a CUDA seed gives other draws than CUDA's.
        if (i < plans.size() && plans[i].kind == NodePlan::Kind::Native && plans[i].name.ends_with("attention_backward") &&
            dropoutIsOn(n))
            here.random.insert(n.target.str() + " (the CPU stand-in's own dropout mask)");
        // An op's RNG state outputs (attention's philox_seed/philox_offset: left uninitialised without dropout).
        if (n.kind == NodeKind::CallFunction && n.target.kind == graph::Target::Kind::Getitem && n.args.size() == 2 &&
            n.args[0].kind == Arg::Kind::Node && n.args[1].kind == Arg::Kind::Int) {
            const auto src = static_cast<std::size_t>(n.args[0].node);
            const std::optional<c10::OperatorHandle> op = recordedOp(g, plans, src);
            const auto state = op ? rngStateReturn(g.nodes[src], *op, static_cast<std::size_t>(n.args[1].i)) : std::nullopt;
            if (state && state->neverWritten)
                here.uninitialised.insert(state->what + " (dropout off: never written)");
            else if (state)
                here.random.insert(state->what);
        }
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i)  // not inherited: users of empty memory overwrite it
        if (isUninitialisedOp(g.nodes[i]))
            upstream[i].uninitialised.insert(g.nodes[i].target.str());
    return upstream;
}

void merge(OutputNondeterminism& into, const OutputNondeterminism& from)
{
    into.atomics.insert(from.atomics.begin(), from.atomics.end());
    into.random.insert(from.random.begin(), from.random.end());
    into.generatedConstants.insert(from.generatedConstants.begin(), from.generatedConstants.end());
    into.lowPrecision.insert(from.lowPrecision.begin(), from.lowPrecision.end());
}

}  // namespace

std::vector<OutputNondeterminism> inputNondeterminism(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                      const std::set<std::string>& generated)
{
    const std::vector<OutputNondeterminism> upstream = upstreamOfNodes(g, plans, generated);
    const std::vector<int> placeholders = g.placeholders();
    std::vector<OutputNondeterminism> out(placeholders.size());
    for (std::size_t j = 0; j < placeholders.size(); ++j)
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            const Node& n = g.nodes[i];
            // An in-place aten op on the placeholder (copy_ of the new running stats, add_ of a step counter).
            if (n.isOp() && n.target.op.ends_with("_") && !n.args.empty() && n.args[0].kind == Arg::Kind::Node &&
                n.args[0].node == placeholders[j])
                merge(out[j], upstream[i]);
        }
    return out;
}

std::vector<OutputNondeterminism> outputNondeterminism(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                       const std::set<std::string>& generated)
{
    const std::vector<OutputNondeterminism> upstream = upstreamOfNodes(g, plans, generated);
    std::vector<OutputNondeterminism> out;
    const int o = g.outputNode();
    if (o < 0 || g.nodes[static_cast<std::size_t>(o)].args.empty())
        return out;
    std::vector<int> refs;
    flattenOutputs(g.nodes[static_cast<std::size_t>(o)].args[0], refs);
    for (int r : refs)
        out.push_back(r >= 0 ? upstream[static_cast<std::size_t>(r)] : OutputNondeterminism{});
    return out;
}

std::vector<bool> valuesVaryBetweenRuns(const graph::Graph& g, const std::vector<NodePlan>& plans)
{
    const std::vector<OutputNondeterminism> upstream = upstreamOfNodes(g, plans, {});
    std::vector<bool> vary(g.nodes.size(), false);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        vary[i] = !upstream[i].random.empty() || !upstream[i].uninitialised.empty();
        // A node returning RNG state holds it among its own outputs too, picked by a getitem or not.
        const std::optional<c10::OperatorHandle> op = vary[i] ? std::nullopt : recordedOp(g, plans, i);
        for (std::size_t k = 0; op && k < op->schema().returns().size() && !vary[i]; ++k)
            vary[i] = rngStateReturn(g.nodes[i], *op, k).has_value();
    }
    return vary;
}

std::vector<CudaGraphFinding> analyzeCudaGraphSafety(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                     const c10::Device& device)
{
    std::vector<CudaGraphFinding> out;
    auto add = [&](Kind kind, const std::string& node, std::string message, bool blocking = true) {
        out.push_back(CudaGraphFinding{kind, node, std::move(message), blocking});
    };
    if (!device.is_cuda())
        add(Kind::NotCuda, "", "CUDA graphs need a CUDA device; the replay device is " + device.str());

    const std::size_t n = g.nodes.size();
    // Which graph inputs each value may share storage with: placeholders themselves, and whatever a view-like
    // op returns (a return whose alias set is one of its arguments' sets: view, t, slice, as_strided, ...).
    std::vector<std::set<int>> bases(n);
    std::vector<std::vector<int>> users(n);
    for (std::size_t i = 0; i < n; ++i)
        graph::forEachNodeRef(g.nodes[i], [&](int ref) { users[static_cast<std::size_t>(ref)].push_back(static_cast<int>(i)); });

    std::map<std::string, std::string> cudaDevices;  // device -> first node on it
    for (std::size_t i = 0; i < n && i < plans.size(); ++i) {
        const Node& node = g.nodes[i];
        const NodePlan& plan = plans[i];
        if (node.kind == NodeKind::Placeholder)
            bases[i].insert(static_cast<int>(i));
        if (plan.kind == NodePlan::Kind::Getitem && !node.args.empty() && node.args[0].kind == Arg::Kind::Node)
            bases[i] = bases[static_cast<std::size_t>(node.args[0].node)];
        if (plan.kind == NodePlan::Kind::Unsupported && node.kind != NodeKind::Output)
            add(Kind::Unsupported, node.name, "cannot be replayed: " + plan.why);

        if (plan.kind == NodePlan::Kind::Op && plan.op) {
            const c10::FunctionSchema& schema = plan.op->schema();
            const auto& formals = schema.arguments();
            for (std::size_t k = 0; k < formals.size() && k < plan.args.size(); ++k) {
                const c10::AliasInfo* alias = formals[k].alias_info();
                if (!alias)
                    continue;
                std::vector<int> refs;
                refsOf(plan.args[k], refs);
                std::set<int> reached;
                for (int r : refs)
                    reached.insert(bases[static_cast<std::size_t>(r)].begin(), bases[static_cast<std::size_t>(r)].end());
                if (alias->isWrite() && !reached.empty())
                    add(Kind::MutatesInput, node.name,
                        node.target.str() + " writes into graph input " + placeholderList(g, reached) + " (argument '" +
                            formals[k].name() + "'): replays of a captured graph would apply it again and again");
                for (const c10::Argument& ret : schema.returns())
                    if (sharesAliasSet(ret.alias_info(), alias))
                        bases[i].insert(reached.begin(), reached.end());
            }
            if (isHostSyncOp(g, node))
                add(Kind::HostSync, node.name,
                    node.target.str() + " synchronises with the host (its output depends on the data): it cannot be "
                                        "captured");
            if (isAtomicOp(node))
                add(Kind::Nondeterministic, node.name,
                    node.target.str() + " accumulates with atomics on CUDA: outputs after it are compared with "
                                        "tolerance, not bit for bit",
                    false);
            if (isRandomOp(node))
                add(Kind::Nondeterministic, node.name,
                    node.target.str() + " draws random numbers (a captured graph draws other ones than eager): the "
                                        "values of outputs after it are not compared",
                    false);
        }

        // Devices as recorded: CPU values in a CUDA graph, and more than one CUDA device.
        if (node.meta && node.meta->isTensor() && node.meta->tensor.device && node.kind != NodeKind::Output) {
            const graph::Device& d = *node.meta->tensor.device;
            if (d.type == "cuda") {
                cudaDevices.emplace(d.index < 0 ? "cuda:0" : d.str(), node.name);
            } else if (d.type == "cpu" && device.is_cuda()) {
                bool scalar = node.meta->tensor.sizes.empty();
                for (int u : users[i]) {
                    const Node& user = g.nodes[static_cast<std::size_t>(u)];
                    scalar = scalar && user.isOp() && (user.target.ns == "aten" || user.target.ns == "prims");
                }
                if (scalar)
                    add(Kind::CpuScalar, node.name,
                        "0-dim CPU tensor read by CUDA ops: a captured graph keeps the value it had at capture", false);
                else
                    add(Kind::CpuTensor, node.name,
                        std::string(node.kind == NodeKind::Placeholder ? "input" : "value of " + node.target.str()) +
                            " lives on the CPU (" + formatTensorMeta(node.meta->tensor) +
                            "): CPU work is not part of a CUDA graph");
            }
        }
    }
    if (cudaDevices.size() > 1) {
        std::string list;
        for (const auto& [dev, first] : cudaDevices)
            list += (list.empty() ? "" : ", ") + dev + " (first at '" + first + "')";
        add(Kind::MultipleDevices, std::next(cudaDevices.begin())->second,
            "values on more than one CUDA device: " + list + "; one CUDA graph captures one device");
    }
    return out;
}

}  // namespace fxray::replay::detail
