#pragma once
// Internal to core/replay (includes LibTorch). The prims inductor registers from Python
// (torch/_inductor/inductor_prims.py), which a C++ process lacks, run with their eager definitions: the dispatcher
// call's planner (op_plan) hands them here when it cannot lower a prim to aten.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

namespace fxray::replay::detail {

// Prims that inductor registers from Python (torch/_inductor/inductor_prims.py), so LibTorch lacks them, and that
// its post-grad passes put into every CUDA graph they touch: fma(a, b, c) = a * b + c, and
// prepare_softmax_online(x, dim) = (amax(x, dim, keepdim), sum(exp(x - amax), dim, keepdim)) (online softmax).
// Run with their eager definitions. Throws std::invalid_argument for another prim or arguments that do not fit.
NodePlan planInductorPrim(const graph::Graph& g, const graph::Node& n);

}  // namespace fxray::replay::detail
