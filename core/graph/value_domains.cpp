#include "graph/value_domains.h"

#include "graph/algorithms.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

namespace fxray::graph {
namespace {

using OpSet = std::set<std::string, std::less<>>;

bool opIn(const Node& n, const OpSet& ops) { return n.isOp() && ops.contains(n.target.op); }

// Ops that only reshape, move or copy their first argument: a value flowing through them keeps its domain.
bool isViewLike(const Node& n)
{
    static const OpSet kOps = {"view", "_unsafe_view", "reshape", "clone", "permute", "expand", "squeeze", "unsqueeze",
                               "flatten", "t", "transpose", "contiguous", "alias", "_to_copy", "slice", "select",
                               "repeat", "expand_as", "view_as", "narrow", "unflatten", "movedim", "_reshape_alias",
                               "as_strided", "lift_fresh_copy", "detach", "to", "type_as", "index_select",
                               "convert_element_type"};  // prims: inductor casts bf16 statistics up first
    return opIn(n, kOps) && !n.args.empty() && n.args[0].kind == Arg::Kind::Node;
}

// Size of dim `dim` of the value `ref` as recorded (constant sizes only).
std::optional<std::int64_t> recordedSize(const Graph& g, const Arg& ref, std::int64_t dim)
{
    if (ref.kind != Arg::Kind::Node)
        return std::nullopt;
    const Node& n = g.nodes[static_cast<std::size_t>(ref.node)];
    if (!n.meta || !n.meta->isTensor())
        return std::nullopt;
    const auto& sizes = n.meta->tensor.sizes;
    const auto rank = static_cast<std::int64_t>(sizes.size());
    if (rank == 0 && (dim == 0 || dim == -1))
        return 1;  // index ops treat a 0-dim tensor as one element along dim 0
    if (dim < 0)
        dim += rank;
    if (dim < 0 || dim >= rank || !sizes[static_cast<std::size_t>(dim)].isConstant())
        return std::nullopt;
    return sizes[static_cast<std::size_t>(dim)].value;
}

// Number of elements of the value `ref` as recorded (constant sizes only).
std::optional<std::int64_t> recordedNumel(const Graph& g, const Arg& ref)
{
    if (ref.kind != Arg::Kind::Node)
        return std::nullopt;
    const Node& n = g.nodes[static_cast<std::size_t>(ref.node)];
    if (!n.meta || !n.meta->isTensor())
        return std::nullopt;
    std::int64_t p = 1;
    for (const auto& s : n.meta->tensor.sizes) {
        if (!s.isConstant())
            return std::nullopt;
        p *= *s.value;
    }
    return p;
}

// Product of the last `count` recorded dims of `ref` (the plane a pooling index points into).
std::optional<std::int64_t> trailingNumel(const Graph& g, const Arg& ref, int count)
{
    std::int64_t p = 1;
    for (int d = 1; d <= count; ++d) {
        auto s = recordedSize(g, ref, -d);
        if (!s)
            return std::nullopt;
        p *= *s;
    }
    return p;
}

// in_channels/groups x kernel elements of a recorded convolution weight [out, in/groups, k...]; 0 when unknown.
std::int64_t convFanIn(const Graph& g, const Arg& weight)
{
    if (weight.kind != Arg::Kind::Node)
        return 0;
    const Node& w = g.nodes[static_cast<std::size_t>(weight.node)];
    if (!w.meta || !w.meta->isTensor() || w.meta->tensor.sizes.size() < 2)
        return 0;
    std::int64_t p = 1;
    for (std::size_t d = 1; d < w.meta->tensor.sizes.size(); ++d) {
        if (!w.meta->tensor.sizes[d].isConstant())
            return 0;
        p *= *w.meta->tensor.sizes[d].value;
    }
    return p;
}

std::int64_t intArg(const Node& n, std::size_t i, std::int64_t fallback)
{
    return i < n.args.size() && n.args[i].kind == Arg::Kind::Int ? n.args[i].i : fallback;
}

ValueDomain intRange(const Node& user, std::optional<std::int64_t> high, const std::string& why, std::int64_t low = 0)
{
    if (!high || *high <= low)
        return {};
    ValueDomain d;
    d.kind = ValueDomain::Kind::IntRange;
    d.low = low;
    d.high = *high;
    d.reason = user.name + " (" + (user.target.op.empty() ? user.target.str() : user.target.op) + "): " + why;
    return d;
}

ValueDomain floatDomain(const Node& user, ValueDomain::Kind kind, const std::string& why)
{
    ValueDomain d;
    d.kind = kind;
    d.reason = user.name + " (" + user.target.op + "): " + why;
    return d;
}

// Classes are dim 1 of an (N, C, ...) input, dim 0 of a (C) input.
ValueDomain classTarget(const Graph& g, const Node& user, std::size_t inputPos)
{
    if (user.args.size() <= inputPos || user.args[inputPos].kind != Arg::Kind::Node)
        return {};
    const Node& in = g.nodes[static_cast<std::size_t>(user.args[inputPos].node)];
    const std::int64_t dim = in.meta && in.meta->isTensor() && in.meta->tensor.sizes.size() == 1 ? 0 : 1;
    return intRange(user, recordedSize(g, user.args[inputPos], dim), "class count");
}

// LAPACK pivots are 1-based row numbers of the factorised matrix `factors` (m x n): [1, m].
ValueDomain pivots(const Graph& g, const Node& user, const Arg& factors)
{
    auto n = recordedSize(g, factors, -2);
    return intRange(user, n ? std::optional<std::int64_t>(*n + 1) : std::nullopt, "LAPACK pivots (1-based rows)", 1);
}

// Offsets or lengths that cut `size` elements into consecutive segments.
ValueDomain partition(const Node& user, ValueDomain::Kind kind, std::optional<std::int64_t> size, const std::string& why)
{
    if (!size || *size < 0)
        return {};
    ValueDomain d;
    d.kind = kind;
    d.high = *size;
    d.reason = user.name + " (" + user.target.op + "): " + why;
    return d;
}

// flex_attention's block mask (the tuple (KV_LEN, Q_LEN, kv_num_blocks, kv_indices, full_kv_num_blocks,
// full_kv_indices, q_num_blocks, q_indices, full_q_num_blocks, full_q_indices, Q_BLOCK, KV_BLOCK, mask_mod)) made whole:
// every block partial and visited in order, so the mask_mod alone decides, as the eager math does. Random counts and
// indices sent inductor's C++ kernel past its blocks ("cannot create std::vector larger than max_size()", Qwen2's
// flex recipe). Empty where v is no such item.
ValueDomain blockMaskItem(const Graph& g, const Node& user, int v)
{
    if (!user.isOp() || user.target.ns != "higher_order" || !user.target.op.starts_with("flex_attention"))
        return {};
    for (const Arg& a : user.args) {
        if (a.kind != Arg::Kind::Tuple || a.items.size() < 12)
            continue;
        for (std::size_t k = 2; k < 10; ++k) {
            if (a.items[k].kind != Arg::Kind::Node || a.items[k].node != v)
                continue;
            const bool counts = k % 2 == 0;
            const bool full = k == 4 || k == 5 || k == 8 || k == 9;
            if (!counts)
                return partition(user, ValueDomain::Kind::BlockIndices, recordedSize(g, a.items[k], -1),
                                 "block-mask indices, every block in order");
            if (full)  // no block is known fully unmasked: the kernel applies the mask_mod everywhere
                return intRange(user, 1, "block-mask full-block counts, none");
            const auto blocks = recordedSize(g, a.items[k + 1], -1);
            return intRange(user, blocks ? std::optional<std::int64_t>(*blocks + 1) : std::nullopt,
                            "block-mask counts, every block", blocks.value_or(0));
        }
    }
    return {};
}

// embedding_bag's offsets start bags inside the 1-D indices: sorted, from 0, at most their count (the CUDA kernel
// asserts on anything else).
ValueDomain offsetsBound(const Graph& g, const Node& user, std::size_t pos)
{
    const std::string& op = user.target.op;
    static const OpSet kBags = {"_embedding_bag", "_embedding_bag_forward_only", "embedding_bag", "_embedding_bag_backward"};
    if (kBags.contains(op) && pos == 2 && user.args.size() > 1)
        return partition(user, ValueDomain::Kind::Offsets, recordedSize(g, user.args[1], 0), "bag offsets into the indices");
    // transformers' MoE matmul: cumulative token counts per expert over the rows sorted by expert.
    if (op == "grouped_mm_fallback" && user.target.ns == "transformers" && pos == 2 && !user.args.empty())
        return partition(user, ValueDomain::Kind::Offsets, recordedSize(g, user.args[0], 0), "cumulative token counts per expert");
    return {};
}

// segment_reduce's keyword-only lengths/offsets partition the data along `axis`: each row of lengths sums to that
// size (checked by the kernel), offsets run from 0 to it.
ValueDomain segmentBound(const Graph& g, const Node& user, std::string_view kwarg)
{
    const std::string& op = user.target.op;
    const std::size_t data = op == "segment_reduce" ? 0 : op == "_segment_reduce_backward" ? 2 : user.args.size();
    if (data >= user.args.size() || (kwarg != "lengths" && kwarg != "offsets"))
        return {};
    std::int64_t axis = 0;
    for (const auto& [name, a] : user.kwargs)
        if (name == "axis" && a.kind == Arg::Kind::Int)
            axis = a.i;
    const auto size = recordedSize(g, user.args[data], axis);
    if (kwarg == "lengths")
        return partition(user, ValueDomain::Kind::Lengths, size, "segment lengths summing to the data's size");
    return partition(user, ValueDomain::Kind::Offsets, size, "segment offsets into the data");
}

// The integer range consumer `user` puts on its argument `pos`.
ValueDomain intBound(const Graph& g, const Node& user, std::size_t pos)
{
    const std::string& op = user.target.op;
    static const OpSet kIndexedDim = {"index_select", "gather", "scatter", "scatter_add", "scatter_reduce", "index_add",
                                      "index_copy", "index_fill", "index_reduce"};
    if (op == "embedding" && pos == 1)
        return intRange(user, recordedSize(g, user.args[0], 0), "rows of the weight");
    if (op == "embedding_dense_backward" && pos == 1)
        return intRange(user, intArg(user, 2, -1), "num_weights");
    static const OpSet kEmbeddingBag = {"_embedding_bag", "_embedding_bag_forward_only", "embedding_bag"};
    if (kEmbeddingBag.contains(op) && pos == 1)
        return intRange(user, recordedSize(g, user.args[0], 0), "rows of the weight");
    if (op == "_embedding_bag_backward" && pos == 1)
        return intRange(user, intArg(user, 6, -1), "num_weights");
    if (op == "_embedding_bag_dense_backward" && pos == 1)
        return intRange(user, intArg(user, 5, -1), "num_weights");
    if (kIndexedDim.contains(op) && pos == 2)
        return intRange(user, recordedSize(g, user.args[0], intArg(user, 1, 0)), "size of the indexed dim");
    // take indexes the flattened tensor; take_along_dim too unless given a dim.
    if ((op == "take" || (op == "take_along_dim" && (user.args.size() < 3 || user.args[2].kind != Arg::Kind::Int))) && pos == 1)
        return intRange(user, recordedNumel(g, user.args[0]), "elements of the flattened tensor");
    if (op == "take_along_dim" && pos == 1)
        return intRange(user, recordedSize(g, user.args[0], user.args[2].i), "size of the indexed dim");
    if ((op == "nll_loss_forward" || op == "nll_loss" || op == "nll_loss2d_forward" || op == "cross_entropy_loss") && pos == 1)
        return classTarget(g, user, 0);
    if ((op == "nll_loss_backward" || op == "nll_loss2d_backward") && pos == 2)
        return classTarget(g, user, 1);
    // multilabel_margin_loss' targets may also hold -1 (the end of a row's labels): classes alone are valid too.
    if ((op == "multi_margin_loss" || op == "multilabel_margin_loss" || op == "multilabel_margin_loss_forward") && pos == 1)
        return classTarget(g, user, 0);
    if ((op == "multi_margin_loss_backward" || op == "multilabel_margin_loss_backward") && pos == 2)
        return classTarget(g, user, 1);
    if (op == "one_hot" && pos == 0)
        return intRange(user, intArg(user, 1, -1), "num_classes");
    if ((op == "max_pool2d_with_indices_backward" || op == "max_pool3d_with_indices_backward") && pos == 7)
        return intRange(user, trailingNumel(g, user.args[1], op[8] == '2' ? 2 : 3), "positions in the pooled plane");
    if ((op == "adaptive_max_pool2d_backward" || op == "adaptive_max_pool3d_backward") && pos == 2)
        return intRange(user, trailingNumel(g, user.args[1], op[17] == '2' ? 2 : 3), "positions in the pooled plane");
    if ((op == "max_unpool2d" || op == "max_unpool3d") && pos == 1 && user.args.size() > 2 &&
        user.args[2].kind == Arg::Kind::List) {
        std::int64_t p = 1;
        for (const Arg& a : user.args[2].items)
            p *= a.kind == Arg::Kind::Int ? a.i : 0;
        return intRange(user, p, "positions in the output plane");
    }
    if ((op == "linalg_ldl_solve" || op == "linalg_lu_solve" || op == "lu_unpack") && pos == 1)
        return pivots(g, user, user.args[0]);
    if (op == "lu_solve" && pos == 2)
        return pivots(g, user, user.args[1]);
    if ((op == "bincount" || op == "repeat_interleave") && pos == 0)
        return intRange(user, 16, "counts are non-negative");
    return {};
}

// How many dims of the indexed tensor one item of a Python index uses: None and Ellipsis none (Ellipsis stands for
// the rest, see pythonIndexDim), a boolean mask its rank, an integer tensor, int, slice or list one.
int indexItemWidth(const Graph& g, const Arg& item)
{
    if (item.kind == Arg::Kind::None || item.kind == Arg::Kind::Ellipsis)
        return 0;
    if (item.kind == Arg::Kind::Node) {
        const Node& n = g.nodes[static_cast<std::size_t>(item.node)];
        if (n.meta && n.meta->isTensor() &&
            (n.meta->tensor.dtype == DType::Bool || n.meta->tensor.dtype == DType::UInt8))
            return static_cast<int>(n.meta->tensor.sizes.size());
    }
    return 1;
}

// The dim of the indexed tensor that `v`, an integer tensor among the items of a Python index (dynamo graphs:
// `x[idx]`, `biases[(slice(None, None, None), idxs)]` -- LeViT's attention-bias table --, `x[..., idx]`), indexes:
// counted from the front before an Ellipsis, from the end (negative) after one. Nullopt: v is not an item, or a mask.
std::optional<std::int64_t> pythonIndexDim(const Graph& g, const Arg& index, int v)
{
    const std::vector<Arg> single{index};
    const std::vector<Arg>& items = index.kind == Arg::Kind::Tuple ? index.items : single;
    const auto ellipsis = std::find_if(items.begin(), items.end(), [](const Arg& a) { return a.kind == Arg::Kind::Ellipsis; });
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (items[k].kind != Arg::Kind::Node || items[k].node != v)
            continue;
        const Node& n = g.nodes[static_cast<std::size_t>(v)];
        const bool mask = n.meta && n.meta->isTensor() &&
                          (n.meta->tensor.dtype == DType::Bool || n.meta->tensor.dtype == DType::UInt8);
        if (!n.meta || !n.meta->isTensor() || !dtypeIsIntegral(n.meta->tensor.dtype) || mask)
            return std::nullopt;
        const auto at = items.begin() + static_cast<std::ptrdiff_t>(k);
        std::int64_t dim = 0;
        if (ellipsis == items.end() || at < ellipsis) {
            for (auto it = items.begin(); it != at; ++it)
                dim += indexItemWidth(g, *it);
            return dim;
        }
        for (auto it = at; it != items.end(); ++it)
            dim -= indexItemWidth(g, *it);
        return dim;
    }
    return std::nullopt;
}

// Whether pow's exponent (args[1]) makes a negative base NaN: a fractional or tensor exponent.
bool fractionalExponent(const Node& user)
{
    if (user.args.size() < 2)
        return false;
    const Arg& e = user.args[1];
    if (e.kind == Arg::Kind::Float)
        return e.f != std::floor(e.f);
    return e.kind == Arg::Kind::Node;
}

// The float domain consumer `user` puts on its argument `pos`.
ValueDomain floatBound(const Node& user, std::size_t pos)
{
    using K = ValueDomain::Kind;
    const std::string& op = user.target.op;
    static const OpSet kPositiveArg0 = {"sqrt", "rsqrt", "log", "log2", "log10", "lgamma", "digamma", "poisson",
                                        "_standard_gamma", "_sample_dirichlet", "multinomial", "log1p", "special_entr",
                                        "special_bessel_y0", "special_bessel_y1", "special_modified_bessel_k0",
                                        "special_modified_bessel_k1", "special_scaled_modified_bessel_k0",
                                        "special_scaled_modified_bessel_k1", "igamma", "igammac", "special_gammainc",
                                        "special_gammaincc"};
    // Second argument positive: xlogy's y, xlog1py's y (> -1), the gammas' x, zeta's q, polygamma's x (arg 0 is n).
    static const OpSet kPositiveArg1 = {"xlogy", "special_xlogy", "special_xlog1py", "igamma", "igammac",
                                        "special_gammainc", "special_gammaincc", "special_zeta", "polygamma",
                                        "special_polygamma"};
    static const OpSet kUnitArg0 = {"bernoulli", "logit", "erfinv", "atanh", "acos", "asin", "binary_cross_entropy",
                                    "special_ndtri", "special_logit", "special_erfinv"};
    // Batch norm's running_var / invstd argument positions.
    static const OpSet kRunningVar4 = {"native_batch_norm", "_native_batch_norm_legit_functional",
                                       "_native_batch_norm_legit_no_training", "_native_batch_norm_legit", "batch_norm",
                                       "_batch_norm_impl_index", "cudnn_batch_norm", "miopen_batch_norm",
                                       "_batch_norm_with_update", "_batch_norm_with_update_functional",
                                       "_batch_norm_no_update", "batch_norm_elemt"};
    static const OpSet kBackwardVar46 = {"native_batch_norm_backward", "cudnn_batch_norm_backward", "batch_norm_backward",
                                         "miopen_batch_norm_backward"};
    if ((op == "acosh" || op == "special_zeta") && pos == 0) {
        ValueDomain d = floatDomain(user, K::Positive, "defined above 1");
        d.above = 1.0;
        return d;
    }
    if ((op == "mvlgamma" || op == "special_multigammaln") && pos == 0) {  // defined for x > (p - 1) / 2
        ValueDomain d = floatDomain(user, K::Positive, "defined above (p - 1) / 2");
        d.above = static_cast<double>(intArg(user, 1, 1) - 1) / 2.0;
        return d;
    }
    if ((kPositiveArg0.contains(op) && pos == 0) || (kPositiveArg1.contains(op) && pos == 1) ||
        (op == "pow" && pos == 0 && fractionalExponent(user)))
        return floatDomain(user, K::Positive, "defined for positive inputs");
    if ((op == "cholesky" || op == "linalg_cholesky" || op == "linalg_cholesky_ex") && pos == 0)
        return floatDomain(user, K::PositiveDefinite, "has a Cholesky factor");
    if ((kUnitArg0.contains(op) && pos == 0) || (op == "binary_cross_entropy" && pos == 1) ||
        (op == "binary_cross_entropy_backward" && (pos == 1 || pos == 2)) || (op == "binary_cross_entropy_with_logits" && pos == 1))
        return floatDomain(user, K::UnitInterval, "a probability");
    if ((kRunningVar4.contains(op) && pos == 4) || (kBackwardVar46.contains(op) && (pos == 4 || pos == 6)))
        return floatDomain(user, K::Positive, "a variance (or its inverse square root)");
    if ((op == "native_layer_norm_backward" && pos == 4) || (op == "native_group_norm_backward" && pos == 3))
        return floatDomain(user, K::Positive, "rstd");
    return {};
}

// A weight's fan-in at its consumer: mm(x, w) and addmm(b, x, w) contract over w's dim 0, linear(x, w) over
// w's last dim, convolution (and its backward, which a compiled gradient step holds without the forward) over every
// dim of w but the first (out channels).
ValueDomain weightScale(const Graph& g, const Node& user, std::size_t pos)
{
    const std::string& op = user.target.op;
    std::optional<std::int64_t> fanIn;
    if ((op == "mm" && pos == 1) || (op == "addmm" && pos == 2))
        fanIn = recordedSize(g, user.args[pos], 0);
    else if (op == "linear" && pos == 1)
        fanIn = recordedSize(g, user.args[pos], -1);
    else if ((op == "convolution" || op == "_convolution" || op == "conv2d" || op == "conv1d" || op == "conv3d") && pos == 1)
        fanIn = convFanIn(g, user.args[pos]);
    else if (op == "convolution_backward" && pos == 2)  // (grad_output, input, weight, ...): the forward's weight
        fanIn = convFanIn(g, user.args[pos]);
    if (!fanIn || *fanIn <= 1)
        return {};
    ValueDomain d = floatDomain(user, ValueDomain::Kind::Scaled, "a weight with fan-in " + std::to_string(*fanIn));
    d.scale = 1.0 / std::sqrt(static_cast<double>(*fanIn));
    return d;
}

// Flash and memory-efficient attention backwards read their philox seed and offset on the host: eager passes
// 0-dim CPU tensors. cuDNN attention's stay on the device (its backward refuses CPU ones: "philox_seed is on cpu",
// Qwen2-MoE under bf16 autocast on an H100), as its recorded i64[]cuda:0 says.
bool cpuScalarUse(const Node& user, std::size_t pos)
{
    const std::string& op = user.target.op;
    if (op == "_scaled_dot_product_efficient_attention_backward")
        return pos == 7 || pos == 8;
    if (op == "_efficient_attention_backward" || op == "_scaled_dot_product_flash_attention_backward" ||
        op == "_flash_attention_backward")
        return pos == 12 || pos == 13;
    return false;
}

bool listHolds(const Arg& a, int v)
{
    if (a.kind != Arg::Kind::List && a.kind != Arg::Kind::Tuple)
        return false;
    for (const Arg& item : a.items)
        if (item.kind == Arg::Kind::Node && item.node == v)
            return true;
    return false;
}

// Ops whose output holds values of `v` (selected, gathered, stacked or chosen), so a bound on the output's values
// binds `v`: RoBERTa's token-type ids are a buffer gathered by position before they index their embedding.
bool selectsValuesOf(const Node& user, int v)
{
    const auto at = [&](std::size_t pos) {
        return pos < user.args.size() && user.args[pos].kind == Arg::Kind::Node && user.args[pos].node == v;
    };
    const std::string& op = user.target.op;
    static const OpSet kSource0 = {"gather", "index", "_unsafe_index", "take", "take_along_dim", "masked_fill",
                                   "index_put", "_unsafe_index_put", "repeat_interleave", "roll", "flip", "tile",
                                   "masked_select", "where", "clamp"};
    if (kSource0.contains(op) && at(0) && op != "where")
        return true;
    if (op == "where" && (at(1) || at(2)))
        return true;
    if ((op == "index_put" || op == "_unsafe_index_put") && at(2))
        return true;
    return (op == "cat" || op == "stack" || op == "hstack" || op == "vstack") && !user.args.empty() &&
           listHolds(user.args[0], v);
}

// The constant an add/sub adds to `v` ("position = arange + past_length"); nullopt when it is not one.
std::optional<std::int64_t> constantShift(const Node& user, int v)
{
    if (!user.isOp() || user.args.size() != 2 || !user.kwargs.empty() || (user.target.op != "add" && user.target.op != "sub"))
        return std::nullopt;
    const Arg& a = user.args[0];
    const Arg& b = user.args[1];
    const bool sub = user.target.op == "sub";
    if (a.kind == Arg::Kind::Node && a.node == v && b.kind == Arg::Kind::Int)
        return sub ? -b.i : b.i;
    if (!sub && b.kind == Arg::Kind::Node && b.node == v && a.kind == Arg::Kind::Int)
        return a.i;
    return std::nullopt;
}

// Whether `user` adds a non-negative float to `v` (`running_var + eps` under the sqrt of inductor's decomposed
// batch norm): whatever keeps the sum's domain positive holds for `v` too when `v` itself is generated positive.
bool addsNonNegativeFloat(const Node& user, int v)
{
    if (!user.isOp() || user.args.size() != 2 || !user.kwargs.empty() || (user.target.op != "add" && user.target.op != "sub"))
        return false;
    const Arg& a = user.args[0];
    const Arg& b = user.args[1];
    const bool sub = user.target.op == "sub";
    if (a.kind == Arg::Kind::Node && a.node == v && b.kind == Arg::Kind::Float)
        return sub ? b.f <= 0 : b.f >= 0;
    return !sub && b.kind == Arg::Kind::Node && b.node == v && a.kind == Arg::Kind::Float && a.f >= 0;
}

// A float literal's value (ints too); nullopt for anything else.
std::optional<double> literal(const Arg& a)
{
    if (a.kind == Arg::Kind::Float)
        return a.f;
    if (a.kind == Arg::Kind::Int)
        return static_cast<double>(a.i);
    return std::nullopt;
}

// Whether the value of `a` is never negative whatever the graph's inputs: a non-negative literal, a square (x * x,
// x ** 2), |x|, exp, and products / sums of such. What AdamW adds to its second moment (grad * grad * (1 - beta2)).
bool nonNegative(const Graph& g, const Arg& a, int depth = 0)
{
    if (auto c = literal(a))
        return *c >= 0;
    if (a.kind != Arg::Kind::Node || depth > 8)
        return false;
    const Node& n = g.nodes[static_cast<std::size_t>(a.node)];
    if (!n.isOp())
        return false;
    const std::string& op = n.target.op;
    static const OpSet kNonNegative = {"abs", "exp", "square", "sqrt", "relu", "sigmoid", "softmax", "_softmax", "exp2"};
    if (kNonNegative.contains(op))
        return true;
    if (n.args.size() < 2)
        return false;
    if ((op == "mul" || op == "mul_") && n.args[0] == n.args[1])
        return true;
    if (op == "pow" && n.args[1].kind == Arg::Kind::Int && n.args[1].i % 2 == 0)
        return true;
    if (op == "pow" && n.args[1].kind == Arg::Kind::Float && std::fmod(n.args[1].f, 2.0) == 0.0)
        return true;
    if ((op == "mul" || op == "div" || op == "add") && n.kwargs.empty())
        return nonNegative(g, n.args[0], depth + 1) && nonNegative(g, n.args[1], depth + 1);
    return false;
}

// What a float value derived from a positive input is known to be (the input generated positive): positive, or
// inside (0, 1). Nullopt: no longer known.
enum class Derived { Positive, UnitOpen };

// The next link of a positivity-preserving chain from `v` (of kind `from`) through `user`: a positive scale
// (exp_avg_sq * beta2), a non-negative addend (+ grad * grad * (1 - beta2), + eps), a base in (0, 1) raised to a
// positive power (beta2 ** step: in (0, 1)), and 1 - that (AdamW's bias correction 1 - beta2 ** step). The rules a
// Positive consumer (sqrt, rsqrt, log) then puts on the chain's end hold for the input generated positive.
std::optional<Derived> derivedThrough(const Graph& g, const Node& user, int v, Derived from)
{
    const std::string& op = user.target.op;
    const auto isV = [v](const Arg& a) { return a.kind == Arg::Kind::Node && a.node == v; };
    if (user.args.size() < 2)
        return std::nullopt;
    const Arg& a = user.args[0];
    const Arg& b = user.args[1];
    if ((op == "mul" || op == "mul_") && user.kwargs.empty()) {
        const Arg& other = isV(a) ? b : a;
        const auto c = literal(other);
        if (c && *c > 0)
            return from == Derived::UnitOpen && *c <= 1 ? Derived::UnitOpen : Derived::Positive;
        return std::nullopt;
    }
    if ((op == "div" || op == "div_") && isV(a) && user.kwargs.empty()) {
        const auto c = literal(b);
        return c && *c > 0 ? std::optional<Derived>(Derived::Positive) : std::nullopt;
    }
    if ((op == "add" || op == "add_") && user.kwargs.empty())
        return nonNegative(g, isV(a) ? b : a) ? std::optional<Derived>(Derived::Positive) : std::nullopt;
    if ((op == "addcmul" || op == "addcmul_") && isV(a) && user.args.size() >= 3 && user.args[1] == user.args[2]) {
        for (const auto& [k, val] : user.kwargs)
            if (k == "value" && !(literal(val) && *literal(val) >= 0))
                return std::nullopt;
        return Derived::Positive;
    }
    if (op == "pow" && isV(b) && from == Derived::Positive) {  // pow.Scalar(base, v)
        const auto base = literal(a);
        return base && *base > 0 && *base < 1 ? std::optional<Derived>(Derived::UnitOpen) : std::nullopt;
    }
    if (op == "rsub" && isV(a) && from == Derived::UnitOpen) {  // rsub(v, c) = c - v
        const auto c = literal(b);
        return c && *c >= 1 ? std::optional<Derived>(Derived::Positive) : std::nullopt;
    }
    if (op == "sub" && isV(b) && from == Derived::UnitOpen) {  // c - v
        const auto c = literal(a);
        return c && *c >= 1 ? std::optional<Derived>(Derived::Positive) : std::nullopt;
    }
    return std::nullopt;
}

// Keeps the tighter of two domains: the narrower integer range, Positive over UnitInterval over Any.
void tighten(ValueDomain& cur, const ValueDomain& found)
{
    if (found.cpuScalar && !cur.cpuScalar) {
        cur.cpuScalar = true;
        if (cur.reason.empty())
            cur.reason = found.reason;
    }
    if (found.kind == ValueDomain::Kind::Any)
        return;
    // Kinds in order of priority: Any < Scaled < UnitInterval < Positive < PositiveDefinite < IntRange < Offsets,
    // Lengths (a structure the kernel checks beats a range).
    const auto rank = [](ValueDomain::Kind k) {
        switch (k) {
        case ValueDomain::Kind::Any: return 0;
        case ValueDomain::Kind::Scaled: return 1;
        case ValueDomain::Kind::UnitInterval: return 2;
        case ValueDomain::Kind::Positive: return 3;
        case ValueDomain::Kind::PositiveDefinite: return 4;
        case ValueDomain::Kind::IntRange: return 5;
        case ValueDomain::Kind::Offsets:
        case ValueDomain::Kind::Lengths:
        case ValueDomain::Kind::BlockIndices: return 6;
        case ValueDomain::Kind::GeneratorState: return 7;
        }
        return 0;
    };
    const bool better = rank(found.kind) > rank(cur.kind) ||
                        (found.kind == ValueDomain::Kind::Positive && cur.kind == ValueDomain::Kind::Positive &&
                         found.above > cur.above) ||
                        (found.kind == ValueDomain::Kind::IntRange && cur.kind == ValueDomain::Kind::IntRange &&
                         found.high - found.low < cur.high - cur.low) ||
                        (found.kind == ValueDomain::Kind::Scaled && cur.kind == ValueDomain::Kind::Scaled &&
                         found.scale < cur.scale);
    if (better) {
        const bool cpu = cur.cpuScalar;
        cur = found;
        cur.cpuScalar = cpu;
    }
}

// A torch-level call (dynamo graphs: torch.nn.functional.embedding, torch.sqrt, x.gather(...)) seen as the aten op
// it resolves to, with the aten argument order, so the rules above apply to dynamo graphs too. Other nodes as
// they are.
Node atenView(const Node& n)
{
    // Python arithmetic on tensors (dynamo graphs: `1 - beta2 ** step`) as the aten op it runs.
    if (n.target.kind == Target::Kind::Operator && n.meta && n.meta->isTensor()) {
        static const OpSet kArithmetic = {"add", "sub", "mul", "truediv", "pow"};
        if (!kArithmetic.contains(n.target.op))
            return n;
        Node a = n;
        a.target = Target{Target::Kind::Op, "aten", n.target.op == "truediv" ? "div" : n.target.op, "Tensor"};
        return a;
    }
    if (n.isOp() || (n.target.kind != Target::Kind::Python && n.target.kind != Target::Kind::Method))
        return n;
    std::string name = n.target.op;
    for (std::string_view prefix : {"torch.nn.functional.", "torch._C._nn.", "torch._C._VariableFunctions.", "torch."})
        if (name.starts_with(prefix)) {
            name = name.substr(prefix.size());
            break;
        }
    if (name.find('.') != std::string::npos)
        return n;
    Node a = n;
    a.kind = NodeKind::CallFunction;  // a method call's self is its first argument, as in the aten schema
    a.target = Target{Target::Kind::Op, "aten", name, "default"};
    const bool functional = n.target.op.starts_with("torch.nn.functional.");
    if (functional && name == "embedding" && a.args.size() >= 2)
        std::swap(a.args[0], a.args[1]);  // F.embedding(input, weight) -> aten.embedding(weight, indices)
    if (functional && (name == "cross_entropy" || name == "nll_loss"))
        a.target.op = name == "cross_entropy" ? "cross_entropy_loss" : "nll_loss";
    if (functional && name == "batch_norm" && a.args.size() >= 3) {
        // F.batch_norm(input, running_mean, running_var, weight, bias, ...) -> (input, weight, bias, mean, var, ...)
        std::vector<Arg> args = a.args;
        while (args.size() < 5)
            args.push_back(Arg::none());
        a.args = {args[0], args[3], args[4], args[1], args[2]};
        a.args.insert(a.args.end(), args.begin() + 5, args.end());
    }
    return a;
}

// The domain that the uses of value `v` (which holds the input's values plus `shift`) put on the input.
struct Walker {
    const Graph& g;
    const std::vector<std::vector<int>>& users;

