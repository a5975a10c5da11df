#include "replay/ops/torch_level_attention.h"

#include <ATen/ATen.h>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// multi_head_attention_forward's parameters, in Python's order.
constexpr std::string_view kParams[] = {
    "query", "key", "value", "embed_dim_to_check", "num_heads", "in_proj_weight", "in_proj_bias", "bias_k", "bias_v",
    "add_zero_attn", "dropout_p", "out_proj_weight", "out_proj_bias", "training", "key_padding_mask", "need_weights",
    "attn_mask", "use_separate_proj_weight", "q_proj_weight", "k_proj_weight", "v_proj_weight", "static_k",
    "static_v", "average_attn_weights", "is_causal"};
constexpr std::size_t kRequired = 13;  // query .. out_proj_bias have no default

// What the call fixes at plan time.
struct Options {
    std::int64_t numHeads = 0;
    double dropoutP = 0.0;
    bool training = true, needWeights = true, average = true, causal = false;
    bool qIsK = false, kIsV = false;  // Python's `q is k`, `k is v`: the same graph value
};

std::vector<Arg> bindCall(const graph::Node& n)
{
    std::vector<Arg> v(std::size(kParams));
    std::vector<bool> given(std::size(kParams), false);
    if (n.args.size() > v.size())
        throw std::invalid_argument("multi_head_attention_forward: too many arguments");
    for (std::size_t k = 0; k < n.args.size(); ++k) {
        v[k] = n.args[k];
        given[k] = true;
    }
    for (const auto& [key, value] : n.kwargs) {
        std::size_t k = 0;
        while (k < v.size() && kParams[k] != key)
            ++k;
        if (k == v.size())
            throw std::invalid_argument("multi_head_attention_forward: unknown argument '" + key + "'");
        v[k] = value;
        given[k] = true;
    }
    for (std::size_t k = 0; k < kRequired; ++k)
        if (!given[k])
            throw std::invalid_argument("multi_head_attention_forward: missing '" + std::string(kParams[k]) + "'");
    auto setDefault = [&](std::size_t k, Arg a) {
        if (!given[k])
            v[k] = std::move(a);
    };
    setDefault(13, Arg::ofBool(true));   // training
    setDefault(15, Arg::ofBool(true));   // need_weights
    setDefault(17, Arg::ofBool(false));  // use_separate_proj_weight
    setDefault(23, Arg::ofBool(true));   // average_attn_weights
    setDefault(24, Arg::ofBool(false));  // is_causal
    return v;
}

bool flag(const std::vector<Arg>& v, std::size_t k)
{
    if (v[k].kind != Arg::Kind::Bool)
        throw std::invalid_argument("multi_head_attention_forward: " + std::string(kParams[k]) + " must be a literal bool");
    return v[k].b;
}

Options optionsOf(const std::vector<Arg>& v)
{
    for (std::size_t k : {7, 8, 18, 19, 20, 21, 22})  // bias_k, bias_v, q/k/v_proj_weight, static_k, static_v
        if (v[k].kind != Arg::Kind::None)
            throw std::invalid_argument("multi_head_attention_forward with " + std::string(kParams[k]) + " is not supported");
    if (flag(v, 9) || flag(v, 17))
        throw std::invalid_argument("multi_head_attention_forward with add_zero_attn or use_separate_proj_weight is not supported");
    Options o;
    o.training = flag(v, 13);
    // dropout_p may be a graph value (a float dynamo did not specialise): it only matters in training.
    const bool literalP = v[10].kind == Arg::Kind::Float || v[10].kind == Arg::Kind::Int;
    if (v[4].kind != Arg::Kind::Int || (!literalP && o.training))
        throw std::invalid_argument("multi_head_attention_forward: num_heads and (in training) dropout_p must be literals");
    o.numHeads = v[4].i;
    o.dropoutP = v[10].kind == Arg::Kind::Float ? v[10].f : v[10].kind == Arg::Kind::Int ? static_cast<double>(v[10].i) : 0.0;
    o.needWeights = flag(v, 15);
    o.average = flag(v, 23);
    o.causal = flag(v, 24);
    auto same = [](const Arg& a, const Arg& b) { return a.kind == Arg::Kind::Node && b.kind == Arg::Kind::Node && a.node == b.node; };
    o.qIsK = same(v[0], v[1]);
    o.kIsV = same(v[1], v[2]);
    return o;
}

