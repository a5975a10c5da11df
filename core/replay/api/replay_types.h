#pragma once
// What a replay is asked to do and what it reports. Plain C++: the GUI, the CLI and the minimizer use these
// without seeing LibTorch.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxray::replay {

// Stage compare (stage_compare.h): the graph is one stage of a compile, fed the inputs generated for another
// graph of the compile (the AOT graph) and keeping only the outputs that are the compile's user outputs.
struct StageIo {
    std::string inputsFrom;       // address of the graph whose generated inputs this one takes
    std::vector<int> inputMap;    // per placeholder: index into those inputs; -1: generated from its own metadata
    std::vector<int> outputMap;   // per user output: position in this graph's flattened outputs; -1: none;
                                  // -(k + 2): input k as the run left it, constantMap[k - inputs] past the inputs
                                  // (constantMap: see below)
    std::string saveOutputs;      // write the user outputs here (for the stages after the reference)
    std::string referenceOutputs; // compare the user outputs with these (the reference stage's saveOutputs)
    // The output_code stage (stage_compare.h): write the inputs, as generated, here (strides kept: inductor's code
    // asserts them), for the generated code to run on in a Python child ...
    std::string saveInputs;
    // ... and take the outputs from this file instead of replaying the graph: [outputs, inputs as the run left
    // them], written by tools/runtime/run_output_code.py. The graph is the post-grad graph the code was made from.
    std::string outputsFrom;
    // A distributed replay's consistent inputs (worker/dtensor_reference.h): the inputs are taken from this file
    // (a list, as saveInputs writes it: the global inputs the single-rank reference ran on) by inputMap instead
    // of being generated for inputsFrom ...
    std::string inputsFile;
    // ... each cut to this rank's local tensor by its DTensor layout (graph::ShardCut::str(); "" keeps it whole),
    // per placeholder; and the reference outputs cut alike before they are compared, per user output.
    std::vector<std::string> inputShards;
    std::vector<std::string> outputShards;
    // Stage compare's precision check (rounding_noise.h): the stage computed in float64 (the graph's floating-point
    // dtypes promoted, its inputs generated as usual and then promoted), its outputs compared in float64.
    bool promote = false;
    // Module attributes (get_attr constants) taken from inputsFrom's inputs too: attribute -> index into them (a
    // compiled optimizer's parameters, which dynamo reads as attributes and AOTAutograd lifts to inputs).
    std::vector<std::pair<std::string, int>> constantMap;
};

