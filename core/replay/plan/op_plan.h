#pragma once
// Internal to core/replay (includes LibTorch). The plan of one call of a dispatcher op: the node's arguments bound
// to the op's schema (constants built up front, references to earlier nodes' values), the prims LibTorch lacks
// lowered to aten or run with their eager definitions (plan/inductor_prims.h), a CPU stand-in where the device has
// no kernel (plan/attention_fallback.h) or where its CPU kernel refuses a dtype CUDA's takes (plan/cpu_dtype_gaps.h).
// Every planner of a higher level that resolves to a dispatcher op plans it here: the graph planner
// (engine/graph_plan.h), torch-level calls (ops/torch_level.h), checkpointing's RNG ops.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

namespace fxray::replay::detail {

// The plan of one call of a dispatcher op (n's target is an Op: torch.ops.<ns>.<op>.<overload>); Unsupported with
// the reason when its arguments do not fit the schema or the device has no kernel. Torch-level calls resolved to
// an aten overload are planned through it.
NodePlan planOpNode(const graph::Graph& g, const graph::Node& n, const c10::Device& device);

}  // namespace fxray::replay::detail
