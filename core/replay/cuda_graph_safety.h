#pragma once
// Internal to core/replay (includes LibTorch): the analysis a cudagraph backend makes before capturing a graph
// (what torch/_inductor/cudagraph_utils.py checks), one finding per node and reason. Blocking findings mean
// capture is not attempted: the replay stays eager and the report says why.
#include "graph/graph.h"
#include "replay/op_plan.h"
#include "replay/replay_types.h"

#include <c10/core/Device.h>

#include <set>
#include <string>
#include <vector>

namespace fxray::replay::detail {

std::vector<CudaGraphFinding> analyzeCudaGraphSafety(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                                     const c10::Device& device);

// For each graph output (flattened in output-node order, as the replayer collects them), the names of the
// nondeterministic ops ("aten.index_put.default") upstream of it; empty when the output is reproducible bit for bit.
std::vector<std::set<std::string>> nondeterministicAncestors(const graph::Graph& g);

// Whether an op's results may legitimately differ between two runs on the same inputs (atomics, RNG).
bool isNondeterministicOp(const graph::Node& n);

}  // namespace fxray::replay::detail
