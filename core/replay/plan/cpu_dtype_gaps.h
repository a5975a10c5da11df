#pragma once
// Internal to core/replay (includes LibTorch). Ops whose CPU kernel refuses dtypes their CUDA kernel takes, run on a
// CPU replay by widening: a graph recorded on a GPU then replays on a machine without one. Today histc on integer
// input (Mixture-of-Experts routers count tokens per expert so: `torch.histc(experts.int(), bins=E, min=0, max=E-1)`,
// "histogram_cpu" not implemented for 'Int').
#include "replay/plan/node_plan.h"

#include <optional>
#include <vector>

namespace fxray::replay::detail {

// The plan of `op` on the CPU with its dtype gap bridged, the schema's arguments already planned; nullopt when `op` has
// no such gap.
std::optional<NodePlan> planCpuDtypeGap(const c10::OperatorHandle& op, const std::vector<ArgPlan>& args);

}  // namespace fxray::replay::detail
