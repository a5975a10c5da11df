#pragma once
// The judge of `--until diverge:post_grad`: does inductor's post-grad graph of a candidate compute something else than
// the candidate, and where? No lowering and no code generation, so a query of thousands of nodes takes seconds where
// diverge:output_code's compile takes minutes. Per candidate:
//   1. a replay worker runs the candidate checked, on generated inputs, and writes those inputs and its outputs;
//   2. the long-lived Python child (compile_child.h) loads the candidate as its repro.py module, runs it through
//      inductor's joint-graph and post-grad passes under the compile's inductor config, custom passes included
//      (repro.py's post_grad_repro), writes the post-grad graph as FX code (the text TORCH_TRACE logs hold for it),
//      and names the first divergent node: the first node both graphs have (a pass keeps the names of nodes it leaves
//      alone) whose value differs, and the node the passes rewrote that feeds it (compile_candidates.py);
//   3. a replay worker replays the post-grad graph natively, checked, on the same inputs, and compares its outputs
//      with the candidate's (fxray's tolerances).
// The failure's signature is "diverge:post_grad" + the named node's op + the size of its error relative to the values
// (errorSizeClass), as for diverge:output_code. Plain C++: the child and the worker do the torch work.
#include "minimize/candidate_oracle.h"
#include "minimize/compile_child.h"

#include <optional>
#include <string>

namespace fxray::minimize {

class PostGradOracle : public CandidateOracle {
public:
    explicit PostGradOracle(InductorOracleOptions options);

    std::pair<std::vector<Signature>, replay::ReplayReport> judge(const io::LoadedGraph& candidate,
                                                                  const replay::ReplayOptions& options,
                                                                  replay::ReplayRunner& runner,
                                                                  replay::CancelToken* cancel) override;
    std::string lastProblem() const override { return m_problem; }
    int childStarts() const override { return m_child.starts(); }
    double childSeconds() const override { return m_child.seconds(); }

private:
    struct Files {
        std::string in, ref;         // the candidate replay's inputs and outputs
        std::string module, postGrad;  // the candidate as a repro.py module; the post-grad graph the child writes
    };
    std::optional<json::Value> passesInChild(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                             const replay::ReplayReport& replayed, const Files& files,
                                             replay::CancelToken* cancel);
    // The post-grad graph replayed on the candidate's inputs, its outputs compared with the candidate's; nullopt with
    // m_problem set when it cannot be loaded or replayed.
    std::optional<replay::ReplayReport> replayPostGrad(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                                       const replay::ReplayReport& replayed, const Files& files,
                                                       replay::ReplayRunner& runner, replay::CancelToken* cancel);

    InductorOracleOptions m_options;
    CompileChild m_child;
    std::string m_problem;
};

}  // namespace fxray::minimize
