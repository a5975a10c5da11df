// After the pass: the graph's outputs compared with a reference (saved eager outputs, another device's replay, or
// the reference stage's user outputs in stage compare), with dtype tolerances; outputs of random draws the replay
// cannot reproduce compared by rate, uninitialised memory and generated constants not compared, with the reason.
#include "replay/engine/replay_pass.h"

#include "base/error.h"
#include "io/pt_file.h"
#include "replay/cuda_graph/cuda_graph_safety.h"
#include "replay/ops/random_ops.h"
#include "replay/stages/shard_cut.h"
#include "replay/stages/stage_io.h"
#include "replay/values/pt_tensors.h"
#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"

#include <ATen/Context.h>

#include <algorithm>

namespace fxray::replay::engine {
namespace {

// Why output k cannot be compared with any reference ("" when it can): random draws differ between runs and
// devices, and empty*() memory holds whatever the allocator had. Uninitialised memory first: no restored generator
// or aligned RNG makes it comparable (attention's philox seed/offset without dropout, downstream of a dropout).
std::string notComparable(const detail::OutputNondeterminism& nd)
{
    if (!nd.uninitialised.empty())
        return "not compared: uninitialised memory of " + *nd.uninitialised.begin();
    if (!nd.random.empty())
        return "not compared: depends on random op " + *nd.random.begin();
    return "";
}

// cuDNN runs f32 convolutions in TF32 unless told otherwise (torch.backends.cudnn.allow_tf32, true by default in
// LibTorch and in eager) and may pick another algorithm in each process: densenet121's weight gradients differed
// from eager by 6.5e-4 on an H100. Such graphs' f32 outputs are compared with TF32's tolerance.
bool usesTf32Convolutions(const graph::Graph& g, const c10::Device& device)
{
    if (!device.is_cuda() || !at::globalContext().allowTF32CuDNN())
        return false;
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const graph::Node& n) {
        return n.isOp() && n.target.op.find("convolution") != std::string::npos;
    });
}

// The saved outputs named by --expected: a file, or "auto" for the dump's own <name>.expected.pt.
std::string expectedOutputsFile(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report)
{
    if (options.expectedOutputsPath != "auto")
        return options.expectedOutputsPath;
    if (lg.expectedOutputsPath.empty())
        report.notes.push_back("outputs not compared: the dump has no saved eager outputs (<name>.expected.pt)");
    return lg.expectedOutputsPath;
}

}  // namespace

