#include "replay/ops/flex_attention_op.h"

#include "graph/printer.h"
#include "replay/ops/planned_subgraph.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

std::vector<ArgPlan> valuesOf(const graph::Graph& g, const Arg& a, const char* what)
{
    std::vector<ArgPlan> out;
    if (a.kind == Arg::Kind::None)
        return out;
    if (a.kind != Arg::Kind::Tuple && a.kind != Arg::Kind::List)
        throw std::invalid_argument(std::string("flex_attention's ") + what + " must be a tuple, got " + graph::formatArg(g, a));
    for (const Arg& item : a.items) {
        if (item.kind != Arg::Kind::Node)
            throw std::invalid_argument(std::string("flex_attention's ") + what + " must hold graph values, got " + graph::formatArg(g, item));
        ArgPlan p;
        p.kind = ArgPlan::Kind::Value;
        p.node = item.node;
        out.push_back(p);
    }
    return out;
}

// torch._inductor.ir.get_fill_order + flex_attention._construct_strides: `out` laid out in the stride order of
// `like` (sdpa_dense's _permute_strides).
at::Tensor inStrideOrderOf(const at::Tensor& out, c10::IntArrayRef like)
{
    std::vector<std::int64_t> order(like.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return like[a] < like[b]; });
    std::vector<std::int64_t> strides(out.dim());
    std::int64_t next = 1;
    for (std::int64_t d : order) {
        strides[d] = next;
        next *= out.size(d);
    }
    at::Tensor laid = at::empty_strided(out.sizes(), strides, out.options());
    laid.copy_(out);
    return laid;
}

// sdpa_dense's _math_attention_inner: key and value broadcast over the batch and repeated over the query's head
// groups, scores = q @ kᵀ * scale in the working precision, score_mod and mask_mod run on broadcast index tensors.
struct MathAttention {
    at::Tensor key, value;      // broadcast and repeated
    at::Tensor scores, post;    // before score_mod; after score_mod and the mask (-inf where masked), full size
    at::Tensor mask;            // mask_mod's verdict, broadcast
    std::vector<at::Tensor> index;  // b, h, q_idx, kv_idx: one dim each
    std::int64_t groups = 1;
};

MathAttention mathAttentionInner(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
                                 const PlannedSubgraph& scoreMod, const PlannedSubgraph& maskMod, double scale,
                                 const std::vector<c10::IValue>& scoreBuffers, const std::vector<c10::IValue>& maskBuffers)
{
    MathAttention a;
    a.groups = query.size(1) / key.size(1);
    auto broadcast = [&](const at::Tensor& t) {
        std::vector<std::int64_t> expand = t.sizes().vec();
        expand[0] = query.size(0);
        return at::repeat_interleave(t.expand(expand), a.groups, 1);
    };
    a.key = broadcast(key);
    a.value = broadcast(value);
    const at::ScalarType working = query.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    a.scores = at::matmul(query.to(working), a.key.to(working).transpose(-2, -1));
    for (std::int64_t dim = 0; dim < 4; ++dim) {
        std::vector<std::int64_t> shape(4, 1);
        shape[static_cast<std::size_t>(dim)] = a.scores.size(dim);
        a.index.push_back(at::arange(a.scores.size(dim), at::TensorOptions().dtype(at::kLong).device(a.scores.device())).view(shape));
    }
    a.scores = (a.scores * scale).to(working);
    std::vector<c10::IValue> maskIn(a.index.begin(), a.index.end());
    maskIn.insert(maskIn.end(), maskBuffers.begin(), maskBuffers.end());
    std::vector<c10::IValue> scoreIn{a.scores};
    scoreIn.insert(scoreIn.end(), a.index.begin(), a.index.end());
    scoreIn.insert(scoreIn.end(), scoreBuffers.begin(), scoreBuffers.end());
    a.mask = maskMod.run(maskIn).at(0).toTensor();
    const at::Tensor modded = scoreMod.run(scoreIn).at(0).toTensor();
    const at::Tensor ninf = at::scalar_tensor(-std::numeric_limits<double>::infinity(), at::TensorOptions().dtype(working).device(a.scores.device()));
    a.post = at::where(a.mask, modded, ninf).expand(a.scores.sizes());
    return a;
}

