#pragma once
// Internal to core/replay (includes LibTorch). Where graph inputs are made, beyond what their metadata says.
// Compiled autograd lifts the 0-dim CPU tensors that eager autograd keeps for scalars (DivBackward0::other_)
// into graph inputs; on a CUDA graph it moves those whose users are all aten/prims ops to the GPU, so that the
// whole graph can be captured (torch/_dynamo/compiled_autograd.py, move_graph_nodes_to_cuda). A replay on CUDA
// does the same, so it runs what the compiled backend ran.
#include "graph/graph.h"

#include <c10/core/Device.h>

#include <vector>

namespace fxray::replay::detail {

// Indices k of the `inputs` list placeholder (`inputs[k]`) to make on `device` instead of the CPU. Empty unless
// device is CUDA and the graph is a compiled-autograd graph with CUDA inputs (see graph::cudaMovableScalarInputs).
std::vector<int> inputsMovedToDevice(const graph::Graph& g, const c10::Device& device);

}  // namespace fxray::replay::detail