// Stage compare: the user outputs saved for the stages after this one, or compared with the reference stage's,
// only when every node ran (a stage with errors or unsupported nodes is a failed stage, not a divergent one).
void compareStageOutputs(const Prepared& p, const StageIo& stage, const std::vector<c10::IValue>& outputs,
                         ReplayReport& report)
{
    const int unclean = report.count(NodeStatus::Error) + report.count(NodeStatus::Skipped) +
                        report.count(NodeStatus::Unsupported) + report.count(NodeStatus::NotRun);
    if (report.cancelled || unclean > 0) {
        report.notes.push_back("outputs not compared: the stage did not run cleanly to the end");
        return;
    }
    // The inputs as the run left them, then the attributes lined up with inputs (constantMap), as it left them.
    std::vector<c10::IValue> afterRun = p.inputs;
    for (const auto& [name, from] : stage.constantMap) {
        const auto it = p.constants.find(name);
        afterRun.push_back(it == p.constants.end() ? c10::IValue() : c10::IValue(it->second));
    }
    std::vector<c10::IValue> mine = detail::userOutputs(outputs, afterRun, stage.outputMap);
    if (!stage.saveOutputs.empty())
        detail::saveValues(mine, stage.saveOutputs);
    if (stage.referenceOutputs.empty())
        return;
    std::vector<c10::IValue> reference = detail::loadValues(stage.referenceOutputs);
    if (stage.promote) {
        // The precision check compares in float64: with a float64 reference, or with the reference as it was
        // computed (how far the reference itself is from its float64 value).
        for (auto* values : {&mine, &reference})
            for (c10::IValue& v : *values)
                if (v.isTensor() && v.toTensor().is_floating_point())
                    v = v.toTensor().to(at::kDouble);
    }
    report.reference = "reference stage";
    // A distributed replay's rank: the single-rank reference's global outputs, each cut to this rank's part.
    std::vector<std::string> partial(reference.size());
    // (A dynamo-level graph replayed as the unsharded computation itself takes them whole: no shards.)
    if (!stage.inputsFile.empty())
        report.reference = stage.outputShards.empty() ? "single-rank reference (the unsharded computation, whole)"
                                                      : "single-rank reference (the unsharded computation, cut to this rank's shard)";
    for (std::size_t u = 0; u < reference.size() && u < stage.outputShards.size(); ++u) {
        if (stage.outputShards[u].empty() || !reference[u].isTensor())
            continue;
        // A placement fxray cannot cut (_StridedShard, ...) leaves that output uncompared, not the whole stage.
        try {
            const graph::ShardCut cut = graph::ShardCut::parse(stage.outputShards[u]);
            if (cut.partial())
                partial[u] = "not compared: the output is a partial value (" + cut.placements + "); only the ranks' sum is the reference's";
            else
                reference[u] = detail::cutShard(reference[u].toTensor(), cut);
        } catch (const Error& e) {
            partial[u] = std::string("not compared: ") + e.what();
        }
    }
    // An AOT graph lifts a literal of the dynamo graph into a constant tensor (BART's and Whisper's decoder start
    // token) that a trace log logs no value for: an output computed from its generated stand-in differs from the
    // dynamo stage's for no fault of the compiler.
    const auto nondeterminism = detail::outputNondeterminism(*p.graph, p.plans, p.generatedConstants);
    const auto mutated = detail::inputNondeterminism(*p.graph, p.plans, p.generatedConstants);
    // cuDNN's TF32 convolutions: either stage may have them (a dynamo graph calls torch.conv2d, not convolution).
    const bool tf32 = p.device.is_cuda() && at::globalContext().allowTF32CuDNN() &&
                      std::any_of(p.graph->nodes.begin(), p.graph->nodes.end(),
                                  [](const graph::Node& n) { return n.target.op.find("conv") != std::string::npos; });
    for (std::size_t u = 0; u < mine.size(); ++u) {
        const int at = stage.outputMap[u];
        std::string why = u < partial.size() && !partial[u].empty() ? partial[u]
                          : at == -1 ? "not compared: this stage has no counterpart of user output " + std::to_string(u)
                          : u >= reference.size() || (reference[u].isNone() && !mine[u].isNone())
                              ? "not compared: the reference stage has no counterpart"
                              : "";
        // An input the stage mutated (at = -(j + 2)): what upstream of the values written into it.
        const auto input = static_cast<std::size_t>(-at - 2);
        const detail::OutputNondeterminism* nd =
            at >= 0 && static_cast<std::size_t>(at) < nondeterminism.size() ? &nondeterminism[static_cast<std::size_t>(at)]
            : at <= -2 && input < mutated.size()                              ? &mutated[input]
                                                                              : nullptr;
        // Aligned RNG: every stage draws the same values for the same random call, so random outputs compare too.
        if (why.empty() && nd && !nd->random.empty() && nd->uninitialised.empty() && !p.planOptions.alignedRng) {
            report.comparisons.push_back(detail::compareRandomOutput(mine[u], reference[u], static_cast<int>(u), *nd->random.begin()));
            continue;
        }
        if (why.empty() && nd && (nd->random.empty() || !nd->uninitialised.empty() || !p.planOptions.alignedRng))
            why = notComparable(*nd);
        if (why.empty() && at >= 0 && static_cast<std::size_t>(at) < nondeterminism.size() &&
            !nondeterminism[static_cast<std::size_t>(at)].generatedConstants.empty())
            why = "not compared: depends on constant " + *nondeterminism[static_cast<std::size_t>(at)].generatedConstants.begin() +
                  ", which the log holds no value for (generated here; the other stages have its real value)";
        if (why.empty()) {
            // bf16 before f16: the coarser rounding bounds what the stages may differ by.
            const std::string computedIn = !nd || nd->lowPrecision.empty() ? ""
                                           : nd->lowPrecision.contains("bfloat16") ? "bfloat16"
                                                                                   : *nd->lowPrecision.begin();
            report.comparisons.push_back(
                detail::compareOutput(mine[u], reference[u], static_cast<int>(u), false, tf32, computedIn));
            continue;
        }
        OutputComparison c;
        c.output = static_cast<int>(u);
        c.what = detail::describeValue(mine[u]);
        c.compared = false;
        c.note = why;
        report.comparisons.push_back(std::move(c));
    }
}

