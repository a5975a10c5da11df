#pragma once
// Internal to core/replay (includes LibTorch). `with torch.nn.attention.sdpa_kernel(backends):` in a dynamo-level
// graph: dynamo writes the context manager's entry and exit as calls of torch.nn.attention._sdpa_kernel(list of
// _backend_from_string('CUDNN_ATTENTION'), ..., set_priority), and the SDPA calls between them may pick only those
// backends. The replay runs them so: each SDPA op in the region under a guard that sets LibTorch's backend flags (and
// priority) as the user's did and puts the previous ones back, so a forced cuDNN or flash kernel is the one replayed
// on a GPU, and no flag leaks into the next node or graph.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// The SDPA backends a region lets through (SDPBackend values: math 0, flash 1, efficient 2, cudnn 3, overrideable 4),
// in the user's order.
struct SdpaBackends {
    std::vector<std::int64_t> allowed;
    bool setPriority = false;
};

// Whether n is torch.nn.attention._backend_from_string('NAME') or _sdpa_kernel(backends, set_priority): the calls
// dynamo writes for sdpa_kernel(), planned as no-ops whose effect the region carries.
bool isBackendFromString(const graph::Node& n);
bool isSdpaKernelCall(const graph::Node& n);

// The backends an _sdpa_kernel call enables: its list names _backend_from_string nodes. Throws std::invalid_argument
// naming what it cannot read (a backend computed otherwise than from a literal name). nullopt: all five, which is
// how the context manager's exit restores the default (no region).
std::optional<SdpaBackends> sdpaBackendsOf(const graph::Graph& g, const graph::Node& call);

// `p` (an SDPA op or its native stand-in) run with LibTorch's SDPA backend flags as `region` sets them. On the CPU,
// where only flash and math kernels exist, a region that allows neither leaves the CPU's own choice, and says so.
NodePlan underSdpaBackends(NodePlan p, const SdpaBackends& region, const c10::Device& device);

}  // namespace fxray::replay::detail