ArgPlan valueArg(const graph::Graph& g, const Arg& a, const char* what)
{
    ArgPlan p;
    if (a.kind == Arg::Kind::None)
        return p;  // a constant None
    if (a.kind != Arg::Kind::Node)
        throw std::invalid_argument(std::string("flex_attention's ") + what + " must be a graph value, got " + graph::formatArg(g, a));
    p.kind = ArgPlan::Kind::Value;
    p.node = a.node;
    return p;
}

// The mask_mod of a block_mask argument (a tuple whose last item is it), planned; `who` names the op for errors.
std::shared_ptr<PlannedSubgraph> planMaskMod(const graph::Graph& g, const Arg& blockMask, const c10::Device& device,
                                             const std::string& who, const SubgraphPlanner& planSubgraph)
{
    if (blockMask.kind != Arg::Kind::Tuple || blockMask.items.empty())
        throw std::invalid_argument(who + "'s block_mask must be a tuple ending in its mask_mod, got " + graph::formatArg(g, blockMask));
    return planNamedSubgraph(g, blockMask.items.back(), device, who + "'s mask_mod", planSubgraph);
}

double literalScale(const Arg& a)
{
    if (a.kind == Arg::Kind::Float)
        return a.f;
    if (a.kind == Arg::Kind::Int)
        return static_cast<double>(a.i);
    throw std::invalid_argument("flex_attention's scale must be a literal");
}

// sdpa_dense_backward's math on the node's values: q, k, v, out, logsumexp, grad_out, grad_logsumexp, then
// nScore score_mod buffers and the mask_mod buffers. Returns (dQ, dK, dV, (None per score_mod buffer)).
c10::IValue denseBackward(const std::vector<c10::IValue>& v, const PlannedSubgraph& scoreMod, const PlannedSubgraph& joint,
                          const PlannedSubgraph& maskMod, double scale, std::size_t nScore)
{
    const at::Tensor &query = v[0].toTensor(), &key = v[1].toTensor(), &value = v[2].toTensor(), &out = v[3].toTensor();
    const auto buffersFrom = v.begin() + 7;
    const std::vector<c10::IValue> scoreBuffersIn(buffersFrom, buffersFrom + static_cast<std::ptrdiff_t>(nScore));
    const MathAttention a = mathAttentionInner(query, key, value, scoreMod, maskMod, scale, scoreBuffersIn,
                                               {buffersFrom + static_cast<std::ptrdiff_t>(nScore), v.end()});
    const at::Tensor gradOut = v[5].isTensor() ? v[5].toTensor() : at::zeros_like(out);
    // The forward's logsumexp is in base 2 (flex_attention divides by ln 2): undone, and its gradient likewise.
    const at::Tensor lse = v[4].toTensor() * std::log(2.0);
    const at::Tensor gradLse = (v[6].isTensor() ? v[6].toTensor() : at::zeros_like(v[4].toTensor())) / std::log(2.0);
    at::Tensor probabilities = at::exp(a.post - lse.unsqueeze(-1));
    probabilities = at::where((lse == -std::numeric_limits<double>::infinity()).unsqueeze(-1), at::zeros({}, probabilities.options()),
                              probabilities);
    const at::ScalarType working = probabilities.scalar_type();
    at::Tensor gradValue = at::matmul(probabilities.to(query.scalar_type()).transpose(-2, -1), gradOut);
    const at::Tensor gradProbabilities = at::matmul(gradOut.to(working), a.value.to(working).transpose(-2, -1));
    const at::Tensor rowDot = (out.to(working) * gradOut.to(working)).sum(-1, /*keepdim=*/true);
    const at::Tensor gradScoreMod = probabilities * (gradProbabilities - rowDot + gradLse.unsqueeze(-1));
    std::vector<c10::IValue> jointIn{a.scores};
    jointIn.insert(jointIn.end(), a.index.begin(), a.index.end());
    jointIn.push_back(gradScoreMod);
    jointIn.insert(jointIn.end(), scoreBuffersIn.begin(), scoreBuffersIn.end());
    const std::vector<c10::IValue> jointOut = joint.run(jointIn);
    for (std::size_t k = 5; k < jointOut.size(); ++k)
        if (!jointOut[k].isNone())
            throw std::invalid_argument("flex_attention_backward: score_mod's captured buffer " + std::to_string(k - 5) +
                                        " needs a gradient (not supported yet)");
    at::Tensor gradScores = (jointOut.at(0).toTensor().expand(a.scores.sizes()) * scale).to(query.scalar_type());
    gradScores = at::where(a.mask, gradScores, at::zeros({}, gradScores.options()));
    const at::Tensor gradQuery = at::matmul(gradScores, a.key);
    at::Tensor gradKey = at::matmul(gradScores.transpose(-2, -1), query);
    // The repeated heads back into the key's and value's (GQA), then the broadcast batch.
    auto sumGroups = [&](const at::Tensor& t) {
        return t.view({t.size(0), -1, a.groups, t.size(-2), t.size(-1)}).sum(2);
    };
    gradKey = sumGroups(gradKey);
    gradValue = sumGroups(gradValue);
    if (key.size(0) != query.size(0)) {
        gradKey = gradKey.sum(0, /*keepdim=*/true);
        gradValue = gradValue.sum(0, /*keepdim=*/true);
    }
    std::vector<c10::IValue> bufferGrads(nScore);
    return c10::ivalue::Tuple::create({inStrideOrderOf(gradQuery, query.strides()), inStrideOrderOf(gradKey, key.strides()),
                                       inStrideOrderOf(gradValue, value.strides()), c10::ivalue::Tuple::create(std::move(bufferGrads))});
}

}  // namespace

