#pragma once
// Internal to core/replay (includes LibTorch). The plan of a whole graph: every node handed to the planner of its
// kind — dynamo-level calls to ops/torch_level, higher-order and Python-registered ops to their ops/ planners, a
// dispatcher call to plan/op_plan, getitem and SymInt arithmetic here — and, under aligned RNG, random calls
// rewritten to their aligned streams. The top of planning: it includes plan/ and ops/, which never include it
// (flex_attention's subgraphs are planned through the SubgraphPlanner handed to it).
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <cstdint>
#include <vector>

namespace fxray::replay::detail {

// How a graph's ops are read. An fx_graph_runnable record is the graph inductor was handed, never run eagerly:
// inductor's post-grad pass view_to_reshape turns every aten.view into aten.reshape before lowering, so a view of
// an input that inductor laid out padded (DeiT's saved attention weights [1312, 324, 18, 1]) is legal there and
// must be replayed as that reshape.
struct PlanOptions {
    bool viewAsReshape = false;
    // Stage compare's aligned RNG (random_ops.h): the k-th random call draws from a stream seeded by (rngSeed, k).
    bool alignedRng = false;
    std::uint64_t rngSeed = 0;
    // ReplayOptions::dtensorGlobal: DTensor's dynamo prims (from_local, redistribute, to_local) are identities.
    bool dtensorGlobal = false;
};

// Compiles every node of g for the given device. Never throws for a node: a node that cannot be planned
// becomes Kind::Unsupported with the reason.
std::vector<NodePlan> planGraph(const graph::Graph& g, const c10::Device& device, const PlanOptions& options = {});

}  // namespace fxray::replay::detail
