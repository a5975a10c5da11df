#pragma once
// What judges a minimizer's candidate when one replay of it cannot: the inductor oracles of
// `--until diverge:output_code` (output_code_oracle.h) and `--until diverge:post_grad` (post_grad_oracle.h), both
// asking one long-lived Python child (compile_child.h).
#include "io/graph_source.h"
#include "minimize/failure.h"
#include "replay/api/replay_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace fxray::minimize {

// Inductor config entries: key ("cpp.inject_relu_bug_TESTING_ONLY") and value as a Python literal ("'accuracy'").
using InductorConfig = std::vector<std::pair<std::string, std::string>>;

// How the inductor oracles reach Python, and what they run inductor under.
struct InductorOracleOptions {
    std::string python;      // "" = found like the output_code stage's (FXRAY_PYTHON, the build's Python, python3)
    std::string script;      // "" = compile_candidates.py found like run_output_code.py
    std::string scratchDir;  // candidate files go here (created on first use)
    InductorConfig config;
    std::chrono::milliseconds timeout{300000};  // per candidate, the child's start included; then it is killed
};

class CandidateOracle {
public:
    virtual ~CandidateOracle() = default;
    // The failures the candidate shows (empty: it does not fail), and its replay report (with the comparison
    // that failed). Throws fxray::Error only when nothing can be judged at all (no Python with torch).
    virtual std::pair<std::vector<Signature>, replay::ReplayReport> judge(const io::LoadedGraph& candidate,
                                                                          const replay::ReplayOptions& options,
                                                                          replay::ReplayRunner& runner,
                                                                          replay::CancelToken* cancel) = 0;
    // Why the last candidate could not be judged a failure when it was not the candidate's doing ("" if none).
    virtual std::string lastProblem() const { return {}; }
    // What the summary reports of the Python child: how often it started, how long fxray waited for it.
    virtual int childStarts() const { return 0; }
    virtual double childSeconds() const { return 0; }
};

// How many outputs the graph returns (a tuple's items; 1 for a single value): the oracles compare them all.
int graphOutputCount(const graph::Graph& g);

// The candidate with the sizes its replay bound made concrete, written to `path` as the repro.py the child runs
// (`kind`: the signature it reproduces, "diverge:post_grad"); returned for what else the oracle writes of it.
// Throws fxray::Error when it cannot be written.
io::LoadedGraph writeCandidateModule(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                     const replay::ReplayReport& replayed, const std::string& kind,
                                     const InductorConfig& config, const std::string& path);

// The size class of an error relative to the values it is in: "small" < 1e-2 <= "medium" < 1e-1 <= "large"; "nan".
// Part of the oracles' signatures, so that shrinking keeps a bug of the same size.
inline std::string errorSizeClass(double maxAbs, double referenceMax)
{
    if (!std::isfinite(maxAbs))
        return "nan";
    const double scaled = maxAbs / std::max(1.0, std::isfinite(referenceMax) ? referenceMax : 1.0);
    return scaled < 1e-2 ? "small" : scaled < 1e-1 ? "medium" : "large";
}

}  // namespace fxray::minimize
