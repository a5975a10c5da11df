#include "replay/plan/attention_fallback.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace fxray::replay::detail {
namespace {

using Values = std::vector<c10::IValue>;

std::optional<at::Tensor> optionalTensor(const c10::IValue& v)
{
    if (v.isNone() || !v.toTensor().defined())
        return std::nullopt;
    return v.toTensor();
}

std::optional<double> optionalDouble(const c10::IValue& v)
{
    return v.isNone() ? std::nullopt : std::optional<double>(v.toDouble());
}

at::Tensor philoxStandIn() { return at::zeros({}, at::TensorOptions().dtype(at::kLong)); }

// With dropout the CPU's attention kernels do not serve (they take no dropout_p): attention written out in ATen ops,
// in float32, with a keep-mask drawn from a CPU generator seeded by the forward. The forward hands its seed on where
// the CUDA kernel hands on its philox seed, so the backward redraws the same mask: a forward and its backward chained
// on the CPU agree with each other. The draws are not CUDA's (outputs below them are compared by rate, as every random
// op's on another device); a backward replayed alone redraws from the CUDA seed it was given, and its gradients are
// compared so too (cuda_graph_safety: upstreamOfNodes).
struct MathAttention {
    at::Tensor q, k, v;   // float32 [B, H, M|N, D]
    at::Tensor probs;     // softmax of the scaled, masked scores [B, H, M, N]
    at::Tensor scores;    // the scaled, masked scores (their logsumexp is the kernels' saved statistic)
    at::Tensor keepScale; // keep-mask / (1 - p) [B, H, M, N]
    double scale = 1;
};

std::int64_t freshSeed()
{
    return at::randint(std::numeric_limits<std::int64_t>::max(), {}, at::TensorOptions().dtype(at::kLong)).item<std::int64_t>();
}

MathAttention mathAttention(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
                            const std::optional<at::Tensor>& bias, double dropout, bool causal, std::optional<double> scale,
                            std::int64_t seed)
{
    MathAttention m;
    m.q = query.to(at::kFloat), m.k = key.to(at::kFloat), m.v = value.to(at::kFloat);
    m.scale = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(query.size(-1)));
    m.scores = maskedAttentionScores(m.q, m.k, bias, causal, m.scale);  // float32: a float mask is promoted
    m.probs = at::_safe_softmax(m.scores, -1);  // a row masked out entirely is 0, as the kernels have it
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(static_cast<std::uint64_t>(seed));
    m.keepScale = (at::rand(m.scores.sizes(), gen, m.scores.options()) > dropout).to(at::kFloat) * (1.0 / (1.0 - dropout));
    return m;
}

// (output [B, H, M, Dv] in value's dtype, logsumexp [B, H, M] float32)
std::pair<at::Tensor, at::Tensor> mathForward(const MathAttention& m, at::ScalarType dtype)
{
    return {at::matmul(m.probs * m.keepScale, m.v).to(dtype), at::logsumexp(m.scores, -1)};
}

// `grad` in `input`'s dtype and layout, as the CUDA kernels allocate their gradients (empty_like their inputs: the
// graph's views of them count on it).
at::Tensor likeInput(const at::Tensor& grad, const at::Tensor& input) { return at::empty_like(input).copy_(grad); }

// (grad_query, grad_key, grad_value), each in its input's dtype and layout: the softmax-and-dropout chain rule, by
// hand (the replay runs under InferenceMode, without autograd).
std::tuple<at::Tensor, at::Tensor, at::Tensor> mathBackward(const MathAttention& m, const at::Tensor& gradOut,
                                                            const at::Tensor& query, const at::Tensor& key, const at::Tensor& value)
{
    const at::Tensor dO = gradOut.to(at::kFloat);
    const at::Tensor gradValue = at::matmul((m.probs * m.keepScale).transpose(-2, -1), dO);
    const at::Tensor gradProbs = at::matmul(dO, m.v.transpose(-2, -1)) * m.keepScale;
    const at::Tensor gradScores = m.probs * (gradProbs - (gradProbs * m.probs).sum(-1, true));
    const at::Tensor gradQuery = at::matmul(gradScores, m.k) * m.scale;
    const at::Tensor gradKey = at::matmul(gradScores.transpose(-2, -1), m.q) * m.scale;
    return {likeInput(gradQuery, query), likeInput(gradKey, key), likeInput(gradValue, value)};
}

