#pragma once
// Internal to core/replay (includes LibTorch). Activation checkpointing's RNG higher-order ops
// (torch/_prims/rng_prims.py), which AOTAutograd puts around every random op it recomputes (dropout, SDPA, drop-path's
// bernoulli) under torch.utils.checkpoint and selective AC:
//   run_and_save_rng_state(op, *args, **kwargs) -> (state, op(*args, **kwargs))
//       the device's generator state before the op, then the op's result (the forward);
//   run_with_rng_state(state, op, *args, **kwargs) -> op(*args, **kwargs)
//       the op run with the generator set to `state`, the generator put back after (the backward's recompute,
//       which so draws the forward's mask).
//   graphsafe_run_with_rng_state(op, *args, rng_state=G, **kwargs) -> op(*args, **kwargs)
//       the op drawn from generator G (a graph input: AOTAutograd's fwd_rng_state_<k> / bwd_rng_state_<k>, one per
//       random op, under checkpointing on CUDA), which its draws advance; the device's generator put back after.
// The op is a dispatcher op passed as a value (graph::Arg::Kind::Op). Both run natively with those eager semantics:
// the op is planned like any node (planOpNode) and run inside the plan's native step; the device is the first CUDA
// tensor among the op's arguments, else the CPU (rng_prims.get_device).
#include "graph/graph.h"
#include "replay/plan/node_plan.h"
#include "replay/ops/random_ops.h"

#include <c10/core/Device.h>

#include <optional>

namespace fxray::replay::detail {

inline constexpr const char* kGraphsafeRun = "graphsafe_run_with_rng_state";

// The plan of a higher_order.run_and_save_rng_state / run_with_rng_state node; nullopt for another node. Throws
// std::invalid_argument when its arguments do not fit (no op value, the op does not plan). In aligned RNG mode (stage
// compare) the forward's op draws its aligned stream like any random op; the recompute restores the global
// generator, which aligned draws do not read, so aligned mode is for the forward stages (as stage compare is).
std::optional<NodePlan> planRngStateOp(const graph::Graph& g, const graph::Node& n, const c10::Device& device, RngPlan& rng);

// Whether n is one of those ops, and the op node it runs (n's op argument as a call with the remaining arguments).
bool isRngStateOp(const graph::Node& n);
std::optional<graph::Node> innerOpNode(const graph::Node& n);

}  // namespace fxray::replay::detail
