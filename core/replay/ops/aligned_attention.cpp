#include "replay/ops/aligned_attention.h"

#include "replay/ops/rng_state_ops.h"
#include "replay/plan/attention_fallback.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace fxray::replay::detail {
namespace {

struct AttentionResult {
    at::Tensor out;  // [B, H, M, Dv]
    at::Tensor lse;  // [B, H, M]: logsumexp of the masked, scaled scores (the fused kernels' saved statistic)
};

// v: (query, key, value, attn_mask, dropout_p, is_causal, scale[, enable_gqa]) as SDPA takes them.
AttentionResult alignedAttentionMath(const std::vector<c10::IValue>& v, std::uint64_t base, std::int64_t k)
{
    at::Tensor q = v[0].toTensor(), key = v[1].toTensor(), value = v[2].toTensor();
    const double prob = v.size() > 4 && !v[4].isNone() ? v[4].toDouble() : 0.0;
    const bool causal = v.size() > 5 && !v[5].isNone() && v[5].toBool();
    const double scale = v.size() > 6 && !v[6].isNone() ? v[6].toDouble() : 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
    if (v.size() > 7 && !v[7].isNone() && v[7].toBool() && q.dim() >= 3 && key.size(-3) != q.size(-3)) {
        key = key.repeat_interleave(q.size(-3) / key.size(-3), -3);  // enable_gqa: key/value heads shared
        value = value.repeat_interleave(q.size(-3) / value.size(-3), -3);
    }
    const std::optional<at::Tensor> mask = v.size() > 3 && v[3].isTensor() ? std::optional<at::Tensor>(v[3].toTensor()) : std::nullopt;
    at::Tensor attn = maskedAttentionScores(q, key, mask, causal, scale);
    at::Tensor lse = at::logsumexp(attn.to(at::kFloat), -1);
    // The safe softmax, as SDPA's math and its decomposition have it: a row masked out entirely is 0, not NaN.
    attn = at::_safe_softmax(attn, -1);
    if (prob > 0) {
        const at::Tensor keep = alignedDraw(base, k, attn.sizes(), false, attn.device()).to(attn.scalar_type()) > prob;
        attn = keep * attn * (1.0 / (1.0 - prob));
    }
    return {at::matmul(attn, value), std::move(lse)};
}

// SDPA's math with dropout on the attention weights, as inductor decomposes it (softmax, then
// keep = rand_like(attn) > p, attn * keep / (1 - p), then @ value), the draw being aligned draw `k`. The fused kernels
// draw inside (philox on CUDA, the global generator on the CPU) where no other stage can follow.
at::Tensor alignedAttention(const std::vector<c10::IValue>& v, std::uint64_t base, std::int64_t k)
{
    return alignedAttentionMath(v, base, k).out;
}

// The fused forwards a CUDA AOT graph keeps whole, and where each takes its arguments.
enum class FusedKernel { Efficient, Flash, Cudnn };

std::optional<FusedKernel> fusedKernelOf(std::string_view op)
{
    if (op == "aten::_scaled_dot_product_efficient_attention")
        return FusedKernel::Efficient;
    if (op == "aten::_scaled_dot_product_flash_attention")
        return FusedKernel::Flash;
    if (op == "aten::_scaled_dot_product_cudnn_attention")
        return FusedKernel::Cudnn;
    return std::nullopt;
}

std::size_t dropoutArg(FusedKernel kernel) { return kernel == FusedKernel::Flash ? 3 : 5; }
// return_debug_mask's place (efficient attention has none).
std::optional<std::size_t> debugMaskArg(FusedKernel kernel)
{
    if (kernel == FusedKernel::Flash)
        return 5;
    if (kernel == FusedKernel::Cudnn)
        return 7;
    return std::nullopt;
}

// The fused kernels' forwards with dropout (the AOT graphs of a CUDA training step keep them whole), on the same aligned
// draw as SDPA's math: their output in the kernels' layout, their logsumexp, RNG state as zeros (compared by shape: it
// depends on a random op).
//   efficient: (query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal, *, scale)
//              -> (output [B, M, H, D] memory, log_sumexp [B, H, ceil(M/32)*32] (+inf padded) or [B, H, 0],
//                  philox_seed, philox_offset)
//   flash:     (query, key, value, dropout_p, is_causal, return_debug_mask, *, scale)
//              -> (output [B, M, H, D] memory, logsumexp [B, H, M], cum_seq_q, cum_seq_k, max_q, max_k, rng_state,
//                  unused, debug_attn_mask)
//   cuDNN:     (query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal, return_debug_mask, *, scale)
//              -> (output in query's layout, logsumexp [B, H, M, 1], cum_seq_q, cum_seq_k, max_q, max_k,
//                  philox_seed, philox_offset, debug_attn_mask)
c10::IValue alignedFusedAttention(const std::vector<c10::IValue>& v, std::uint64_t base, std::int64_t k, FusedKernel kernel)
{
    const c10::IValue none;
    const std::vector<c10::IValue> sdpa = kernel == FusedKernel::Efficient ? std::vector<c10::IValue>{v[0], v[1], v[2], v[3], v[5], v[6], v[7]}
                                          : kernel == FusedKernel::Flash   ? std::vector<c10::IValue>{v[0], v[1], v[2], none, v[3], v[4], v[6]}
                                                                           : std::vector<c10::IValue>{v[0], v[1], v[2], v[3], v[5], v[6], v[8]};
    AttentionResult r = alignedAttentionMath(sdpa, base, k);
    const at::Tensor& q = v[0].toTensor();
    const auto i64 = at::TensorOptions().dtype(at::kLong);
    if (kernel == FusedKernel::Cudnn)
        return c10::ivalue::Tuple::create(cudnnAttentionLayout(r.out, q), r.lse.unsqueeze(-1).contiguous(), at::Tensor(),
                                          at::Tensor(), q.size(2), v[1].toTensor().size(2), at::zeros({}, i64),
                                          at::zeros({}, i64), at::Tensor());
    const at::Tensor out = fusedAttentionLayout(r.out);
    if (kernel == FusedKernel::Efficient) {
        const std::int64_t m = q.size(2), padded = v[4].toBool() ? (m + 31) / 32 * 32 : 0;
        at::Tensor lse = at::full({q.size(0), q.size(1), padded}, std::numeric_limits<float>::infinity(), q.options().dtype(at::kFloat));
        if (padded > 0)
            lse.narrow(2, 0, m).copy_(r.lse);
        return c10::ivalue::Tuple::create(out, lse, at::zeros({}, i64), at::zeros({}, i64));
    }
    const auto u64 = at::TensorOptions().dtype(at::kUInt64);
    return c10::ivalue::Tuple::create(out, r.lse.contiguous(), at::Tensor(), at::Tensor(), q.size(2), v[1].toTensor().size(2),
                                      at::zeros({2}, u64), at::zeros({}, u64), at::empty({0}, q.options()));
}

// The fused attention forwards (an Op, or on the CPU the stand-in of plan/attention_fallback, named in plan.name)
// with a dropout_p other than 0 take the next aligned draw.
std::optional<NodePlan> alignedFusedAttentionPlan(const NodePlan& plan, const std::string& op, RngPlan& rng)
{
    const std::optional<FusedKernel> kernel = fusedKernelOf(op);
    if (!kernel)
        return std::nullopt;
    const std::size_t at = dropoutArg(*kernel);
    if (plan.args.size() <= at || (plan.args[at].kind == ArgPlan::Kind::Const && plan.args[at].constant.toDouble() == 0.0))
        return std::nullopt;
    const std::optional<std::size_t> debug = debugMaskArg(*kernel);
    if (debug && plan.args.size() > *debug && plan.args[*debug].kind == ArgPlan::Kind::Const && plan.args[*debug].constant.toBool())
        return std::nullopt;  // return_debug_mask: the kernel's own mask, which the math cannot give
    const std::int64_t k = rng.nextOrdinal++ + rng.lookupsSeen;  // inductor's draws before it count too
    NodePlan p = plan;
    p.kind = NodePlan::Kind::Native;
    p.schema = (plan.op ? c10::toString(plan.op->schema()) : op) + "  [math with dropout on aligned RNG draw " +
               std::to_string(k) + " (stage compare)]";
    p.op.reset();
    p.native = [k, base = rng.seed, kernel = *kernel](const std::vector<c10::IValue>& v) -> c10::IValue {
        return alignedFusedAttention(v, base, k, kernel);
    };
    p.nonFiniteByDesign = {false, true};  // efficient attention's +inf padding, -inf of rows masked out entirely
    return p;
}

// SDPA with a dropout_p other than a literal 0 takes the next aligned draw; without dropout it stays the op.
std::optional<NodePlan> alignedSdpaPlan(const NodePlan& plan, RngPlan& rng)
{
    const int at = argIndex(plan, "dropout_p");
    if (at < 0 || static_cast<std::size_t>(at) >= plan.args.size())
        return std::nullopt;
    const ArgPlan& dropout = plan.args[static_cast<std::size_t>(at)];
    if (dropout.kind == ArgPlan::Kind::Const && (dropout.constant.isNone() || dropout.constant.toDouble() == 0.0))
        return std::nullopt;
    const std::int64_t k = rng.nextOrdinal++;
    const std::uint64_t base = rng.seed;
    NodePlan p = plan;
    p.kind = NodePlan::Kind::Native;
    p.op.reset();
    p.schema = c10::toString(plan.op->schema()) + "  [math with dropout on aligned RNG draw " + std::to_string(k) +
               " (stage compare)]";
    p.native = [k, base](const std::vector<c10::IValue>& v) -> c10::IValue { return alignedAttention(v, base, k); };
    return p;
}

}  // namespace