struct ReplayOptions {
    std::string device = "cpu";        // "cpu", "cuda", "cuda:N"
    std::uint64_t seed = 0;
    enum class Inputs { Random, Saved } inputs = Inputs::Random;
    enum class FloatDist { Normal, Uniform } floatDist = FloatDist::Normal;
    std::int64_t intLow = 0, intHigh = 16;  // range for int inputs nothing constrains (high exclusive)
    bool stopOnFirst = false;
    // Size symbols no input records a hint for ("s77" in a trace's AOT graph) take this value.
    std::int64_t symbolDefault = 8;
    // Size symbols given a value by the caller: win over recorded hints and the default (the minimizer pins
    // the original graph's bindings so that a candidate whose SymInt inputs were cut keeps the same shapes).
    std::map<std::string, std::int64_t, std::less<>> symbolValues;
    // Value checks (NaN/Inf origin, min/max/mean) read every output back: one device sync per node.
    bool valueChecks = true;
    bool timing = true;  // per-node times (CUDA events on a GPU)
    // Speed measurement: after the checked run, `warmup` then `repeat` more checked runs on the same inputs,
    // each timed as a whole (synchronised). Per-node timing is off in those runs.
    int warmup = 0, repeat = 0;
    // Accuracy: replay the same inputs on this device too and compare the graph outputs ("" = no).
    std::string compareDevice;
    // Accuracy: compare the graph outputs with these (a torch.save'd list, e.g. from the capture companion).
    std::string expectedOutputsPath;
    // CUDA-graph mode: after the checked eager pass, analyse whether the graph can be captured, and if it can,
    // capture it on a side stream with static inputs, replay it (`warmup` + max(`repeat`, 1) times) and
    // compare its outputs with the eager pass's.
    bool cudaGraph = false;
    // `repeat` on CUDA without --cuda-graph: when the CUDA-graph analysis finds nothing blocking and the checked pass
    // ran cleanly, the repeats are replays of that pass captured once, value checks included (dtype/size/stride are
    // decided by the first pass: same kernels, same buffers, static shapes); otherwise, or when false
    // (--interpreted-repeats), each repeat is the interpreted checked pass again.
    bool graphRepeats = true;
    // Chained replay: a backward graph with random inputs takes its saved activations (and random state) from a
    // replay of its forward graph (io::forwardPartnerAddress), as in eager; tangents are generated.
    bool chain = true;
    std::optional<StageIo> stage;
    // How random ops draw. Natural: from the global generators, seeded with `seed` (or restored from a saved-input
    // dump's <name>.rng.pt); Aligned: the k-th random call of the graph draws from a stream of its own, the same at
    // every stage of a compile and on every device (stage compare; core/replay/ops/random_ops.h).
    enum class Rng { Natural, Aligned } rng = Rng::Natural;
    // NaN/Inf made from finite inputs fails the replay even when no output holds it (the rule before transient
    // non-finite values were told apart: an Inf cast to an integer or dropped by `where` is then a failure too).
    bool strictNonFinite = false;
    // Hash every checked output's bits (OutputStats::digest): --repeat N --until diverge compares runs node by node.
    bool digests = false;
    // A dynamo-level graph of DTensor code run as the unsharded computation (the single-rank reference of a
    // distributed replay): DTensor.from_local / redistribute / to_local are identities on the global tensors.
    bool dtensorGlobal = false;
    // cuDNN may run f32 convolutions in TF32 (LibTorch's and eager's default, torch.backends.cudnn.allow_tf32). Stage
    // compare turns it off in every stage, the generated code's included: TF32's rounding, amplified through a deep
    // training-mode CNN, is not the compiler's (resnet50's logits differed by 0.019 between two correct stages).
    bool cudnnTf32 = true;
};

// One graph output compared with a reference (another device's replay, or saved outputs).
struct OutputComparison {
    int output = 0;
    std::string what;      // "f32[32, 10]" or "int", "None"
    double maxAbs = 0, maxRel = 0;
    double atol = 0, rtol = 0;
    std::int64_t mismatched = 0;  // elements outside atol + rtol * |reference|
    bool ok = true;
    // False for outputs no reference can reproduce (random draws, empty*() memory): `note` says why.
    bool compared = true;
    // Compared by what random draws keep (shape, dtype, the rate of kept / zero elements), not values: the output
    // depends on a random op whose draws this replay could not reproduce. `note` gives the rates.
    bool byRate = false;
    std::string note;      // shape/dtype/kind disagreement, NaN placement, ...
    // Stage compare's precision check (rounding_noise.h): how far apart the stages are when both compute in float64;
    // negative when not checked.
    double roundingNoise = -1;
};

enum class NodeStatus { Passed, Mismatch, Error, Skipped, Unsupported, NotRun };
std::string_view nodeStatusName(NodeStatus s);

struct Mismatch {
    enum class Kind { DType, Size, Stride, Device, Value };
    Kind kind;
    int output = 0;         // index in the node's flattened outputs
    std::string expected;   // as recorded (with symbols evaluated): "f32", "[32, 128]", "cuda"
    std::string actual;
};
std::string_view mismatchKindName(Mismatch::Kind k);

struct OutputStats {
    std::string meta;          // actual "f32[32, 128][128, 1]cpu" (or "int 24")
    bool hasValues = false;    // floating/int tensor with value checks on
    double min = 0, max = 0, mean = 0;
    std::int64_t nanCount = 0, infCount = 0, numel = 0;
    // With ReplayOptions::digests: a hash of the output's bits (hex), equal between two runs exactly when they
    // computed the same bits (with overwhelming probability); "" otherwise. Repeat runs compare them to find the
    // first node that is not deterministic.
    std::string digest;
};