std::optional<at::Tensor> optionalTensor(const c10::IValue& v)
{
    return v.isNone() ? std::nullopt : std::optional<at::Tensor>(v.toTensor());
}

// _canonical_mask: a bool mask becomes an additive float mask of the query's dtype.
std::optional<at::Tensor> canonicalMask(std::optional<at::Tensor> mask, at::ScalarType dtype)
{
    if (mask && mask->scalar_type() == at::kBool)
        return at::zeros_like(*mask, mask->options().dtype(dtype)).masked_fill_(*mask, -std::numeric_limits<double>::infinity());
    return mask;
}

// _in_projection_packed.
std::array<at::Tensor, 3> inProjection(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& w,
                                       const std::optional<at::Tensor>& b, const Options& o)
{
    const std::int64_t e = q.size(-1);
    auto packed = [&](const at::Tensor& proj, std::int64_t parts) {
        return proj.unflatten(-1, {parts, e}).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
    };
    if (o.kIsV && o.qIsK) {
        at::Tensor proj = packed(at::linear(q, w, b), 3);
        return {proj[0], proj[1], proj[2]};
    }
    if (o.kIsV) {
        auto ws = w.split_with_sizes({e, e * 2});
        std::optional<at::Tensor> bq, bkv;
        if (b) {
            auto bs = b->split_with_sizes({e, e * 2});
            bq = bs[0];
            bkv = bs[1];
        }
        at::Tensor kv = packed(at::linear(k, ws[1], bkv), 2);
        return {at::linear(q, ws[0], bq), kv[0], kv[1]};
    }
    auto ws = w.chunk(3);
    std::vector<at::Tensor> bs = b ? b->chunk(3) : std::vector<at::Tensor>{};
    auto bias = [&](std::size_t i) { return b ? std::optional<at::Tensor>(bs[i]) : std::nullopt; };
    return {at::linear(q, ws[0], bias(0)), at::linear(k, ws[1], bias(1)), at::linear(v, ws[2], bias(2))};
}

// The Python function's body after the projections (need_weights or the SDPA path), as it is written there.
c10::IValue attend(at::Tensor q, at::Tensor k, at::Tensor v, std::optional<at::Tensor> mask, bool causal, const Options& o,
                   const at::Tensor& outW, const std::optional<at::Tensor>& outB, std::int64_t tgtLen, std::int64_t bsz,
                   std::int64_t embedDim, bool batched)
{
    const std::int64_t heads = o.numHeads, headDim = embedDim / heads, srcLen = k.size(1);
    const double p = o.training ? o.dropoutP : 0.0;
    if (o.needWeights) {
        if (causal && !mask)
            throw std::invalid_argument("multi_head_attention_forward: is_causal without attn_mask for need_weights");
        at::Tensor qs = q * std::sqrt(1.0 / static_cast<double>(q.size(2)));
        at::Tensor w = mask ? at::baddbmm(*mask, qs, k.transpose(-2, -1)) : at::bmm(qs, k.transpose(-2, -1));
        w = at::softmax(w, -1);
        if (p > 0.0)
            w = at::dropout(w, p, true);
        at::Tensor out = at::bmm(w, v).transpose(0, 1).contiguous().view({tgtLen * bsz, embedDim});
        out = at::linear(out, outW, outB);
        out = out.view({tgtLen, bsz, out.size(1)});
        w = w.view({bsz, heads, tgtLen, srcLen});
        if (o.average)
            w = w.mean(at::IntArrayRef{1});
        if (!batched) {
            out = out.squeeze(1);
            w = w.squeeze(0);
        }
        return c10::ivalue::Tuple::create({out, w});
    }
    if (mask)
        mask = mask->size(0) == 1 && mask->dim() == 3 ? mask->unsqueeze(0) : mask->view({bsz, heads, -1, srcLen});
    q = q.view({bsz, heads, tgtLen, headDim});
    k = k.view({bsz, heads, srcLen, headDim});
    v = v.view({bsz, heads, srcLen, headDim});
    at::Tensor out = at::scaled_dot_product_attention(q, k, v, mask, p, causal);
    out = at::linear(out.permute({2, 0, 1, 3}).contiguous().view({bsz * tgtLen, embedDim}), outW, outB);
    out = out.view({tgtLen, bsz, out.size(1)});
    if (!batched)
        out = out.squeeze(1);
    return c10::ivalue::Tuple::create({out, c10::IValue()});
}

