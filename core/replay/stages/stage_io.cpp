#include "replay/stages/stage_io.h"

#include "base/error.h"
#include "replay/inputs/input_factory.h"
#include "replay/stages/shard_cut.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace fxray::replay::detail {
namespace {

constexpr const char* kPythonGenerator = "fxray.generator";  // tools/runtime/run_output_code.py reads this tag

// Stage compare's precision check: the inputs as generated, then in float64 (strides kept where they can be).
void promoteInputs(std::vector<c10::IValue>& inputs)
{
    for (c10::IValue& v : inputs)
        if (v.isTensor() && (v.toTensor().is_floating_point() || v.toTensor().is_complex()))
            v = v.toTensor().to(v.toTensor().is_complex() ? at::kComplexDouble : at::kDouble);
}

}  // namespace

std::vector<c10::IValue> makeStageInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                         ReplayReport& report, std::map<std::string, at::Tensor>& constants)
{
    const StageIo& stage = *options.stage;
    ReplayOptions plain = options;
    plain.stage.reset();
    std::vector<c10::IValue> reference;
    if (!stage.inputsFile.empty()) {
        // A distributed replay: the global inputs the single-rank reference ran on, the same file for every rank.
        for (const c10::IValue& v : loadValues(stage.inputsFile))
            reference.push_back(v.isTensor() ? c10::IValue(v.toTensor().to(device)) : v);
    } else {
        // Loaded from its address for every stage, the AOT stage included (whose own graph came over the wire as
        // printed text): every stage's inputs come from the very same graph, hence the same values.
        const io::LoadedGraph sourceGraph = io::loadAddress(stage.inputsFrom);
        reference = makeInputs(sourceGraph, plain, device, report);
    }
    const std::size_t count = lg.graph.placeholders().size();
    if (stage.inputMap.size() != count)
        throw Error("stage input map has " + std::to_string(stage.inputMap.size()) + " entries for " + std::to_string(count) +
                    " placeholders");
    std::vector<c10::IValue> own;
    bool needOwn = false;
    for (int k : stage.inputMap)
        needOwn = needOwn || k < 0;
    if (needOwn) {
        // Same shapes as the reference inputs: the size symbols keep the values they were given.
        ReplayOptions same = plain;
        for (const auto& [name, value] : report.symbols)
            same.symbolValues[name] = value;
        ReplayReport scratch;
        own = makeInputs(lg, same, device, scratch);
    }
    std::vector<c10::IValue> inputs(count);
    for (std::size_t k = 0; k < count; ++k) {
        const int from = stage.inputMap[k];
        if (from >= static_cast<int>(reference.size()))
            throw Error("stage input map: input " + std::to_string(from) + " of " + std::to_string(reference.size()));
        inputs[k] = from >= 0 ? reference[static_cast<std::size_t>(from)] : own[k];
        const std::string shard = k < stage.inputShards.size() ? stage.inputShards[k] : "";
        if (from >= 0 && !shard.empty()) {
            if (!inputs[k].isTensor())
                throw Error("stage input " + std::to_string(k) + " has a DTensor layout but input " + std::to_string(from) +
                            " of " + stage.inputsFile + " is not a tensor");
            inputs[k] = cutShard(inputs[k].toTensor(), graph::ShardCut::parse(shard));
        }
    }
    for (const auto& [name, from] : stage.constantMap) {
        if (from < 0 || from >= static_cast<int>(reference.size()) || !reference[static_cast<std::size_t>(from)].isTensor())
            throw Error("stage constant map: constant self." + name + " takes input " + std::to_string(from) + " of " +
                        std::to_string(reference.size()) + ", which is not a tensor");
        constants[name] = reference[static_cast<std::size_t>(from)].toTensor();
    }
    if (!stage.constantMap.empty())
        report.notes.push_back(std::to_string(stage.constantMap.size()) + " module attribute(s) (self." + stage.constantMap.front().first +
                               ", ...) take the values generated for the inputs AOTAutograd lifted them to");
    report.notes.push_back(stage.inputsFile.empty() ? "inputs: generated for " + stage.inputsFrom
                   : stage.inputShards.empty() ? "inputs: the single-rank reference's global inputs, whole"
                                               : "inputs: this rank's shards of the single-rank reference's global inputs");
    if (stage.promote)
        promoteInputs(inputs);
    return inputs;
}

