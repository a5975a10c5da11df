#pragma once
// Shrinks a failing graph to a small one that fails with the same signature, on fresh inputs.
//
// The baseline finds the failure; with an inductor oracle (diverge:output_code / post_grad: a query is inductor in a
// Python child) it judges prefixes of the graph first (64 nodes, doubling), so a large graph is judged whole only
// when no prefix fails. Strategies, in order: truncate (the failing node becomes the last, everything after it
// goes), then delta debugging over the remaining nodes in program-order ranges, from halves down to single nodes
// (ddmin: a removed range's values that kept nodes read become fresh placeholders). Dead code, unused inputs and
// unneeded outputs never survive a candidate (candidate.h). For NaN/Inf failures the nodes of the failing
// node's model statement (its stack-trace comment) are kept together: `log(var(x) - 1e6)` stays whole, so
// the repro shows the statement that made the NaN rather than `log` of a random input that happens to be negative.
#include "minimize/candidate.h"
#include "minimize/failure.h"
#include "replay/api/replay_runner.h"

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fxray::minimize {

class CandidateOracle;  // candidate_oracle.h

struct MinimizeOptions {
    std::vector<FailureSpec> failures;
    replay::ReplayOptions replay;   // device, seed, float distribution, int range ... for every query
    bool keepStatement = true;      // NaN/Inf: keep the failing statement's nodes together
    int verifySeeds = 2;            // the result is replayed with this many other seeds, and says how many fail
    // Command oracle: how a candidate is handed to the command (writes the repro; returns its path).
    std::function<std::string(const io::LoadedGraph&, const Signature&)> exportForCommand;
    std::chrono::milliseconds commandTimeout{120000};
    // diverge:output_code / post_grad: judges every candidate (inductor in a Python child; candidate_oracle.h),
    // and the inductor config it compiles under, for the repro. Not owned; must outlive the run.
    CandidateOracle* oracle = nullptr;
    std::vector<std::pair<std::string, std::string>> inductorConfig;
};

struct MinimizeProgress {
    std::string strategy;  // "baseline", "truncate", "ddmin n=4", "verify"
    int nodesLeft = 0;     // compute nodes of the current best graph
    int queries = 0;
    double elapsedS = 0;
};
using MinimizeSink = std::function<void(const MinimizeProgress&)>;

struct MinimizeResult {
    bool reproduced = false;      // the original failed as asked (otherwise nothing was minimized)
    bool cancelled = false;
    Signature signature;          // the failure kept
    io::LoadedGraph minimized;    // with concrete sizes (symbols bound to the original's values)
    std::string failingNode;      // the node in `minimized` that carries the failure ("" for diverge / cmd)
    int originalNodes = 0, minimizedNodes = 0;  // compute nodes (call_function / call_method / get_attr)
    int queries = 0;
    double seconds = 0;
    int verifiedSeeds = 0, verifyFailed = 0;    // of the extra seeds, how many still fail the same way
    std::map<std::string, std::int64_t, std::less<>> symbols;  // size symbols as the original was replayed
    std::vector<std::string> log;  // one line per accepted step and per strategy
    std::string why;               // when !reproduced: what the original did instead
    replay::ReplayReport finalReport;  // the minimized graph's replay
};

MinimizeResult minimizeGraph(const io::LoadedGraph& original, const MinimizeOptions& options, replay::ReplayRunner& runner,
                             replay::CancelToken* cancel = nullptr, const MinimizeSink& progress = {});

// Every size, stride and SymInt hint of the graph's recorded metadata evaluated with `symbols`: the exported
// dump and repro have concrete shapes that reproduce the failure without a shape environment.
void concretizeMetadata(io::LoadedGraph& g, const std::map<std::string, std::int64_t, std::less<>>& symbols);

}  // namespace fxray::minimize
