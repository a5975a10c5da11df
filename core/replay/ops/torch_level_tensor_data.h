#pragma once
// Internal to core/replay (includes LibTorch). torch.tensor(data, dtype=, device=), torch.as_tensor and
// like.new_tensor(data, ...) in dynamo-level graphs, with torch's own rules (torch/csrc/utils/tensor_new.cpp):
//  - data a tensor (a graph value: HF wav2vec2's `torch.tensor(mask_time_indices, device=..., dtype=torch.bool)` of
//    the numpy mask dynamo hands in as a tensor): a copy at the asked dtype and device, its strides kept
//    (`data.to(device, dtype, copy=True)`, detached), defaults the data's own (new_tensor: like's); as_tensor
//    converts without copying when nothing changes;
//  - data nested lists of numbers: literals (what dynamo baked into the graph: the graph was specialized on those
//    values and guards on them, so replaying them is replaying that graph) and graph values (SymInt / SymFloat /
//    SymBool nodes, 0-d tensors) read at run time; the dtype inferred as torch does (bool, int64, the default
//    float32, a 0-d tensor's own, promoted across elements). A value that came from a random draw is a node like
//    any other: outputs made from it depend on that draw (compared by rate where the draw is not reproduced).
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

namespace fxray::replay::detail {

enum class TensorDataCall { Tensor, AsTensor, NewTensor };

// `like` is new_tensor's self (nullptr otherwise). Throws std::invalid_argument for data of another form.
NodePlan planTensorData(const graph::Graph& g, TensorDataCall call, const graph::Arg& data, const graph::Arg* dtype,
                        const graph::Arg* device, const graph::Arg* like, const c10::Device& replayDevice);

}  // namespace fxray::replay::detail
