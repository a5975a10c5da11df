#pragma once
// Internal to core/replay (includes LibTorch). torch.ops.higher_order.flex_attention(q, k, v, score_mod,
// block_mask, scale, kernel_options, score_mod_other_buffers, mask_mod_other_buffers) run by its eager math
// (torch/_higher_order_ops/flex_attention.py: sdpa_dense / math_attention): scores = q @ kᵀ * scale in float32
// (float64 for float64 inputs), score_mod and the block mask's mask_mod applied over every (b, h, q_idx, kv_idx),
// masked scores -inf, safe softmax, @ v; returns (out in query's stride order, logsumexp / ln 2, max / ln 2).
// score_mod and mask_mod are subgraphs of the graph (the readable dump's nested classes), read through get_attr
// nodes; they are planned like any graph (by the graph planner, engine/graph_plan.h, which hands itself in as the
// SubgraphPlanner: this room sits below it) and run on broadcast index tensors, which for their elementwise ops is
// what eager's vmap over the four dims computes.
#include "graph/graph.h"
#include "replay/ops/planned_subgraph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <functional>
#include <optional>
#include <vector>

namespace fxray::replay::detail {

// The plan of a get_attr node that reads a subgraph (flex_attention's score/mask functions): a value standing for
// it; nullopt when the attribute is no subgraph.
std::optional<NodePlan> planSubgraphAttr(const graph::Graph& g, const graph::Node& n);


// The plan of a higher_order.flex_attention node; nullopt for another node. Throws std::invalid_argument when its
// arguments do not fit or a subgraph does not plan.
std::optional<NodePlan> planFlexAttention(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                          const SubgraphPlanner& planSubgraph);

// The plan of a higher_order.flex_attention_backward node (the joint and backward graphs of a flex_attention
// training step), by the same math; nullopt for another node. Throws std::invalid_argument as planFlexAttention.
std::optional<NodePlan> planFlexAttentionBackward(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                                  const SubgraphPlanner& planSubgraph);

}  // namespace fxray::replay::detail