// Efficient attention's forward with dropout (see MathAttention): its seed as philox_seed, offset 0.
c10::IValue efficientForwardWithDropout(const Values& v)
{
    const at::Tensor& q = v[0].toTensor();
    const std::int64_t seed = freshSeed();
    const MathAttention m = mathAttention(q, v[1].toTensor(), v[2].toTensor(), optionalTensor(v[3]), v[5].toDouble(),
                                          v[6].toBool(), optionalDouble(v[7]), seed);
    auto [out, lse] = mathForward(m, q.scalar_type());
    const std::int64_t rows = q.size(2);
    const std::int64_t padded = v[4].toBool() ? (rows + 31) / 32 * 32 : 0;
    at::Tensor full = at::full({q.size(0), q.size(1), padded}, std::numeric_limits<float>::infinity(), lse.options());
    if (padded > 0)
        full.narrow(2, 0, rows).copy_(lse);
    const auto i64 = at::TensorOptions().dtype(at::kLong);
    return c10::ivalue::Tuple::create(fusedAttentionLayout(out), full, at::scalar_tensor(seed, i64), at::zeros({}, i64));
}

// Flash attention's forward with dropout: its seed as rng_state[0].
c10::IValue flashForwardWithDropout(const Values& v)
{
    const at::Tensor& q = v[0].toTensor();
    const at::Tensor& k = v[1].toTensor();
    const std::int64_t seed = freshSeed();
    const MathAttention m = mathAttention(q, k, v[2].toTensor(), std::nullopt, v[3].toDouble(), v[4].toBool(),
                                          optionalDouble(v[6]), seed);
    auto [out, lse] = mathForward(m, q.scalar_type());
    const auto u64 = at::TensorOptions().dtype(at::kUInt64);
    const at::Tensor rngState = at::zeros({2}, at::TensorOptions().dtype(at::kLong));
    rngState[0] = seed;
    return c10::ivalue::Tuple::create(fusedAttentionLayout(out), lse, at::Tensor(), at::Tensor(), q.size(2), k.size(2),
                                      rngState.to(at::kUInt64), at::zeros({}, u64), at::empty({0}, q.options()));
}

// The seed a forward stand-in handed on (a 0-dim philox_seed, or rng_state whose first element it is).
std::int64_t seedOf(const c10::IValue& v)
{
    const at::Tensor t = v.toTensor().reshape({-1});
    return t.numel() == 0 ? 0 : t[0].to(at::kLong).item<std::int64_t>();
}

// _scaled_dot_product_efficient_attention(query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal,
// *, scale) -> (output, log_sumexp [B, H, ceil(M/32)*32] or [B, H, 0], philox_seed, philox_offset)
c10::IValue efficientForward(const Values& v)
{
    if (v[5].toDouble() > 0)
        return efficientForwardWithDropout(v);
    const at::Tensor& q = v[0].toTensor();
    auto [out, lse] = at::_scaled_dot_product_flash_attention_for_cpu(q, v[1].toTensor(), v[2].toTensor(), v[5].toDouble(),
                                                                      v[6].toBool(), optionalTensor(v[3]), optionalDouble(v[7]));
    const std::int64_t m = q.size(2);
    const std::int64_t padded = v[4].toBool() ? (m + 31) / 32 * 32 : 0;
    at::Tensor full = at::full({q.size(0), q.size(1), padded}, std::numeric_limits<float>::infinity(),
                               at::TensorOptions().dtype(at::kFloat));
    if (padded > 0)
        full.narrow(2, 0, m).copy_(lse);
    return c10::ivalue::Tuple::create(out, full, philoxStandIn(), philoxStandIn());
}

// _scaled_dot_product_flash_attention(query, key, value, dropout_p, is_causal, return_debug_mask, *, scale)
// -> (output, logsumexp [B, H, M], cum_seq_q, cum_seq_k, max_q, max_k, rng_state, unused, debug_attn_mask)
c10::IValue flashForward(const Values& v)
{
    const at::Tensor& q = v[0].toTensor();
    const at::Tensor& k = v[1].toTensor();
    if (v[5].toBool())
        throw std::invalid_argument("the CPU stand-in of flash attention has no debug attention mask");
    if (v[3].toDouble() > 0)
        return flashForwardWithDropout(v);
    auto [out, lse] = at::_scaled_dot_product_flash_attention_for_cpu(q, k, v[2].toTensor(), v[3].toDouble(), v[4].toBool(),
                                                                      std::nullopt, optionalDouble(v[6]));
    const auto u64 = at::TensorOptions().dtype(at::kUInt64);
    return c10::ivalue::Tuple::create(out, lse.contiguous(), at::Tensor(), at::Tensor(), q.size(2), k.size(2),
                                      at::zeros({2}, u64), at::zeros({}, u64), at::empty({0}, q.options()));
}