    // A value reached from the input: it holds the input's values + shift, or (derived) a float computed from them
    // that is positive / in (0, 1) whenever the input is generated positive.
    struct Reached {
        int v;
        std::int64_t shift = 0;
        std::optional<Derived> derived;
    };

    ValueDomain domainOf(int input) const
    {
        ValueDomain out;
        std::vector<Reached> frontier{{input, 0, std::nullopt}};
        std::set<int> seen;
        while (!frontier.empty()) {
            const Reached r = frontier.back();
            frontier.pop_back();
            if (!seen.insert(r.v).second)
                continue;
            if (r.derived)
                followDerived(r, frontier, out);
            else
                follow(r.v, r.shift, frontier, out);
        }
        return out;
    }

    // Uses of a derived value: only the positivity chain goes on, and only a Positive consumer binds the input.
    void followDerived(const Reached& r, std::vector<Reached>& frontier, ValueDomain& out) const
    {
        for (int u : users[static_cast<std::size_t>(r.v)]) {
            const Node user = atenView(g.nodes[static_cast<std::size_t>(u)]);
            if (!user.isOp())
                continue;
            if (isViewLike(user) && user.args[0].node == r.v) {
                frontier.push_back({u, 0, r.derived});
                continue;
            }
            if (auto next = derivedThrough(g, user, r.v, *r.derived)) {
                frontier.push_back({u, 0, next});
                continue;
            }
            if (*r.derived != Derived::Positive)
                continue;
            for (std::size_t pos = 0; pos < user.args.size(); ++pos) {
                if (user.args[pos].kind != Arg::Kind::Node || user.args[pos].node != r.v)
                    continue;
                ValueDomain d = floatBound(user, pos);
                if (d.kind == ValueDomain::Kind::Positive && d.above == 0.0) {
                    d.reason += " (through the arithmetic that feeds it: positive scales, non-negative addends)";
                    tighten(out, d);
                }
            }
        }
    }