struct NodeResult {
    std::string name;
    std::string target;   // "aten.mm.default"
    NodeStatus status = NodeStatus::NotRun;
    std::vector<Mismatch> mismatches;
    std::string error;    // op exception message, or why skipped/unsupported
    std::vector<OutputStats> outputs;
    // First node whose outputs hold NaN/Inf while its tensor inputs were finite, and some of it reaches a graph
    // output: a failure.
    bool nanOrigin = false;
    double timeUs = 0;       // host wall time of the op call (CUDA: event time when available)
    std::string schema;      // the dispatcher's schema of the op called ("aten::mm(Tensor self, Tensor mat2) -> Tensor")
    // Outputs hold NaN/Inf put there on purpose: a literal inf/nan argument (masked_fill(x, m, -inf),
    // scalar_tensor(-inf)), a factory with no tensor inputs (full, empty), or an output that holds inf by design
    // (attention's logsumexp padding). Not a failure; the report names it.
    bool nonFiniteConstant = false;
    // Made NaN/Inf from finite inputs, but none of it reaches a graph output (nonfinite_reach.h): not a failure;
    // `absorbedAt` names the nodes that read it and came out finite.
    bool transientNonFinite = false;
    std::vector<std::string> absorbedAt;
    // Stride differences of a graph recorded on another device type (recorded on CUDA, replayed on the CPU): the
    // kernels pick their own layouts per device (SDPA's backends, cuDNN vs oneDNN), so these are the devices'
    // difference, not the compiler's, and do not make the node a mismatch.
    std::vector<Mismatch> crossDeviceLayouts;
    // Stride differences of an op whose fake-tensor rule lays its output out otherwise than its eager kernel
    // (wav2vec2's _log_softmax_backward_data: the meta follows grad_output's layout, the kernel makes a contiguous
    // output), with its inputs at their recorded layouts, and of the nodes that only carry that layout on: torch's
    // fake-vs-eager difference, not the graph's. Reported, not a mismatch.
    std::vector<Mismatch> kernelLayouts;
    // Stride differences of a view (view, reshape, slice, permute, ...) whose inputs hold their recorded layouts: the
    // view's record contradicts its input's, because a compiler pass rewrote the input and kept the old record
    // (inductor's pad_mm). The record is stale, not the replay wrong. Reported, not a mismatch.
    std::vector<Mismatch> staleLayouts;
};

// Something that makes capturing the graph into one CUDA graph unsafe, or that the user should know about it.
struct CudaGraphFinding {
    enum class Kind {
        NotCuda,          // the replay device is not a CUDA device
        MutatesInput,     // an op writes (schema alias info isWrite) into a graph input's storage
        CpuTensor,        // a tensor value or op on the CPU in a CUDA graph
        CpuScalar,        // a 0-dim CPU tensor read by a CUDA op: its value is baked in at capture (not blocking)
        MultipleDevices,  // values on more than one CUDA device
        HostSync,         // an op that synchronises with the host or has data-dependent output shapes
        Unsupported,      // a node replay cannot run at all
        Nondeterministic, // an op whose results may differ between runs (atomics, RNG): compared with tolerance
    };
    Kind kind = Kind::HostSync;
    std::string node;     // the node it is about ("" for the whole graph)
    std::string message;
    bool blocking = true; // capture is not attempted when any finding blocks
};
std::string_view cudaGraphFindingKindName(CudaGraphFinding::Kind k);

// The upper median (the middle element; of an even count, the upper of the two); 0 for none.
double medianOf(std::vector<double> values);