// _scaled_dot_product_efficient_attention_backward(grad_out, query, key, value, attn_bias, out, logsumexp,
// philox_seed, philox_offset, dropout_p, grad_input_mask, is_causal, *, scale) -> (grad_q, grad_k, grad_v, grad_bias)
c10::IValue efficientBackward(const Values& v)
{
    const at::Tensor& q = v[1].toTensor();
    const auto mask = v[10].toBoolList();
    if (mask.size() == 4 && mask.get(3) && optionalTensor(v[4]))
        throw std::invalid_argument("the CPU stand-in of efficient attention's backward has no bias gradient");
    if (v[9].toDouble() > 0) {
        const MathAttention m = mathAttention(q, v[2].toTensor(), v[3].toTensor(), optionalTensor(v[4]), v[9].toDouble(),
                                              v[11].toBool(), optionalDouble(v[12]), seedOf(v[7]));
        auto [gq, gk, gv] = mathBackward(m, v[0].toTensor(), q, v[2].toTensor(), v[3].toTensor());
        return c10::ivalue::Tuple::create(gq, gk, gv, at::Tensor());
    }
    const at::Tensor lse = v[6].toTensor().narrow(2, 0, q.size(2)).contiguous();
    auto [gq, gk, gv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        v[0].toTensor(), q, v[2].toTensor(), v[3].toTensor(), v[5].toTensor(), lse, 0.0, v[11].toBool(), optionalTensor(v[4]),
        optionalDouble(v[12]));
    return c10::ivalue::Tuple::create(gq, gk, gv, at::Tensor());
}

// _scaled_dot_product_flash_attention_backward(grad_out, query, key, value, out, logsumexp, cum_seq_q, cum_seq_k,
// max_q, max_k, dropout_p, is_causal, philox_seed, philox_offset, *, scale) -> (grad_q, grad_k, grad_v)
c10::IValue flashBackward(const Values& v)
{
    if (v[10].toDouble() > 0) {
        const at::Tensor& q = v[1].toTensor();
        const MathAttention m = mathAttention(q, v[2].toTensor(), v[3].toTensor(), std::nullopt, v[10].toDouble(),
                                              v[11].toBool(), optionalDouble(v[14]), seedOf(v[12]));
        auto [gq, gk, gv] = mathBackward(m, v[0].toTensor(), q, v[2].toTensor(), v[3].toTensor());
        return c10::ivalue::Tuple::create(gq, gk, gv);
    }
    auto [gq, gk, gv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        v[0].toTensor(), v[1].toTensor(), v[2].toTensor(), v[3].toTensor(), v[4].toTensor(), v[5].toTensor().contiguous(), 0.0,
        v[11].toBool(), std::nullopt, optionalDouble(v[14]));
    return c10::ivalue::Tuple::create(gq, gk, gv);
}

// _scaled_dot_product_cudnn_attention(query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal,
// return_debug_mask, *, scale) -> (output in query's layout, logsumexp [B, H, M, 1] float32, cum_seq_q, cum_seq_k,
// max_q, max_k, philox_seed, philox_offset, debug_attn_mask)
c10::IValue cudnnForward(const Values& v)
{
    const at::Tensor& q = v[0].toTensor();
    const at::Tensor& k = v[1].toTensor();
    if (v[7].toBool())
        throw std::invalid_argument("the CPU stand-in of cuDNN attention has no debug attention mask");
    const double dropout = v[5].toDouble();
    const auto i64 = at::TensorOptions().dtype(at::kLong);
    at::Tensor out, lse, seed = at::zeros({}, i64);
    if (dropout > 0) {
        const std::int64_t drawn = freshSeed();
        const MathAttention m = mathAttention(q, k, v[2].toTensor(), optionalTensor(v[3]), dropout, v[6].toBool(),
                                              optionalDouble(v[8]), drawn);
        std::tie(out, lse) = mathForward(m, q.scalar_type());
        seed = at::scalar_tensor(drawn, i64);
    } else {
        std::tie(out, lse) = at::_scaled_dot_product_flash_attention_for_cpu(q, k, v[2].toTensor(), 0.0, v[6].toBool(),
                                                                            optionalTensor(v[3]), optionalDouble(v[8]));
    }
    return c10::ivalue::Tuple::create(cudnnAttentionLayout(out, q), lse.to(at::kFloat).unsqueeze(-1).contiguous(), at::Tensor(),
                                      at::Tensor(), q.size(2), k.size(2), seed, at::zeros({}, i64), at::Tensor());
}