std::optional<NodePlan> planSubgraphAttr(const graph::Graph& g, const graph::Node& n)
{
    if (n.kind != graph::NodeKind::GetAttr || !subgraphNamed(g, n.attr))
        return std::nullopt;
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = "get_attr";
    p.schema = "subgraph self." + n.attr + " (run by the higher-order op that reads it)";
    p.native = [](const std::vector<c10::IValue>&) -> c10::IValue { return {}; };
    return p;
}

std::optional<NodePlan> planFlexAttention(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                          const SubgraphPlanner& planSubgraph)
{
    if (!n.isOp() || n.target.ns != "higher_order" || n.target.op != "flex_attention")
        return std::nullopt;
    if (n.args.size() < 6 || !n.kwargs.empty())
        throw std::invalid_argument("flex_attention(q, k, v, score_mod, block_mask, scale, kernel_options, score_buffers, "
                                    "mask_buffers) takes positional arguments");
    const double scale = literalScale(n.args[5]);
    auto scoreMod = planNamedSubgraph(g, n.args[3], device, "flex_attention's score_mod", planSubgraph);
    auto maskMod = planMaskMod(g, n.args[4], device, "flex_attention", planSubgraph);
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = n.target.str();
    for (int k = 0; k < 3; ++k) {
        if (n.args[static_cast<std::size_t>(k)].kind != Arg::Kind::Node)
            throw std::invalid_argument("flex_attention's query, key and value must be graph values");
        ArgPlan a;
        a.kind = ArgPlan::Kind::Value;
        a.node = n.args[static_cast<std::size_t>(k)].node;
        p.args.push_back(a);
    }
    const std::vector<ArgPlan> scoreBuffers = n.args.size() > 7 ? valuesOf(g, n.args[7], "score_mod_other_buffers") : std::vector<ArgPlan>{};
    const std::vector<ArgPlan> maskBuffers = n.args.size() > 8 ? valuesOf(g, n.args[8], "mask_mod_other_buffers") : std::vector<ArgPlan>{};
    p.args.insert(p.args.end(), scoreBuffers.begin(), scoreBuffers.end());
    p.args.insert(p.args.end(), maskBuffers.begin(), maskBuffers.end());
    p.schema = "higher_order.flex_attention = its eager math (sdpa_dense): softmax(where(mask_mod, score_mod(q @ kᵀ * scale), -inf)) @ v, "
               "with (logsumexp, max) / ln 2";
    p.nonFiniteByDesign = {false, true, true};  // fully masked rows: logsumexp and max are -inf, as in eager
    const std::size_t nScore = scoreBuffers.size();
    p.native = [scoreMod, maskMod, scale, nScore](const std::vector<c10::IValue>& v) -> c10::IValue {
        const at::Tensor& query = v[0].toTensor();
        const auto buffersFrom = v.begin() + 3;
        const MathAttention a = mathAttentionInner(query, v[1].toTensor(), v[2].toTensor(), *scoreMod, *maskMod, scale,
                                                   {buffersFrom, buffersFrom + static_cast<std::ptrdiff_t>(nScore)},
                                                   {buffersFrom + static_cast<std::ptrdiff_t>(nScore), v.end()});
        const at::Tensor ninf = at::scalar_tensor(-std::numeric_limits<double>::infinity(), a.post.options());
        at::Tensor lse = a.post.logsumexp(-1);
        lse = at::where((a.post == -std::numeric_limits<double>::infinity()).all(-1), ninf, lse);
        at::Tensor maxScores = std::get<0>(a.post.max(-1));
        const at::Tensor probabilities = at::_safe_softmax(a.post, -1);
        at::Tensor out = at::matmul(probabilities.to(query.scalar_type()), a.value.to(query.scalar_type()));
        out = inStrideOrderOf(out, query.strides());
        return c10::ivalue::Tuple::create(std::move(out), lse / std::log(2.0), maxScores / std::log(2.0));
    };
    return p;
}