// Operands: query, key, value, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, key_padding_mask,
// attn_mask.
c10::IValue run(const std::vector<c10::IValue>& x, const Options& o)
{
    at::Tensor query = x[0].toTensor(), key = x[1].toTensor(), value = x[2].toTensor();
    std::optional<at::Tensor> padding = optionalTensor(x[7]), mask = optionalTensor(x[8]);
    const bool batched = query.dim() == 3;
    if (!batched) {
        query = query.unsqueeze(1);
        key = key.unsqueeze(1);
        value = value.unsqueeze(1);
        if (padding)
            padding = padding->unsqueeze(0);
    }
    const std::int64_t tgtLen = query.size(0), bsz = query.size(1), embedDim = query.size(2), heads = o.numHeads;
    padding = canonicalMask(padding, query.scalar_type());
    bool causal = o.causal;
    if (causal && !mask)
        throw std::invalid_argument("multi_head_attention_forward: is_causal needs attn_mask");
    if (causal && !padding && !o.needWeights) {
        mask.reset();
    } else {
        mask = canonicalMask(mask, query.scalar_type());
        causal = causal && !padding;
    }
    auto [q, k, v] = inProjection(query, key, value, x[3].toTensor(), optionalTensor(x[4]), o);
    if (mask && mask->dim() == 2)
        mask = mask->unsqueeze(0);
    const std::int64_t headDim = embedDim / heads;
    q = q.view({tgtLen, bsz * heads, headDim}).transpose(0, 1);
    k = k.view({k.size(0), bsz * heads, headDim}).transpose(0, 1);
    v = v.view({v.size(0), bsz * heads, headDim}).transpose(0, 1);
    if (padding) {
        const std::int64_t srcLen = k.size(1);
        at::Tensor p = padding->view({bsz, 1, 1, srcLen}).expand({-1, heads, -1, -1}).reshape({bsz * heads, 1, srcLen});
        mask = mask ? *mask + p : p;
    }
    return attend(q, k, v, mask, causal, o, x[5].toTensor(), optionalTensor(x[6]), tgtLen, bsz, embedDim, batched);
}

ArgPlan operand(const Arg& a)
{
    ArgPlan p;
    if (a.kind == Arg::Kind::Node) {
        p.kind = ArgPlan::Kind::Value;
        p.node = a.node;
    } else if (a.kind != Arg::Kind::None) {
        throw std::invalid_argument("multi_head_attention_forward: a tensor argument is not a graph value");
    }
    return p;
}

}  // namespace

NodePlan planMultiHeadAttention(const graph::Graph&, const graph::Node& n, const c10::Device&)
{
    const std::vector<Arg> v = bindCall(n);
    const Options o = optionsOf(v);
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    for (std::size_t k : {0, 1, 2, 5, 6, 11, 12, 14, 16})
        p.args.push_back(operand(v[k]));
    p.schema = "torch.nn.functional.multi_head_attention_forward (native: packed in-projection, " +
               std::string(o.needWeights ? "bmm/softmax with weights" : "scaled_dot_product_attention") + ", out-projection)";
    p.native = [o](const std::vector<c10::IValue>& x) { return run(x, o); };
    return p;
}

}  // namespace fxray::replay::detail
