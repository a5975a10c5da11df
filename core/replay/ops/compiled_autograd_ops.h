#pragma once
// Internal to core/replay (includes LibTorch). The compiled-autograd helpers fxray runs natively, registered
// as dispatcher operators of the namespace fxray_ca so that a plan calls them like any aten op (and the report
// shows their schema). Everything else a compiled-autograd graph calls in Python is Unsupported with the reason
// graph::compiledAutogradPythonReason gives.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>

namespace fxray::replay::detail {

// The plan of a compiled-autograd helper call, or std::nullopt when n is not one (a plain Python call).
std::optional<NodePlan> planCompiledAutogradCall(const graph::Graph& g, const graph::Node& n, const c10::Device& device);

}  // namespace fxray::replay::detail
