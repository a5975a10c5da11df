#pragma once
// Internal to core/replay (includes LibTorch). A custom torch.autograd.Function in a dynamo-level graph: dynamo
// writes `torch.ops.higher_order.autograd_function_apply(fwd_body_0, bwd_body_0, *args, non_differentiable_idx=...,
// saved_for_backward_idx=...)`, whose forward body (a subgraph of the graph's text) returns ((outputs...),
// (saved...)) and whose value is the outputs. A replay has no autograd: the forward body runs where it is called and
// the backward body is left to the AOT backward graph, which holds it traced (BLOOM's GeLUFunction, Megatron-style
// fused ops, many research models' custom functions).
#include "graph/graph.h"
#include "replay/ops/planned_subgraph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>

namespace fxray::replay::detail {

// The plan of a higher_order.autograd_function_apply node; nullopt for another node. Throws std::invalid_argument
// when its forward body is missing or holds a node that cannot run.
std::optional<NodePlan> planAutogradFunctionApply(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                                  const SubgraphPlanner& planSubgraph);

}  // namespace fxray::replay::detail
