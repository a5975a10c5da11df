#pragma once
// Internal to core/replay (includes LibTorch). Autocast regions of dynamo-level graphs
// (`_enter_autocast('cuda', torch.bfloat16, True, None)` ... `_exit_autocast(...)`): the ops planned inside one
// run with autocast set as the region says, through a guard that restores the previous state after each op, so
// that a replay stopped inside a region (an error, --stop-on-first) leaves no autocast state behind for the next
// replay of the same process.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <optional>

namespace fxray::replay::detail {

struct AutocastRegion {
    c10::DeviceType device = c10::DeviceType::CPU;  // mapped as tensors are: a recorded 'cuda' is the replay device
    c10::ScalarType dtype = c10::ScalarType::BFloat16;
    bool enabled = true;
    bool ambient = false;  // not opened in the graph: inferred from the recorded dtypes (see ambientAutocast)
};

// The region _enter_autocast(device_type, dtype, enabled, cache_enabled) opens inside `outer` (the region open
// around it, if any: a dtype of None inherits its dtype). Throws std::invalid_argument when its arguments are not
// literals.
AutocastRegion autocastRegionOf(const graph::Node& enter, const c10::Device& replayDevice, const AutocastRegion* outer);

// The autocast a dynamo graph was captured under when torch.autocast was entered outside the compiled function:
// dynamo records no region for it, but the annotations show it, as a matmul-like call (linear, matmul, conv, bmm,
// addmm, baddbmm) outside any region of the graph whose float32 operands give a float16 / bfloat16 result.
std::optional<AutocastRegion> ambientAutocast(const graph::Graph& g, const c10::Device& replayDevice);

// p (an Op or Native plan) as a Native plan that runs it under the region's autocast state.
NodePlan underAutocast(NodePlan p, const AutocastRegion& region);

}  // namespace fxray::replay::detail
