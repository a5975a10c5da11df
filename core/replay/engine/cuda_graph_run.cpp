// The checked pass captured as a CUDA graph after the eager pass: for `--cuda-graph` (why capture is not attempted:
// blocking findings, an unclean pass; else captured, replayed, compared with the eager outputs, timed) and for the
// timed repeats of `--repeat N` on CUDA, which are then replays of that graph with the value checks captured in it.
#include "replay/engine/replay_pass.h"

#include "replay/cuda_graph/cuda_graph_capture.h"
#include "replay/cuda_graph/cuda_graph_safety.h"

#include <cstdlib>
#include <string_view>

namespace fxray::replay::engine {
namespace {

// Whether the checked pass may be captured: the analysis found nothing blocking and the eager pass ran cleanly to
// its end (its outputs are what the replay of the captured graph must reproduce). Sets cg's status and reason when
// not.
bool captureAllowed(const ReplayReport& report, CudaGraphReport& cg)
{
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
        return false;
    }
    const int unclean = report.count(NodeStatus::Error) + report.count(NodeStatus::Skipped) +
                        report.count(NodeStatus::Unsupported) + report.count(NodeStatus::NotRun);
    if (report.cancelled || !report.fatal.empty() || unclean > 0) {
        cg.status = "skipped";
        cg.reason = "the eager pass did not run cleanly to the end: nothing to compare a captured graph with";
        return false;
    }
    return true;
}

// FXRAY_STATS_PRESENCE=0: full statistics on every replay of a captured checked pass, as before presence checks (to
// compare their cost); else the timed replays (all but the first and the warm-up) check NaN/Inf presence only.
bool presenceInTimedReplays()
{
    static const bool on = [] {
        const char* env = std::getenv("FXRAY_STATS_PRESENCE");
        return !(env && std::string_view(env) == "0");
    }();
    return on;
}

// Captures the checked pass (metadata checks in the pass; value checks, when asked, as ops that write a buffer
// read back after each replay, never a device read inside), replays and times it into cg. Every replay reads the
// same inputs: a graph that writes into its inputs is a blocking finding of the analysis, never captured.
void captureCheckedPass(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                        const std::vector<c10::IValue>& eagerOutputs, const std::vector<NodeResult>& eagerResults,
                        CudaGraphReport& cg)
{
    Prepared statics = p;
    statics.inputs = cloneValues(pristine);  // the static input buffers every replay reads
    ReplayOptions quiet = options;
    quiet.valueChecks = false;
    quiet.timing = false;
    quiet.stopOnFirst = true;
    std::vector<NodeResult> scratch = eagerResults;
    for (NodeResult& r : scratch)  // decided per replay; never a reason for the captured pass to stop early
        r.nanOrigin = r.nonFiniteConstant = false;
    const graph::Graph& g = *p.graph;
    std::optional<detail::DeferredValueChecks> checks;
    if (options.valueChecks) {
        std::size_t rows = 16;
        for (const NodeResult& r : eagerResults)
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
    const std::vector<bool> varies = checks ? detail::valuesVaryBetweenRuns(g, p.plans) : std::vector<bool>{};
    if (checks) {
        settings.afterReplay = [&] {
            detail::recordCheckedReplay(g, scratch, checks->reread(/*deviceSynced=*/true), options.strictNonFinite,
                                        checks->presence(), cg);
            if (cg.checkedReplays == 1)
                detail::compareReplayStatsWithPass(scratch, eagerResults, varies, cg);
        };
        // The first replay's full statistics showed the captured checks read what the pass read; the timed replays
        // need only where NaN/Inf appears to name its origin, which costs a third of the statistics (bench/README).
        if (presenceInTimedReplays())
            settings.beforeTimedReplays = [&](void* graph, void* exec) {
                try {
                    if (checks->presenceOnly(graph, exec) == 0)
                        cg.valueChecksNote = "full statistics on every replay: no statistics launch of the one-pass "
                                             "kernel in the graph (ATen's reductions: float8, complex, FXRAY_FUSED_STATS=0)";
                } catch (const c10::Error& e) {
                    cg.valueChecksNote = std::string(checks->presence() ? "some statistics launches stayed full statistics: "
                                                                        : "full statistics on every replay: ") +
                                         e.what_without_backtrace();
                }
            };
    }
    detail::captureAndReplay(p.device, pass, eagerOutputs, detail::outputNondeterminism(g, p.plans), settings, cg);
}

}  // namespace

CudaGraphReport cudaGraphAnalysis(const Prepared& p)
{
    const graph::Graph& g = *p.graph;
    CudaGraphReport cg;
    cg.findings = detail::analyzeCudaGraphSafety(g, p.plans, p.device);
    std::set<std::string> nondeterministic;
    for (const CudaGraphFinding& f : cg.findings)
        if (f.kind == CudaGraphFinding::Kind::Nondeterministic)
            nondeterministic.insert(g.nodes[static_cast<std::size_t>(g.findNode(f.node))].target.str());
    cg.nondeterministicOps.assign(nondeterministic.begin(), nondeterministic.end());
    return cg;
}

void runCudaGraph(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                  const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report)
{
    CudaGraphReport& cg = *report.cudaGraph;
    if (captureAllowed(report, cg))
        captureCheckedPass(p, options, pristine, eagerOutputs, report.nodes, cg);
}

bool runGraphRepeats(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                     const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report)
{
    // --cuda-graph times its own replays (and keeps the interpreted repeats beside them); digests (--until diverge)
    // and stage compare need every repeat's node values, which only the interpreter hands out.
    if (!p.device.is_cuda() || !options.graphRepeats || options.cudaGraph || options.digests || options.stage ||
        options.repeat <= 0)
        return false;
    CudaGraphReport cg = cudaGraphAnalysis(p);
    if (captureAllowed(report, cg))
        captureCheckedPass(p, options, pristine, eagerOutputs, report.nodes, cg);
    if (!cg.captured()) {
        report.notes.push_back("timed repeats interpreted: the checked pass could not run as a CUDA graph (" + cg.status +
                               (cg.reason.empty() ? "" : ": " + cg.reason) + ")");
        return false;
    }
    // Replays that do not reproduce the checked pass would time and check something else: the repeats are then
    // interpreted, and the verdict stays the pass's (`--cuda-graph` reports such a capture as diverged).
    if (!cg.matchesEager()) {
        report.notes.push_back("timed repeats interpreted: the captured pass's outputs differ from the checked pass's "
                               "(`--cuda-graph` shows where)");
        return false;
    }
    if (cg.statsRowsDiffer > 0) {
        report.notes.push_back("timed repeats interpreted: the captured checks' statistics differ from the checked pass's "
                               "on " + std::to_string(cg.statsRowsDiffer) + " row(s), first at node '" + cg.firstStatsDiffer + "'");
        return false;
    }
    report.iterationUs = cg.replayUs;
    report.notes.push_back("timed repeats: replays of the checked pass captured as a CUDA graph" +
                           std::string(cg.valueChecks ? ", value checks captured with it and read back after each" : "") +
                           "; every node's dtype/size/stride as the first pass found them (same kernels and buffers; "
                           "--interpreted-repeats runs the interpreter instead)");
    report.cudaGraph = std::move(cg);
    return true;
}

}  // namespace fxray::replay::engine