// _scaled_dot_product_cudnn_attention_backward(grad_out, query, key, value, out, logsumexp, philox_seed, philox_offset,
// attn_bias, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, *, scale) -> (grad_q, grad_k, grad_v)
c10::IValue cudnnBackward(const Values& v)
{
    const at::Tensor& q = v[1].toTensor();
    const at::Tensor& k = v[2].toTensor();
    const at::Tensor& value = v[3].toTensor();
    const std::optional<at::Tensor> bias = optionalTensor(v[8]);
    const double dropout = v[13].toDouble();
    if (dropout > 0) {
        const MathAttention m = mathAttention(q, k, value, bias, dropout, v[14].toBool(), optionalDouble(v[15]), seedOf(v[6]));
        auto [gq, gk, gv] = mathBackward(m, v[0].toTensor(), q, k, value);
        return c10::ivalue::Tuple::create(gq, gk, gv);
    }
    const at::Tensor& lse = v[5].toTensor();
    auto [gq, gk, gv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        v[0].toTensor(), q, k, value, v[4].toTensor(), (lse.dim() == 4 ? lse.squeeze(-1) : lse).contiguous(), 0.0,
        v[14].toBool(), bias, optionalDouble(v[15]));
    return c10::ivalue::Tuple::create(likeInput(gq, q), likeInput(gk, k), likeInput(gv, value));
}

}  // namespace

at::Tensor maskedAttentionScores(const at::Tensor& query, const at::Tensor& key, const std::optional<at::Tensor>& mask,
                                 bool causal, double scale)
{
    at::Tensor scores = at::matmul(query, key.transpose(-2, -1)) * scale;
    const double minusInf = -std::numeric_limits<double>::infinity();
    if (causal)
        scores = scores.masked_fill(
            at::ones({query.size(-2), key.size(-2)}, scores.options().dtype(at::kBool)).tril().logical_not(), minusInf);
    if (mask)
        scores = mask->scalar_type() == at::kBool ? scores.masked_fill(mask->logical_not(), minusInf) : scores + *mask;
    return scores;
}

at::Tensor fusedAttentionLayout(const at::Tensor& out) { return out.transpose(1, 2).contiguous().transpose(1, 2); }

at::Tensor cudnnAttentionLayout(const at::Tensor& out, const at::Tensor& query)
{
    std::vector<std::int64_t> order = {0, 1, 2, 3};
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return query.stride(a) > query.stride(b); });
    std::vector<std::int64_t> back(4);
    for (std::size_t i = 0; i < 4; ++i)
        back[static_cast<std::size_t>(order[i])] = static_cast<std::int64_t>(i);
    return out.permute(order).contiguous().permute(back);
}

std::optional<NodePlan> planCpuAttentionFallback(const c10::OperatorHandle& op, std::vector<ArgPlan> args)
{
    const c10::OperatorName& name = op.schema().operator_name();
    c10::IValue (*run)(const Values&) = nullptr;
    std::size_t arity = 0;
    if (name.name == "aten::_scaled_dot_product_efficient_attention")
        run = efficientForward, arity = 8;
    else if (name.name == "aten::_scaled_dot_product_flash_attention")
        run = flashForward, arity = 7;
    else if (name.name == "aten::_scaled_dot_product_efficient_attention_backward")
        run = efficientBackward, arity = 13;
    else if (name.name == "aten::_scaled_dot_product_flash_attention_backward")
        run = flashBackward, arity = 15;
    else if (name.name == "aten::_scaled_dot_product_cudnn_attention")
        run = cudnnForward, arity = 9;
    else if (name.name == "aten::_scaled_dot_product_cudnn_attention_backward")
        run = cudnnBackward, arity = 16;
    if (!run || args.size() != arity || op.schema().arguments().size() != arity)
        return std::nullopt;
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = name.name;  // aligned RNG (ops/random_ops) recognises the forwards by it
    p.args = std::move(args);
    p.schema = c10::toString(op.schema()) +
               "  [CUDA-only: run on the CPU through _scaled_dot_product_flash_attention_for_cpu" +
               (name.name.ends_with("backward") ? "_backward]" : "]");
    p.native = run;
    // Efficient attention pads its logsumexp with +inf, as the CUDA kernel does; flash's holds -inf for fully masked rows.
    if (name.name.ends_with("attention"))
        p.nonFiniteByDesign = {false, true};
    return p;
}

}  // namespace fxray::replay::detail
