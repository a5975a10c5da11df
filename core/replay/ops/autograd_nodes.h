#pragma once
// Internal to core/replay (includes LibTorch). Autograd nodes a compiled-autograd graph calls through Python
// (`torch__dynamo_compiled_autograd_ops_MeanBackward0([grad], [True], numel, [sizes])`), run natively: the call's
// arguments are (gradients, needs_input_grad, then the node's saved fields in their declared order, as torch's
// generated apply_with_saved packs them), so fxray builds LibTorch's own node (torch::autograd::generated::<Node>),
// fills those fields, gives it an edge for each input whose gradient is wanted and calls its apply(): the formula
// eager runs, not a copy of it. ops.AccumulateGrad([grad], variable, variable.grad, has_post_hooks) runs
// AccumulateGrad::accumulateGrad, as torch's AccumulateGrad_apply_functional_no_hooks does.
// graph::autogradNodeRunsNatively lists the nodes this file implements.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

namespace fxray::replay::detail {

// The native plan of compiled_autograd.ops.<node> call `n`; an Unsupported plan naming what is wrong when its
// arguments are not what that node takes.
NodePlan planAutogradNode(const graph::Graph& g, const graph::Node& n, const std::string& node,
                          const c10::Device& device);

}  // namespace fxray::replay::detail
