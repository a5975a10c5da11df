#pragma once
// Internal to core/replay (includes LibTorch). Activation checkpointing in dynamo-level graphs:
// `torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, *operands, use_reentrant=False, ...)` calls its
// body (a subgraph of the graph's text) on the operands and returns the body's outputs as a tuple; checkpointing
// only decides what autograd saves, which a replay (no autograd) does not have. HF's gradient checkpointing and
// torch.utils.checkpoint put one around every checkpointed layer (issue 21: T5's checkpoint recipe, 6 trace graphs).
#include "graph/graph.h"
#include "replay/ops/planned_subgraph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>

namespace fxray::replay::detail {

// The plan of a higher_order.tag_activation_checkpoint node; nullopt for another node. Throws
// std::invalid_argument when its body is missing or holds a node that cannot run.
std::optional<NodePlan> planCheckpointHop(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                          const SubgraphPlanner& planSubgraph);

}  // namespace fxray::replay::detail
