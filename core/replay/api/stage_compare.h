#pragma once
// Stage compare: the graphs of one compile (and, last, inductor's generated code: replay/api/output_code_stage.h) (io/compile_stages.h) replayed on the same generated inputs, their
// user outputs compared with the first stage that replayed cleanly (the reference), to find the first stage whose
// outputs diverge beyond tolerance. Plain C++: each stage runs through a ReplayRunner (a `fxray worker` child in
// the CLI and the GUI, so that a crash in one stage costs that stage only).
#include "base/json.h"
#include "io/compile_stages.h"
#include "replay/api/output_code_stage.h"
#include "replay/api/replay_runner.h"

#include <functional>
#include <string>
#include <vector>

namespace fxray::replay {

struct StageResult {
    std::string stage;    // "dynamo", "aot_forward", ...
    std::string record;   // "dynamo_output_graph", ...
    std::string address;
    int nodes = 0;
    // "clean", "mismatches" (recorded dtype/shape/stride not reproduced; outputs still compared), "node errors",
    // "unsupported", "failed" (did not load or start, or the worker died), "unmappable", "cancelled", "not run"
    std::string status = "not run";
    std::string detail;   // the first error, unsupported op, or why it is unmappable
    bool reference = false;
    int compared = 0;     // user outputs compared with the reference
    int divergent = 0;    // of those, outside tolerance (or NaNs elsewhere, other dtype/shape)
    double maxAbs = 0, maxRel = 0;
    int firstDivergentOutput = -1;
    std::string divergence;  // what the first divergent output is like
    std::vector<std::string> notes;      // how inputs and outputs were lined up
    std::vector<OutputComparison> comparisons;
    double seconds = 0;
    ReplayReport report;
    // output_code only, when it diverges: the first generated kernel whose buffers differ from the post-grad nodes
    // they compute (or why none was found).
    std::optional<KernelFinding> kernel;

    bool replayed() const { return status == "clean" || status == "mismatches"; }
    std::string verdict() const;  // "reference", "agree", "diverge", "failed", "unmappable", "not compared"
};

struct StageCompareReport {
    std::string address;
    std::string compileId;
    std::string device;
    std::uint64_t seed = 0;
    std::vector<StageResult> stages;
    int referenceStage = -1;
    int firstDivergentStage = -1;
    int firstDivergentOutput = -1;
    std::string verdict = "failed";  // "agree", "diverge", "failed", "not compiled" (torch's own compile failed)
    std::string reason;              // one line when not "agree"
    std::vector<std::string> notes;
    double seconds = 0;
    bool cancelled = false;
};

struct StageCompareOptions {
    ReplayOptions replay;      // device, seed, value distributions, ... (stage and chain are set per stage)
    bool withRunnable = false; // also replay fx_graph_runnable
    // The last stage: inductor's generated code, run in a Python child on the post-grad stage's inputs, when the
    // log holds it (inductor_output_code) or outputCode.file names it.
    OutputCodeOptions outputCode;
    // A divergent stage replayed again in float64 with the reference: differences that shrink are rounding
    // (rounding_noise.h). Off: every value difference beyond tolerance is a divergence (rounding that a compiler
    // change adds, an extra bf16 cast, is rounding to this check).
    bool precisionCheck = true;
};

// Called after each stage with its result (the GUI fills its table as they come); progress is over all stages'
// nodes.
using StageSink = std::function<void(std::size_t index, const StageResult& result)>;

// Never throws for the compile's problems: they are the report's. `runner` replays each stage.
StageCompareReport compareStages(const io::CompileStages& stages, ReplayRunner& runner, const StageCompareOptions& options,
                                 CancelToken* cancel = nullptr, const ProgressSink& progress = {}, const StageSink& stageDone = {});

json::Value stageCompareToJson(const StageCompareReport& r);
std::string formatStageCompare(const StageCompareReport& r);
// The tolerance a comparison used, as text: "bf16: atol 0.01 rtol 0.02"; "exact" for integers and bools.
std::string toleranceText(const OutputComparison& c);

}  // namespace fxray::replay
