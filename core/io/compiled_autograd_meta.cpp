#include "io/compiled_autograd_meta.h"

#include "base/error.h"
#include "graph/fx_parser.h"
#include "io/symbol_hints.h"

namespace fxray::io {
namespace {

// Whether node `b` of the dynamo graph computes what node `a` of the compiled-autograd graph does. Dynamo
// renames the placeholder (inputs -> l_inputs_) and rewrites the Python-level helpers (call_accumulate_grad
// becomes AccumulateGrad + a getitem of another name), so only ops and getitems with the same index qualify.
bool sameWork(const graph::Node& a, const graph::Node& b)
{
    if (a.kind != graph::NodeKind::CallFunction || b.kind != graph::NodeKind::CallFunction)
        return false;
    if (a.target.kind == graph::Target::Kind::Op)
        return b.target == a.target;
    if (a.target.kind == graph::Target::Kind::Getitem && b.target.kind == graph::Target::Kind::Getitem)
        return a.args.size() == 2 && b.args.size() == 2 && a.args[1] == b.args[1];
    return false;
}

// `sizes[k]` of the compiled-autograd graph: at run time compiled autograd passes each used size n as
// torch.empty(0, n), so dynamo's graph of it takes placeholder L_sizes_<k>_ (f32[0, n]) or, where it made n a
// symbol, a SymInt whose create_symbol source is L['sizes'][k].size()[1]. Either gives the element's metadata.
int annotateSizes(graph::Graph& g, const graph::Graph& dyn, const TraceLog& log, const TraceRecord& companion)
{
    const int sizes = g.findNode("sizes");
    if (sizes < 0)
        return 0;
    int annotated = 0;
    for (graph::Node& n : g.nodes) {
        if (n.meta || n.target.kind != graph::Target::Kind::Getitem || n.args.size() != 2 ||
            n.args[0].kind != graph::Arg::Kind::Node || n.args[0].node != sizes || n.args[1].kind != graph::Arg::Kind::Int)
            continue;
        const std::string k = std::to_string(n.args[1].i);
        int ph = dyn.findNode("L_sizes_" + k + "_");
        if (ph < 0)
            ph = dyn.findNode("l_sizes_" + k + "_");  // fxray names a placeholder by its alias (l_sizes_0_ = L_sizes_0_)
        if (ph >= 0 && dyn.nodes[static_cast<std::size_t>(ph)].meta) {
            n.meta = dyn.nodes[static_cast<std::size_t>(ph)].meta;
        } else if (auto hint = sourceHint(log, companion.frameId, companion.frameCompileId,
                                          "L['sizes'][" + k + "].size()[1]")) {
            n.meta = graph::parseAnnotation("f32[0, " + std::to_string(*hint) + "]cpu",
                                            SourceLocation{log.path, companion.line, 0, n.name});
        } else {
            continue;
        }
        ++annotated;
    }
    return annotated;
}

}  // namespace

CompanionMeta annotateCompiledAutograd(graph::Graph& g, const TraceLog& log, std::size_t caIndex,
                                       std::vector<std::string>& warnings)
{
    CompanionMeta result;
    if (caIndex >= log.records.size())
        return result;
    const int id = log.records[caIndex].compiledAutogradId;
    const std::string what = "compiled autograd graph [!" + std::to_string(id) + "]";
    for (std::size_t i = caIndex + 1; i < log.records.size() && id >= 0; ++i) {
        const TraceRecord& r = log.records[i];
        if (r.kind == "compiled_autograd_graph" && r.compiledAutogradId == id)
            break;  // a later graph of the same id: the companion would belong to it
        if (r.kind != "dynamo_output_graph" || r.compiledAutogradId != id)
            continue;
        const std::string payload = r.payloadOk ? tracePayload(log, r) : std::string();
        if (payload.empty()) {
            warnings.push_back(what + ": its dynamo_output_graph (line " + std::to_string(r.line) +
                               ") is damaged; inputs and nodes carry no metadata");
            return result;
        }
        graph::Graph dyn;
        try {
            dyn = graph::parseFxModule(payload, {log.path, r.payloadLine}).graph;
        } catch (const Error& e) {
            warnings.push_back(what + ": its dynamo_output_graph does not parse (" + std::string(e.what()) +
                               "); inputs and nodes carry no metadata");
            return result;
        }
        result.recordLine = r.line;
        for (graph::Node& n : g.nodes) {
            if (n.meta)
                continue;
            const int k = dyn.findNode(n.name);
            if (k < 0)
                continue;
            const graph::Node& d = dyn.nodes[static_cast<std::size_t>(k)];
            if (d.meta && sameWork(n, d)) {
                n.meta = d.meta;
                ++result.annotated;
            }
        }
        result.annotated += annotateSizes(g, dyn, log, r);
        return result;
    }
    warnings.push_back(what + " has no dynamo_output_graph with its compiled_autograd_id after it in this log (its "
                       "compiler was not dynamo, or the log is cut): inputs and nodes carry no metadata");
    return result;
}

}  // namespace fxray::io
