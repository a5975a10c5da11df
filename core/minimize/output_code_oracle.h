#pragma once
// The judge of `--until diverge:output_code`: does inductor's compiled code of a candidate graph differ from fxray's
// checked replay of it, and with which kernel? Per candidate:
//   1. a replay worker runs the candidate checked, on generated inputs, and writes those inputs and its outputs
//      (StageIo::saveInputs / saveOutputs, as stage compare does for the output_code stage);
//   2. a long-lived Python child (tools/runtime/compile_candidates.py, the user's torch) loads the candidate as its
//      repro.py module, compiles it with torch.compile / inductor under the compile's inductor config, runs it on
//      those inputs, writes its outputs, and names the first generated kernel whose buffer differs from the node it
//      computes (run_output_code.py's kernel search);
//   3. a replay worker compares the compiled outputs with the replay's (StageIo::outputsFrom, fxray's tolerances).
// The failure's signature is "diverge:output_code" + the divergent kernel's node's op + the kernel's kind and the
// size of its error relative to the node's values (small < 1e-2 <= medium < 1e-1 <= large; nan), so shrinking keeps
// the same codegen bug. Plain C++: the child and the worker do the torch work.
#include "minimize/candidate_oracle.h"
#include "minimize/compile_child.h"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxray::minimize {

using OutputCodeOracleOptions = InductorOracleOptions;

class OutputCodeOracle : public CandidateOracle {
public:
    explicit OutputCodeOracle(OutputCodeOracleOptions options);

    std::pair<std::vector<Signature>, replay::ReplayReport> judge(const io::LoadedGraph& candidate,
                                                                  const replay::ReplayOptions& options,
                                                                  replay::ReplayRunner& runner,
                                                                  replay::CancelToken* cancel) override;
    // Why the last candidate was not judged a failure when the child could not say (timeout, compile error).
    std::string lastProblem() const override { return m_problem; }
    int childStarts() const override { return m_child.starts(); }
    double childSeconds() const override { return m_child.seconds(); }

private:
    struct CandidateFiles {
        std::string in, ref, out;   // the replay's inputs and outputs, the compiled code's outputs
        std::string module, readable;  // the candidate as a repro.py module and as readable graph text
    };
    // Writes the candidate's files and asks the child to compile and run it: the child's answer, or nullopt with
    // m_problem set.
    std::optional<json::Value> compileInChild(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                              const replay::ReplayReport& replayed, const CandidateFiles& files,
                                              replay::CancelToken* cancel);
    OutputCodeOracleOptions m_options;
    CompileChild m_child;
    std::string m_problem;
};

// The non-default inductor config the compile of a TORCH_TRACE graph ran with: the `torch._inductor.config.K = V`
// lines of the same compile's fx_graph_runnable record (only values that are plain literals: numbers, strings,
// True/False/None). Empty for graphs of other sources or logs without that record. Throws fxray::Error when the
// log cannot be read.
InductorConfig inductorConfigOfCompile(const io::GraphEntry& entry);
// "KEY=VALUE" from the command line: VALUE a Python literal, or else taken as a string. Throws fxray::Error.
std::pair<std::string, std::string> parseInductorConfigEntry(const std::string& text);

}  // namespace fxray::minimize