struct CudaGraphReport {
    // "captured": captured and replayed; "unsafe": a blocking finding, replayed eagerly only; "capture-failed":
    // the capture itself failed (see `reason`), replayed eagerly only; "skipped": the eager pass failed first.
    std::string status;
    std::string reason;                        // why it was not captured ("" when captured)
    std::vector<CudaGraphFinding> findings;
    int warmupRuns = 0;                        // eager runs on the side stream before capture
    double captureUs = 0;                      // capture_begin .. capture_end, instantiation included
    std::vector<double> replayUs;              // one synchronised replay each
    double replayBackToBackUs = 0;             // mean of as many replays launched back to back, then one sync
    std::vector<OutputComparison> vsEager;     // graph replay outputs vs the checked eager pass's outputs
    std::vector<std::string> nondeterministicOps;  // ops in the graph whose outputs may legitimately differ
    // With value checks (a replay without --no-values), the statistics ops are captured into the graph too and read
    // back after each replay (one copy of one buffer); the NaN/Inf origin is decided over them as in the eager pass.
    bool valueChecks = false;
    int checkedReplays = 0;      // replays whose statistics were read back
    // Of those, the replays that checked NaN/Inf presence only: the timed ones (the first replay's full statistics
    // were compared with the checked pass's; FXRAY_STATS_PRESENCE=0 keeps full statistics on every replay).
    int presenceReplays = 0;
    std::string valueChecksNote;  // why they stayed full statistics where presence checks were due ("" normally)
    int nanReplays = 0;          // of those, the replays in which some node made NaN/Inf from finite inputs
    std::string firstNanNode;    // that node, at the first such replay
    // The first replay's statistics rows against the checked pass's (compareReplayStatsWithPass): a row that differs
    // means the captured checks did not read what the pass read.
    int statsRowsCompared = 0;
    int statsRowsDiffer = 0;
    std::string firstStatsDiffer;  // the node of the first such row
    struct NodeNonFinite {
        std::string node;
        std::int64_t nan = 0, inf = 0;  // counts; with `counted` false, only non-zero where NaN / Inf was (1 per output)
        bool origin = false;
        bool counted = true;  // from a replay with full statistics, not a presence-only one
    };
    // Nodes whose outputs held NaN/Inf: at the first replay that had an origin, else at the last replay read.
    std::vector<NodeNonFinite> nonFinite;

    bool captured() const { return status == "captured"; }
    std::vector<const CudaGraphFinding*> findingsAt(const std::string& node) const;
    bool blocks(const std::string& node) const;  // a blocking finding names this node
    bool matchesEager() const;
    double medianReplayUs() const;  // 0 without replays
};

struct ReplayReport {
    std::string address;
    std::string device;
    std::uint64_t seed = 0;
    std::string inputs;   // "random" / "saved"
    std::vector<NodeResult> nodes;  // one per graph node, program order
    std::vector<std::string> unsupported;  // coverage findings up front ("prims.foo: node x, y")
    std::vector<std::string> notes;        // assumptions made (e.g. "s77 = 8: no hint recorded")
    // Value domains the generated inputs were drawn from ("primals_3 in [0, 30522): embedding (embedding): rows
    // of the weight"); empty with saved inputs.
    std::vector<std::string> constraints;
    std::string chainedFrom;                  // the forward graph replayed first for a chained backward
    std::vector<std::string> chainedInputs;   // inputs taken from its outputs, by name
    std::map<std::string, std::int64_t, std::less<>> symbols;  // the size symbols' values the inputs were made with
    std::string firstNanNode;
    double totalUs = 0;   // whole replay, synchronised
    std::vector<double> iterationUs;  // the timed repeats (options.repeat), each synchronised
    // CUDA caching allocator's peak, inputs included: over the checked run; with timed repeats, what the last
    // repeat added to the memory in use when it started, plus its inputs (steady state); -1 on CPU.
    std::int64_t peakDeviceBytes = -1;
    std::string reference;            // what outputs were compared with ("cpu replay", "<file>")
    std::vector<OutputComparison> comparisons;
    bool cancelled = false;
    std::string fatal;    // set when the replay could not start (e.g. device unavailable)
    std::optional<CudaGraphReport> cudaGraph;  // with options.cudaGraph

    int count(NodeStatus s) const;
    bool passed() const;  // no mismatch, error, unsupported, NaN origin, fatal
    std::string verdict() const;  // "pass", "mismatch", "error", "unsupported", "nan"
};

// Cooperative cancellation (set from another thread); progress is (done, total).
struct CancelToken {
    std::atomic<bool> cancelled{false};
};
using ProgressSink = std::function<void(std::size_t done, std::size_t total)>;
using NodeSink = std::function<void(std::size_t index, const NodeResult& result)>;

}  // namespace fxray::replay
