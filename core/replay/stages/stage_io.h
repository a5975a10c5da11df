#pragma once
// Internal to core/replay (includes LibTorch): a compile's stage fed the inputs generated for another graph of the
// compile (ReplayOptions::stage), and its user outputs written for / compared with the reference stage's.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

#include <map>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// The inputs generated (seeded, value domains of that graph) for options.stage->inputsFrom, placed at this
// graph's placeholders by inputMap; placeholders mapped to -1 are generated from their own metadata with the same
// size-symbol bindings; the constants of constantMap from the same inputs, into `constants`. Throws fxray::Error
// when the other graph cannot be loaded or a map entry is out of range.
std::vector<c10::IValue> makeStageInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                         ReplayReport& report, std::map<std::string, at::Tensor>& constants);

// The graph's outputs at outputMap's positions, in user-output order (None where the stage has no counterpart);
// an entry -(j + 2) takes input j as the run left it (an input the graph mutated in place).
std::vector<c10::IValue> userOutputs(const std::vector<c10::IValue>& outputs, const std::vector<c10::IValue>& inputs,
                                     const std::vector<int>& outputMap);

// The output_code stage: the inputs written for the generated code (on the CPU, strides and storage offsets as
// generated), and the values its run wrote back ([outputs, inputs as the run left them]; the inputs replace
// `inputs`). Throws fxray::Error naming the file when it cannot be read or has another layout.
void saveStageInputs(const std::vector<c10::IValue>& inputs, const std::string& path);
std::vector<c10::IValue> externalOutputs(const std::string& path, const c10::Device& device, std::vector<c10::IValue>& inputs);

// Values as a LibTorch pickle (what torch.load reads too), tensors moved to the CPU first; and back.
void saveValues(const std::vector<c10::IValue>& values, const std::string& path);
std::vector<c10::IValue> loadValues(const std::string& path);

}  // namespace fxray::replay::detail
