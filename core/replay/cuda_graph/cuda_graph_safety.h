#pragma once
// Internal to core/replay (includes LibTorch): the analysis a cudagraph backend makes before capturing a graph
// (what torch/_inductor/cudagraph_utils.py checks), one finding per node and reason. Blocking findings mean
// capture is not attempted: the replay stays eager and the report says why.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"
#include "replay/api/replay_types.h"

#include <c10/core/Device.h>

#include <set>
#include <string>
#include <vector>

namespace fxray::replay::detail {

std::vector<CudaGraphFinding> analyzeCudaGraphSafety(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                     const c10::Device& device);

// What upstream of one graph output makes it differ between two runs on the same inputs: ops that accumulate with
// atomics (the output is close, not equal) and random state (RNG draws, philox seeds: the values are unrelated).
struct OutputNondeterminism {
    std::set<std::string> atomics;  // "aten.index_add.default"
    std::set<std::string> random;   // "aten.native_dropout.default", "aten._scaled_dot_product_efficient_attention.default philox_seed"
    std::set<std::string> uninitialised;  // the output is an empty*() op's memory itself ("aten.empty.memory_format")
    std::set<std::string> generatedConstants;  // get_attr constants the dump holds no value for (`generated` below)
    // "bfloat16", "float16": an upstream node's recorded output is of that dtype (autocast, explicit casts). Two
    // compiles of it round at other places (inductor keeps a fused kernel's intermediates in f32), so its f32
    // outputs differ between stages by that dtype's rounding, not f32's.
    std::set<std::string> lowPrecision;
};
// One entry per graph output, flattened in output-node order as the replayer collects them.
// `generated` names the constants whose values were made up for this replay (no logged value).
std::vector<OutputNondeterminism> outputNondeterminism(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                       const std::set<std::string>& generated = {});
// One entry per placeholder: what upstream of the values the graph writes into it in place (the inputs a training
// compile mutates: batch norm's running stats after a drop-path depend on its draws); empty for inputs it leaves.
std::vector<OutputNondeterminism> inputNondeterminism(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                      const std::set<std::string>& generated = {});

// Per node: its values differ between two runs on the same inputs whatever the kernels do: drawn from random state,
// downstream of a draw, never-written memory, or a node that returns RNG state (attention's philox seed and offset).
// Their statistics are not compared between a captured graph's replay and the checked pass.
std::vector<bool> valuesVaryBetweenRuns(const graph::Graph& g, const std::vector<NodePlan>& plans);

// Random numbers: a captured graph draws from the generator's philox offsets, not eager's sequence.
bool isRandomOp(const graph::Node& n);
// Atomic accumulation on CUDA (the torch.use_deterministic_algorithms list): the order of additions varies.
bool isAtomicOp(const graph::Node& n);
// empty, empty_like, empty_strided, new_empty, ...: the values are whatever the allocator hands out.
bool isUninitialisedOp(const graph::Node& n);

}  // namespace fxray::replay::detail
