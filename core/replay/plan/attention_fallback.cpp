#include "replay/plan/attention_fallback.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <stdexcept>

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

// _scaled_dot_product_efficient_attention(query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal,
// *, scale) -> (output, log_sumexp [B, H, ceil(M/32)*32] or [B, H, 0], philox_seed, philox_offset)
c10::IValue efficientForward(const Values& v)
{
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
    if (v[9].toDouble() > 0)
        throw std::invalid_argument("the CPU stand-in of efficient attention's backward cannot redraw its dropout");
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
    if (v[10].toDouble() > 0)
        throw std::invalid_argument("the CPU stand-in of flash attention's backward cannot redraw its dropout");
    auto [gq, gk, gv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        v[0].toTensor(), v[1].toTensor(), v[2].toTensor(), v[3].toTensor(), v[4].toTensor(), v[5].toTensor().contiguous(), 0.0,
        v[11].toBool(), std::nullopt, optionalDouble(v[14]));
    return c10::ivalue::Tuple::create(gq, gk, gv);
}

}  // namespace

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