    void follow(int v, std::int64_t shift, std::vector<Reached>& frontier, ValueDomain& out) const
    {
            for (int u : users[static_cast<std::size_t>(v)]) {
                const Node user = atenView(g.nodes[static_cast<std::size_t>(u)]);
                if (followPythonIndex(user, u, v, shift, frontier, out))
                    continue;
                if (!user.isOp())
                    continue;
                if ((isViewLike(user) && user.args[0].node == v) || selectsValuesOf(user, v)) {
                    frontier.push_back({u, shift, std::nullopt});
                    continue;
                }
                if (auto c = constantShift(user, v)) {
                    frontier.push_back({u, shift + *c, std::nullopt});
                    continue;
                }
                if (addsNonNegativeFloat(user, v)) {
                    frontier.push_back({u, shift, std::nullopt});
                    continue;
                }
                if (shift >= 0)
                    if (auto next = derivedThrough(g, user, v, Derived::Positive)) {
                        frontier.push_back({u, 0, next});
                        continue;
                    }
                if (shift == 0)
                    tighten(out, blockMaskItem(g, user, v));
                for (std::size_t pos = 0; pos < user.args.size(); ++pos)
                    collect(user, pos, v, shift, out);
                for (const auto& [name, a] : user.kwargs)
                    if (a.kind == Arg::Kind::Node && a.node == v && shift == 0)
                        tighten(out, segmentBound(g, user, name));
            }
    }

