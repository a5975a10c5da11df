#include "io/compiled_autograd_meta.h"

#include "base/error.h"
#include "graph/fx_parser.h"

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
        return result;
    }
    warnings.push_back(what + " has no dynamo_output_graph with its compiled_autograd_id after it in this log (its "
                       "compiler was not dynamo, or the log is cut): inputs and nodes carry no metadata");
    return result;
}

}  // namespace fxray::io