std::vector<c10::IValue> userOutputs(const std::vector<c10::IValue>& outputs, const std::vector<c10::IValue>& inputs,
                                     const std::vector<int>& outputMap)
{
    std::vector<c10::IValue> out;
    for (int k : outputMap) {
        const int input = -k - 2;
        if (k >= 0 && k < static_cast<int>(outputs.size()))
            out.push_back(outputs[static_cast<std::size_t>(k)]);
        else if (k <= -2 && input < static_cast<int>(inputs.size()))
            out.push_back(inputs[static_cast<std::size_t>(input)]);
        else
            out.emplace_back();
    }
    return out;
}

namespace {

// A CPU copy of t with its exact strides and only the storage they reach. The generated code of the output_code
// stage asserts its inputs' strides (assert_size_stride), an expand's stride 0 included (BART's and Whisper's
// attention masks), and .cpu() or .contiguous() would hand it a dense tensor instead.
at::Tensor cpuCopyKeepingLayout(const at::Tensor& t)
{
    const auto strides = t.strides();
    if (t.numel() == 0 || t.layout() != at::kStrided || std::any_of(strides.begin(), strides.end(), [](std::int64_t s) { return s < 0; }))
        return t.cpu().contiguous();
    std::int64_t extent = 1;
    for (std::size_t d = 0; d < strides.size(); ++d)
        extent += (t.size(static_cast<std::int64_t>(d)) - 1) * strides[d];
    const at::Tensor span = t.as_strided({extent}, {1}, t.storage_offset()).to(at::kCPU, /*non_blocking=*/false, /*copy=*/true);
    return span.as_strided(t.sizes(), strides, 0);
}

// A generator input (graphsafe_run_with_rng_state's rng_state) as ("fxray.generator", device, state): LibTorch's
// pickler writes no generator; tools/runtime/run_output_code.py makes one again from it.
c10::IValue generatorForPython(const at::Generator& gen)
{
    return c10::ivalue::Tuple::create(std::string(kPythonGenerator), gen.device().str(), generatorState(gen));
}

}  // namespace

void saveStageInputs(const std::vector<c10::IValue>& inputs, const std::string& path)
{
    c10::impl::GenericList list(c10::AnyType::get());
    for (const c10::IValue& v : inputs)
        if (v.isGenerator())
            list.push_back(generatorForPython(v.toGenerator()));
        else
            list.push_back(v.isTensor() && v.toTensor().defined() ? c10::IValue(cpuCopyKeepingLayout(v.toTensor().resolve_conj().resolve_neg())) : v);
    const std::vector<char> bytes = torch::jit::pickle_save(c10::IValue(list));
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f)
        throw Error("cannot write the stage's inputs", fileLocation(path));
}

std::vector<c10::IValue> externalOutputs(const std::string& path, const c10::Device& device, std::vector<c10::IValue>& inputs)
{
    const std::vector<c10::IValue> both = loadValues(path);
    if (both.size() != 2 || !both[0].isList() || !both[1].isList())
        throw Error("expected [outputs, inputs] (tools/runtime/run_output_code.py's layout)", fileLocation(path));
    auto onDevice = [&](const c10::IValue& v) { return v.isTensor() ? c10::IValue(v.toTensor().to(device)) : v; };
    std::vector<c10::IValue> outputs;
    for (const c10::IValue& v : both[0].toListRef())
        outputs.push_back(onDevice(v));
    const auto after = both[1].toListRef();
    if (after.size() != inputs.size())
        throw Error("the generated code's run left " + std::to_string(after.size()) + " inputs, the graph has " +
                        std::to_string(inputs.size()),
                    fileLocation(path));
    for (std::size_t k = 0; k < after.size(); ++k)
        if (!inputs[k].isGenerator())  // the generator stays fxray's; the code's comes back as a tuple
            inputs[k] = onDevice(after[k]);
    return outputs;
}


void saveValues(const std::vector<c10::IValue>& values, const std::string& path)
{
    c10::impl::GenericList list(c10::AnyType::get());
    for (const c10::IValue& v : values)
        list.push_back(v.isTensor() ? c10::IValue(cpuCopyKeepingLayout(v.toTensor().resolve_conj().resolve_neg())) : v);
    const std::vector<char> bytes = torch::jit::pickle_save(c10::IValue(list));
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f)
        throw Error("cannot write the stage's outputs", fileLocation(path));
}

std::vector<c10::IValue> loadValues(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw Error("cannot read the reference stage's outputs", fileLocation(path));
    const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const c10::IValue v = torch::jit::pickle_load(bytes);
    if (!v.isList())
        throw Error("the reference stage's outputs are not a list", fileLocation(path));
    std::vector<c10::IValue> out;
    for (const c10::IValue& x : v.toListRef())
        out.push_back(x);
    return out;
}

}  // namespace fxray::replay::detail