    // Dynamo graphs index with Python: x[...] holds values of x, and an integer tensor among the index's items is
    // bounded by the dim it indexes (also `x[idx] = y`, operator.setitem). False: `user` is no Python indexing.
    bool followPythonIndex(const Node& user, int u, int v, std::int64_t shift, std::vector<Reached>& frontier,
                           ValueDomain& out) const
    {
        const bool get = user.target.kind == Target::Kind::Getitem && user.args.size() == 2;
        const bool set = user.target.kind == Target::Kind::Operator && user.target.op == "setitem" && user.args.size() == 3;
        if (!get && !set)
            return false;
        const Arg& indexed = user.args[0];
        if (indexed.kind == Arg::Kind::Node && indexed.node == v) {
            const Node& src = g.nodes[static_cast<std::size_t>(v)];
            if (get && src.meta && src.meta->isTensor() && user.meta && user.meta->isTensor())
                frontier.push_back({u, shift, std::nullopt});
            return true;
        }
        if (const auto dim = pythonIndexDim(g, user.args[1], v))
            tighten(out, shifted(intRange(user, recordedSize(g, indexed, *dim), "size of the indexed dim " + std::to_string(*dim)),
                                 shift));
        return true;
    }

    void collect(const Node& user, std::size_t pos, int v, std::int64_t shift, ValueDomain& out) const
    {
        const Arg& a = user.args[pos];
        // In place too: inductor's post-grad graphs write index_put_ into a fresh full() (CLIP's pooled-token grad).
        static const OpSet kIndexLists = {"index", "_unsafe_index", "index_put", "index_put_", "_index_put_impl",
                                          "_index_put_impl_", "_unsafe_index_put", "_unsafe_index_put_"};
        if (a.kind == Arg::Kind::List && pos == 1 && kIndexLists.contains(user.target.op)) {
            for (std::size_t k = 0; k < a.items.size(); ++k)
                if (a.items[k].kind == Arg::Kind::Node && a.items[k].node == v)
                    tighten(out, shifted(intRange(user, recordedSize(g, user.args[0], static_cast<std::int64_t>(k)),
                                                  "size of dim " + std::to_string(k)),
                                         shift));
            return;
        }
        if (a.kind != Arg::Kind::Node || a.node != v)
            return;
        if (shift == 0)
            tighten(out, offsetsBound(g, user, pos));
        tighten(out, shifted(intBound(g, user, pos), shift));
        if (shift >= 0)  // x + c > 0 holds for positive x when c >= 0
            tighten(out, floatBound(user, pos));
        if (shift == 0)
            tighten(out, weightScale(g, user, pos));
        if (shift == 0 && pos == 0 && user.target.ns == "higher_order" && user.target.op == "run_with_rng_state")
            tighten(out, floatDomain(user, ValueDomain::Kind::GeneratorState, "the generator state the recompute draws from"));
        if (shift == 0 && cpuScalarUse(user, pos)) {
            ValueDomain cpu;
            cpu.cpuScalar = true;
            cpu.reason = user.name + " (" + user.target.op + "): philox seed/offset, a 0-dim CPU tensor in eager";
            tighten(out, cpu);
        }
    }

