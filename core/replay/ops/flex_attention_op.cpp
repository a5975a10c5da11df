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
    const Arg& blockMask = n.args[4];
    if (blockMask.kind != Arg::Kind::Tuple || blockMask.items.empty())
        throw std::invalid_argument("flex_attention's block_mask must be a tuple ending in its mask_mod, got " + graph::formatArg(g, blockMask));
    const double scale = n.args[5].kind == Arg::Kind::Float ? n.args[5].f
                         : n.args[5].kind == Arg::Kind::Int ? static_cast<double>(n.args[5].i)
                                                            : throw std::invalid_argument("flex_attention's scale must be a literal");
    auto scoreMod = planNamedSubgraph(g, n.args[3], device, "flex_attention's score_mod", planSubgraph);
    auto maskMod = planNamedSubgraph(g, blockMask.items.back(), device, "flex_attention's mask_mod", planSubgraph);
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
        at::Tensor key = v[1].toTensor(), value = v[2].toTensor();
        const std::int64_t groups = query.size(1) / key.size(1);
        value = at::repeat_interleave(value, groups, 1);
        key = at::repeat_interleave(key, groups, 1);
        std::vector<std::int64_t> expand = key.sizes().vec();
        expand[0] = query.size(0);
        key = key.expand(expand);
        expand = value.sizes().vec();
        expand[0] = query.size(0);
        value = value.expand(expand);
        const at::ScalarType working = query.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
        at::Tensor scores = at::matmul(query.to(working), key.to(working).transpose(-2, -1));
        const auto idx = [&](std::int64_t dim) {
            std::vector<std::int64_t> shape(4, 1);
            shape[static_cast<std::size_t>(dim)] = scores.size(dim);
            return at::arange(scores.size(dim), at::TensorOptions().dtype(at::kLong).device(scores.device())).view(shape);
        };
        const at::Tensor b = idx(0), h = idx(1), m = idx(2), nIdx = idx(3);
        scores = (scores * scale).to(working);
        std::vector<c10::IValue> maskIn{b, h, m, nIdx};
        maskIn.insert(maskIn.end(), v.begin() + 3 + static_cast<std::ptrdiff_t>(nScore), v.end());
        std::vector<c10::IValue> scoreIn{scores, b, h, m, nIdx};
        scoreIn.insert(scoreIn.end(), v.begin() + 3, v.begin() + 3 + static_cast<std::ptrdiff_t>(nScore));
        const at::Tensor mask = maskMod->run(maskIn).at(0).toTensor();
        const at::Tensor modded = scoreMod->run(scoreIn).at(0).toTensor();
        const at::Tensor ninf = at::scalar_tensor(-std::numeric_limits<double>::infinity(), at::TensorOptions().dtype(working).device(scores.device()));
        at::Tensor post = at::where(mask, modded, ninf).expand(scores.sizes());
        at::Tensor lse = post.logsumexp(-1);
        lse = at::where((post == -std::numeric_limits<double>::infinity()).all(-1), ninf, lse);
        at::Tensor maxScores = std::get<0>(post.max(-1));
        post = at::_safe_softmax(post, -1);
        at::Tensor out = at::matmul(post.to(query.scalar_type()), value.to(query.scalar_type()));
        out = inStrideOrderOf(out, query.strides());
        return c10::ivalue::Tuple::create(std::move(out), lse / std::log(2.0), maxScores / std::log(2.0));
    };
    return p;
}

}  // namespace fxray::replay::detail