// A fused attention forward whose dropout_p is not a literal 0 (efficient attention's 6th argument, flash's 4th),
// also where activation checkpointing runs it inside an RNG-state op (graphsafe_run_with_rng_state on CUDA: T5's
// checkpointed attention with dropout on an H100, whose later draws were numbered one too low).
bool fusedAttentionDraws(const graph::Node& n)
{
    if (n.target.ns == "higher_order") {
        const std::optional<graph::Node> inner = innerOpNode(n);
        return inner && fusedAttentionDraws(*inner);
    }
    if (n.target.ns != "aten")
        return false;
    const std::optional<FusedKernel> kernel = fusedKernelOf("aten::" + n.target.op);
    if (!kernel)
        return false;
    const std::size_t at = dropoutArg(*kernel);
    const graph::Arg* p = n.args.size() > at ? &n.args[at] : nullptr;
    for (const auto& [name, value] : n.kwargs)
        if (name == "dropout_p")
            p = &value;
    return p && !((p->kind == graph::Arg::Kind::Float && p->f == 0.0) || (p->kind == graph::Arg::Kind::Int && p->i == 0));
}

std::optional<NodePlan> alignedAttentionPlan(const NodePlan& plan, const std::string& op, RngPlan& rng)
{
    if (op == "aten::scaled_dot_product_attention")
        return plan.op ? alignedSdpaPlan(plan, rng) : std::nullopt;
    return alignedFusedAttentionPlan(plan, op, rng);
}

}  // namespace fxray::replay::detail