// flex_attention_backward(q, k, v, out, logsumexp, grad_out, grad_logsumexp, fw_graph, joint_graph, block_mask,
// scale, kernel_options, score_mod_other_buffers, mask_mod_other_buffers) by its eager math, sdpa_dense_backward:
// the forward's scores recomputed, the softmax rebuilt from the given logsumexp, the score gradient through
// joint_graph (score_mod's backward), masked to 0 where mask_mod says so, then dQ = dS @ K, dK = dSᵀ @ Q and
// dV = Pᵀ @ dO, the repeated heads summed back into the key's; each in its input's stride order.
std::optional<NodePlan> planFlexAttentionBackward(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                                  const SubgraphPlanner& planSubgraph)
{
    if (!n.isOp() || n.target.ns != "higher_order" || n.target.op != "flex_attention_backward")
        return std::nullopt;
    if (n.args.size() < 11 || !n.kwargs.empty())
        throw std::invalid_argument("flex_attention_backward(q, k, v, out, logsumexp, grad_out, grad_logsumexp, fw_graph, "
                                    "joint_graph, block_mask, scale, ...) takes positional arguments");
    const double scale = literalScale(n.args[10]);
    auto scoreMod = planNamedSubgraph(g, n.args[7], device, "flex_attention_backward's fw_graph", planSubgraph);
    auto joint = planNamedSubgraph(g, n.args[8], device, "flex_attention_backward's joint_graph", planSubgraph);
    auto maskMod = planMaskMod(g, n.args[9], device, "flex_attention_backward", planSubgraph);
    static const char* kWhat[] = {"query", "key", "value", "out", "logsumexp", "grad_out", "grad_logsumexp"};
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = n.target.str();
    for (std::size_t k = 0; k < 7; ++k)
        p.args.push_back(valueArg(g, n.args[k], kWhat[k]));
    if (p.args[0].kind != ArgPlan::Kind::Value || p.args[1].kind != ArgPlan::Kind::Value || p.args[2].kind != ArgPlan::Kind::Value ||
        p.args[3].kind != ArgPlan::Kind::Value || p.args[4].kind != ArgPlan::Kind::Value)
        throw std::invalid_argument("flex_attention_backward's query, key, value, out and logsumexp must be graph values");
    const std::vector<ArgPlan> scoreBuffers = n.args.size() > 12 ? valuesOf(g, n.args[12], "score_mod_other_buffers") : std::vector<ArgPlan>{};
    const std::vector<ArgPlan> maskBuffers = n.args.size() > 13 ? valuesOf(g, n.args[13], "mask_mod_other_buffers") : std::vector<ArgPlan>{};
    p.args.insert(p.args.end(), scoreBuffers.begin(), scoreBuffers.end());
    p.args.insert(p.args.end(), maskBuffers.begin(), maskBuffers.end());
    p.schema = "higher_order.flex_attention_backward = its eager math (sdpa_dense_backward): the scores recomputed, "
               "dS through joint_graph and the mask, dQ = dS @ K, dK = dSᵀ @ Q, dV = Pᵀ @ dO";
    const std::size_t nScore = scoreBuffers.size();
    p.native = [scoreMod, joint, maskMod, scale, nScore](const std::vector<c10::IValue>& v) -> c10::IValue {
        return denseBackward(v, *scoreMod, *joint, *maskMod, scale, nScore);
    };
    return p;
}

}  // namespace fxray::replay::detail