// Accuracy against another device's replay or saved outputs, only when the pass ran to the end.
void compareOutputs(const io::LoadedGraph& lg, const Prepared& p, const ReplayOptions& options,
                    const std::vector<c10::IValue>& pristine, const std::vector<c10::IValue>& outputs,
                    CancelToken* cancel, ReplayReport& report)
{
    const bool complete = !report.cancelled && report.count(NodeStatus::NotRun) == 0;
    const std::string expectedPath = options.compareDevice.empty() ? expectedOutputsFile(lg, options, report) : "";
    if (options.compareDevice.empty() && expectedPath.empty())
        return;
    if (!complete) {
        report.notes.push_back("outputs not compared: the replay stopped before the end");
        return;
    }
    std::vector<c10::IValue> reference;
    if (!options.compareDevice.empty()) {
        Prepared other = p;
        other.device = resolveDevice(options.compareDevice);
        other.plans = detail::planGraph(*p.graph, other.device, p.planOptions);
        other.inputs = moveTo(pristine, p.device, other.device);
        for (auto& [name, t] : other.constants)
            t = t.to(other.device);
        ReplayOptions unchecked = options;
        unchecked.stopOnFirst = false;
        reference = interpret(other, unchecked, nullptr, nullptr, nullptr, cancel, {});
        synchronize(other.device);
        report.reference = other.device.str() + " replay";
    } else {
        reference = detail::valuesFromPtList(io::readPtFile(expectedPath), c10::Device(c10::kCPU));
        report.reference = expectedPath;
    }
    if (reference.size() != outputs.size())
        throw Error("reference has " + std::to_string(reference.size()) + " outputs, the graph " +
                    std::to_string(outputs.size()));
    const auto nondeterminism = detail::outputNondeterminism(*p.graph, p.plans);
    const bool tf32 = usesTf32Convolutions(*p.graph, p.device);
    // Draws are reproduced only against saved outputs of the same device, with the capture's state restored.
    const bool drawsReproduced = p.rngRestored && options.compareDevice.empty();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const bool random = k < nondeterminism.size() && !nondeterminism[k].random.empty();
        if (random && nondeterminism[k].uninitialised.empty() && !drawsReproduced) {
            report.comparisons.push_back(
                detail::compareRandomOutput(outputs[k], reference[k], static_cast<int>(k), *nondeterminism[k].random.begin()));
            continue;
        }
        // Reproduced draws make a random output comparable, never uninitialised memory: T5's efficient attention
        // below a dropout returns philox seed/offset that it never writes without dropout of its own (4 i64[]
        // outputs of t5.flex_forward_2 "differed" from eager on the H100 and H200, by the allocator's bits).
        const bool uninitialised = k < nondeterminism.size() && !nondeterminism[k].uninitialised.empty();
        const std::string why = k < nondeterminism.size() && (uninitialised || !(random && drawsReproduced))
                                    ? notComparable(nondeterminism[k])
                                    : "";
        if (why.empty()) {
            report.comparisons.push_back(detail::compareOutput(outputs[k], reference[k], static_cast<int>(k), false, tf32));
            continue;
        }
        OutputComparison c;
        c.output = static_cast<int>(k);
        c.what = detail::describeValue(outputs[k]);
        c.compared = false;
        c.note = why;
        report.comparisons.push_back(std::move(c));
    }
}

}  // namespace fxray::replay::engine
