#pragma once
// Internal to core/replay (includes LibTorch). Ops whose CPU kernel refuses dtypes their CUDA kernel takes, run on a
// CPU replay by widening: a graph recorded on a GPU then replays on a machine without one.
// - histc on integer input, planned so up front (Mixture-of-Experts routers count tokens per expert so:
//   `torch.histc(experts.int(), bins=E, min=0, max=E-1)`, "histogram_cpu" not implemented for 'Int').
// - Any functional op whose CPU kernel has no Half or BFloat16 kernel (avg_pool3d, multi_margin_loss, trace,
//   antialiased upsampling, ... in a bf16 training graph): retried in float32 after the kernel said so, its float32
//   results cast back. Which ops lack which dtype changes between torch releases, so the kernel's own refusal decides,
//   not a list kept here.
#include "replay/plan/node_plan.h"

#include <c10/util/Exception.h>

#include <optional>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// The plan of `op` on the CPU with its dtype gap bridged, the schema's arguments already planned; nullopt when `op` has
// no such gap known up front.
std::optional<NodePlan> planCpuDtypeGap(const c10::OperatorHandle& op, const std::vector<ArgPlan>& args);

// After the CPU kernel of `plan` (an Op plan) refused a reduced floating dtype (`refused`: its "... not implemented for
// 'BFloat16'"), runs the op again on `values` with that dtype's CPU tensors widened to float32, and casts its float32
// results back to the dtype when no argument was float32 to begin with. The results are left in `stack`. Returns the
// note for the report, or "" when the op cannot be retried so (it writes into an argument or returns a view of one,
// the refused dtype is not Half/BFloat16, or no argument holds it); the caller then reports the kernel's error.
std::string runWidenedOnCpu(const NodePlan& plan, const std::vector<c10::IValue>& values, std::vector<c10::IValue>& stack,
                            const c10::NotImplementedError& refused);

}  // namespace fxray::replay::detail
