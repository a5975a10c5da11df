#pragma once
// Internal to core/replay (includes LibTorch). Inductor's post-grad lowering patterns
// (`register_lowering_pattern` in torch/_inductor/fx_passes/post_grad.py) replace the nodes they match with one call
// of their Python handler, which the post-grad graph then holds as a plain function:
//   mm_plus_mm = torch__inductor_fx_passes_post_grad_mm_plus_mm(mat1 = a, mat2 = b, mat3 = c, mat4 = d)
// (under max-autotune, where inductor lowers it to one fused GEMM kernel). Each handler computes what the matched
// aten ops computed, so the replay runs those ops: mm_plus_mm = mm(mat1, mat2) + mm(mat3, mat4); cat_slice_cat =
// cat([cat(xs, 1), slice(cat(xs, 1), 1, 0, size)], 1); splitwithsizes_cat_replace and cat_splitwithsizes_replace
// return their input. FX suffixes a second call of the same name with _1, _2...: those run the same way.
// The quantization and mkldnn lowering patterns (CPU freezing paths) stay unsupported, named.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>
#include <string>

namespace fxray::replay::detail {

// nullopt when `function` (the call's target as FX names it) is no inductor lowering handler; a Native plan when it
// is one fxray runs; throws std::invalid_argument naming the handler when it is one it does not.
std::optional<NodePlan> planInductorLowering(const graph::Graph& g, const graph::Node& n, const std::string& function,
                                             const c10::Device& device);

}  // namespace fxray::replay::detail