    // A bound on (input + shift) as a bound on the input.
    static ValueDomain shifted(ValueDomain d, std::int64_t shift)
    {
        if (d.kind == ValueDomain::Kind::IntRange && shift != 0) {
            d.low -= shift;
            d.high -= shift;
            d.reason += " (the input " + std::string(shift > 0 ? "+ " : "- ") + std::to_string(std::llabs(shift)) + ")";
        }
        return d;
    }
};

}  // namespace

std::string ValueDomain::describe() const
{
    std::string s;
    switch (kind) {
    case Kind::Any: break;
    case Kind::IntRange: s = "in [" + std::to_string(low) + ", " + std::to_string(high) + ")"; break;
    case Kind::Positive: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", above);
        s = above == 0.0 ? "positive" : "greater than " + std::string(buf);
        break;
    }
    case Kind::PositiveDefinite: s = "symmetric positive-definite"; break;
    case Kind::Offsets: s = "sorted offsets in [0, " + std::to_string(high) + "]"; break;
    case Kind::Lengths: s = "lengths summing to " + std::to_string(high); break;
    case Kind::BlockIndices: s = "0, 1, ..., " + std::to_string(high - 1) + " along the last dim"; break;
    case Kind::UnitInterval: s = "in [0, 1)"; break;
    case Kind::GeneratorState: s = "a generator state"; break;
    case Kind::Scaled: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", scale);
        s = "normal with std " + std::string(buf);
        break;
    }
    }
    if (cpuScalar)
        s += std::string(s.empty() ? "" : ", ") + "a 0-dim CPU tensor";
    return s + ": " + reason;
}

std::vector<ValueDomain> inferValueDomains(const Graph& g)
{
    const auto users = computeUsers(g);
    const Walker walker{g, users};
    std::vector<ValueDomain> out(g.nodes.size());
    for (int ph : g.placeholders())
        out[static_cast<std::size_t>(ph)] = walker.domainOf(ph);
    // Tensor constants (self._tensor_constantN) whose values a trace log does not hold are generated like inputs:
    // DeBERTa's sqrt(torch.tensor(head_dim) * scale_factor) came out NaN from a negative draw.
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].kind == NodeKind::GetAttr)
            out[i] = walker.domainOf(static_cast<int>(i));
    // Compiled autograd's list inputs: each getitem of a placeholder list is an input of its own.
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.target.kind == Target::Kind::Getitem && !n.args.empty() && n.args[0].kind == Arg::Kind::Node &&
            g.nodes[static_cast<std::size_t>(n.args[0].node)].kind == NodeKind::Placeholder)
            out[i] = walker.domainOf(static_cast<int>(i));
    }
    return out;
}

}  // namespace fxray::graph
