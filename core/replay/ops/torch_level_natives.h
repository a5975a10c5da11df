#pragma once
// Internal to core/replay (includes LibTorch). The torch-level steps that have no aten twin, run natively:
// Python indexing and item assignment on tensors (through at::indexing, which is what torch's Python binding
// runs), slices of size lists, size queries (x.size(), x.shape, x.dim(), x.numel()), identity steps (dropout
// outside training) and no-ops (grad-mode switches: replay runs without autograd anyway). Each returns a plan
// of Kind::Native whose args are the values the step reads; a construct it cannot run throws
// std::invalid_argument with the reason.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <string>

namespace fxray::replay::detail {

// base[index]: ints, slices, None, Ellipsis, bools, tensors, int lists, and tuples of them. A base that is a
// list at run time (x.size()[1:]) is sliced as Python slices lists.
NodePlan planIndexing(const graph::Graph& g, const graph::Arg& base, const graph::Arg& index, const c10::Device& device);

// base[index] = value (operator.setitem): writes in place, the node's value is base.
NodePlan planSetItem(const graph::Graph& g, const graph::Arg& base, const graph::Arg& index, const graph::Arg& value,
                     const c10::Device& device);

// Shape queries: "size" (x.size(), x.shape; with dim: x.size(d)), "stride", "dim", "numel".
NodePlan planTensorQuery(const graph::Graph& g, const std::string& query, const graph::Arg& self, const graph::Arg* dim);

// The value itself (x.requires_grad_(), dropout outside training): Python returns the very same tensor.
NodePlan planIdentity(const graph::Graph& g, const graph::Arg& value, std::string what);

// A call that only switches Python-side state the replay does not have (torch._C._set_grad_enabled).
NodePlan planNoOp(std::string what);

// torch.nn.functional.normalize(input, p, dim, eps): input / norm(input, p, dim, keepdim).clamp_min(eps).
NodePlan planNormalize(const graph::Graph& g, const graph::Arg& input, double p, std::int64_t dim, double eps);

}  // namespace fxray::replay::detail
