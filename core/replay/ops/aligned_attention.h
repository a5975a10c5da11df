#pragma once
// Internal to core/replay (includes LibTorch). Attention under stage compare's aligned RNG (random_ops.h): SDPA with
// dropout, and the fused kernels a CUDA AOT graph keeps whole with their dropout inside (efficient, flash and cuDNN
// attention), run as inductor decomposes SDPA (scores, safe softmax, keep = u > p on aligned draw k, @ value), so the
// same user-level attention draws the same mask at every stage. A fused kernel's draw is numbered among inductor's
// seeds in program order (random_ops.cpp's alignedSeeds counts these nodes).
#include "graph/graph.h"
#include "replay/ops/random_ops.h"
#include "replay/plan/node_plan.h"

#include <optional>
#include <string>

namespace fxray::replay::detail {

// A fused attention forward node whose dropout_p is not a literal 0: it draws.
bool fusedAttentionDraws(const graph::Node& n);

// SDPA or a fused forward (`op`: its schema name, or a CPU stand-in's plan.name) with dropout, replaced by the
// aligned math and taking the next ordinal; nullopt (no ordinal taken) without dropout or for another op.
std::optional<NodePlan> alignedAttentionPlan(const NodePlan& plan, const std::string& op, RngPlan& rng);

}  // namespace fxray::replay::detail
