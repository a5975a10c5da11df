#pragma once
// Internal to core/replay (includes LibTorch). `higher_order.auto_functionalized_v2(op, **kwargs, _all_bases=[...])`:
// how functionalization records a call of a mutating op (FSDP2's `fsdp.split_with_sizes_copy(..., out=[...])`,
// `fsdp.chunk_cat(..., out=...)`) in AOT graphs. Run as torch's dense kernel does
// (torch/_higher_order_ops/auto_functionalize.py): every base cloned with its strides, each mutated argument
// regenerated as a view of its cloned base from the recorded view information (`_<arg>_base_index`, `_size`,
// `_stride`, `_storage_offset`, or `_alias`, `_slice_dim/_start/_end`, or the base itself; list arguments
// `_<arg>_length` and `_<arg>_<i>_...`), the op called on them, and (op's returns or None, *cloned bases) returned.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

namespace fxray::replay::detail {

bool isAutoFunctionalized(const graph::Node& n);

// The node's plan: a native step around the inner op's own plan. Throws std::invalid_argument naming what it cannot
// read (an inner op that does not plan, view information it does not know).
NodePlan planAutoFunctionalized(const graph::Graph& g, const graph::Node& n, const c10::Device& device);

}  // namespace fxray::replay::detail
