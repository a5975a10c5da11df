#pragma once
// Internal to core/replay (includes LibTorch). torch.nn.functional.multi_head_attention_forward, which
// nn.MultiheadAttention and nn.Transformer*Layer call outside their fast path, has no aten twin: it is ~150 lines
// of Python. Its common form (packed in-projection, optional attn_mask / key_padding_mask, with or without
// weights) runs natively, mirroring that Python step by step so that values and layouts match eager; the rare
// options (bias_k/bias_v, add_zero_attn, separate projection weights, static keys) stay Unsupported.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

namespace fxray::replay::detail {

// The plan of a multi_head_attention_forward call; its value is the tuple (attn_output, attn_weights or None).
// Throws std::invalid_argument naming an option it does not run.
NodePlan planMultiHeadAttention(const graph::Graph& g, const graph::Node& n, const c10::Device& device);

}  // namespace fxray::replay::detail
