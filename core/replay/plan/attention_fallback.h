#pragma once
// Internal to core/replay (includes LibTorch). SDPA's CUDA-only kernels (memory-efficient, flash and cuDNN attention,
// forward and backward) on a CPU replay, through the CPU's own flash-attention kernels: a graph recorded on a GPU
// (every HF model's attention) then replays on a machine without one. The values are attention's, computed another
// way (compared with the usual tolerances); the outputs keep the CUDA kernels' shapes (efficient attention's
// logsumexp padded to a multiple of 32 with +inf, its philox seed/offset as 0-dim tensors), and the layouts the CPU
// kernel picks are reported as a difference of the devices (engine/interpreter.cpp: backendPicksLayout). With dropout,
// which the CPU kernels do not take, attention written out in ATen ops with a mask drawn from a seed the forward hands
// on as its philox seed and its backward redraws from (outputs below them compared by rate).
#include "replay/plan/node_plan.h"

#include <optional>
#include <vector>

namespace fxray::replay::detail {

// SDPA's scores as its math computes them: query @ key^T * scale, -inf above the diagonal when causal, then the mask
// (boolean: -inf where false; else added). Shared with stage compare's aligned attention (ops/aligned_attention).
at::Tensor maskedAttentionScores(const at::Tensor& query, const at::Tensor& key, const std::optional<at::Tensor>& mask,
                                 bool causal, double scale);
// The fused kernels' output layout: [B, M, H, D] in memory, seen as [B, H, M, D].
at::Tensor fusedAttentionLayout(const at::Tensor& out);
// cuDNN attention's output layout: [B, H, M, D] laid out in memory as `query`'s dimensions are (largest stride
// outermost), as the kernel allocates it and torch's meta function (alloc_with_matching_layout) records it.
at::Tensor cudnnAttentionLayout(const at::Tensor& out, const at::Tensor& query);

// The plan of `op` on the CPU through the fallback, with the schema's arguments already planned; nullopt when the op
// is not one of the six.
std::optional<NodePlan> planCpuAttentionFallback(const c10::OperatorHandle& op, std::vector<ArgPlan> args);

}  // namespace fxray::replay::detail
