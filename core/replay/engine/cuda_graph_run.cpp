// `--cuda-graph` after the eager pass: why capture is not attempted (blocking findings, an unclean pass), else
// the interpreter's pass captured and replayed by cuda_graph/cuda_graph_capture and compared with the eager outputs.
#include "replay/engine/replay_pass.h"

#include "replay/cuda_graph/cuda_graph_capture.h"
#include "replay/cuda_graph/cuda_graph_safety.h"

namespace fxray::replay::engine {

// CUDA-graph mode after the eager pass: capture when the analysis found nothing blocking and the eager pass ran
// cleanly to its end (its outputs are what the replay of the captured graph must reproduce).
void runCudaGraph(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                  const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report)
{
    CudaGraphReport& cg = *report.cudaGraph;
    int blocking = 0;
    for (const CudaGraphFinding& f : cg.findings) {
        if (!f.blocking)
            continue;
        if (blocking++ == 0)
            cg.reason = f.node.empty() ? f.message : "node '" + f.node + "': " + f.message;
    }
    if (blocking > 0) {
        cg.status = "unsafe";
        if (blocking > 1)
            cg.reason += " (and " + std::to_string(blocking - 1) + " more finding(s))";
        return;
    }
    const int unclean = report.count(NodeStatus::Error) + report.count(NodeStatus::Skipped) +
                        report.count(NodeStatus::Unsupported) + report.count(NodeStatus::NotRun);
    if (report.cancelled || !report.fatal.empty() || unclean > 0) {
        cg.status = "skipped";
        cg.reason = "the eager pass did not run cleanly to the end: nothing to compare a captured graph with";
        return;
    }
    Prepared statics = p;
    statics.inputs = cloneValues(pristine);  // the static input buffers every replay reads
    // Metadata checks in the pass; value checks only through `checks`, whose ops never read the device back.
    ReplayOptions quiet = options;
    quiet.valueChecks = false;
    quiet.timing = false;
    quiet.stopOnFirst = true;
    std::vector<NodeResult> scratch = report.nodes;
    for (NodeResult& r : scratch)  // decided per replay; never a reason for the captured pass to stop early
        r.nanOrigin = r.nonFiniteConstant = false;
    const graph::Graph& g = *p.graph;
    // Value checks go into the graph: their ops write a buffer allocated now, read back after each replay.
    std::optional<detail::DeferredValueChecks> checks;
    if (options.valueChecks) {
        std::size_t rows = 16;
        for (const NodeResult& r : report.nodes)
            rows += static_cast<std::size_t>(std::count_if(r.outputs.begin(), r.outputs.end(), [](const OutputStats& o) { return o.hasValues; }));
        checks.emplace(g, p.plans, scratch, false);
        checks->reserveFixed(p.device, rows);
        cg.valueChecks = true;
    }
    auto pass = [&](std::string& failure) {
        std::vector<c10::IValue> outs = interpret(statics, quiet, &scratch, nullptr, nullptr, nullptr, {}, {}, checks ? &*checks : nullptr);
        for (std::size_t i = 0; i < scratch.size(); ++i)
            if (scratch[i].status == NodeStatus::Error || scratch[i].status == NodeStatus::Skipped) {
                failure = "node '" + g.nodes[i].name + "': " + scratch[i].error;
                break;
            }
        return outs;
    };
    detail::CaptureSettings settings;
    if (options.repeat > 0)
        settings.timedReplays = options.repeat;
    if (options.warmup > 0)
        settings.warmupReplays = options.warmup;
    if (checks)
        settings.afterReplay = [&] { detail::recordCheckedReplay(g, scratch, checks->reread(/*deviceSynced=*/true), options.strictNonFinite, cg); };
    detail::captureAndReplay(p.device, pass, eagerOutputs, detail::outputNondeterminism(g, p.plans), settings, cg);
}

}  // namespace fxray::replay::engine
