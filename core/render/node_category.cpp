#include "render/node_category.h"

#include "graph/collective_check.h"

#include <array>
#include <unordered_map>

namespace fxray::render {

namespace {

using Table = std::unordered_map<std::string_view, NodeCategory>;

const Table& opTable()
{
    static const Table kTable = [] {
        Table t;
        const auto add = [&t](NodeCategory c, std::initializer_list<std::string_view> names) {
            for (std::string_view n : names)
                t.emplace(n, c);
        };
        add(NodeCategory::MatMul,
            {"mm", "bmm", "addmm", "baddbmm", "addbmm", "addmv", "mv", "dot", "vdot", "matmul", "linear", "einsum",
             "convolution", "convolution_backward", "_convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
             "conv_transpose2d", "conv_transpose3d", "cudnn_convolution", "cudnn_convolution_transpose",
             "mkldnn_convolution", "_scaled_mm", "_int_mm", "_weight_int8pack_mm", "_weight_int4pack_mm",
             "scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
             "_scaled_dot_product_flash_attention_backward", "_scaled_dot_product_efficient_attention",
             "_scaled_dot_product_efficient_attention_backward", "_scaled_dot_product_cudnn_attention",
             "_scaled_dot_product_cudnn_attention_backward", "_flash_attention_forward", "_flash_attention_backward",
             "_efficient_attention_forward", "_efficient_attention_backward", "flex_attention",
             "flex_attention_backward", "_grouped_mm", "_scaled_grouped_mm"});
        add(NodeCategory::Reduction,
            {"sum", "mean", "amax", "amin", "max", "min", "aminmax", "var", "var_mean", "std", "std_mean", "prod",
             "argmax", "argmin", "logsumexp", "norm", "linalg_vector_norm", "frobenius_norm", "nansum", "all", "any",
             "cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "count_nonzero", "topk", "sort", "median",
             "mode", "_softmax", "softmax", "_log_softmax", "log_softmax", "_softmax_backward_data",
             "_log_softmax_backward_data", "native_layer_norm", "native_layer_norm_backward", "layer_norm",
             "rms_norm", "_fused_rms_norm", "_fused_rms_norm_backward", "native_batch_norm",
             "native_batch_norm_backward", "_native_batch_norm_legit", "_native_batch_norm_legit_functional",
             "_native_batch_norm_legit_no_training", "batch_norm", "cudnn_batch_norm", "cudnn_batch_norm_backward",
             "native_group_norm", "native_group_norm_backward", "group_norm", "nll_loss_forward",
             "nll_loss_backward", "nll_loss2d_forward", "nll_loss2d_backward", "nll_loss", "cross_entropy",
             "cross_entropy_loss", "mse_loss", "mse_loss_backward", "binary_cross_entropy",
             "binary_cross_entropy_with_logits", "xor_sum", "embedding_dense_backward", "_embedding_bag"});
        add(NodeCategory::View,
            {"view", "_unsafe_view", "reshape", "_reshape_alias", "permute", "transpose", "t", "expand",
             "expand_as", "squeeze", "unsqueeze", "select", "slice", "as_strided", "alias", "unfold", "narrow",
             "split", "split_with_sizes", "chunk", "unbind", "view_as", "flatten", "unflatten", "diagonal",
             "detach", "view_as_real", "view_as_complex", "movedim", "broadcast_in_dim", "collapse_view",
             "split_dim", "squeeze_copy", "lift_fresh", "lift_fresh_copy", "getitem", "size", "stride", "dim",
             "numel", "sym_size", "sym_stride", "sym_numel", "sym_storage_offset"});
        add(NodeCategory::Elementwise,
            {"add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "neg", "abs",
             "sign", "sgn", "reciprocal", "pow", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10",
             "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "erfc",
             "erfinv", "sigmoid", "logit", "relu", "relu6", "gelu", "silu", "mish", "elu", "selu", "celu",
             "leaky_relu", "hardtanh", "hardswish", "hardsigmoid", "softplus", "threshold", "prelu", "glu",
             "relu_backward", "threshold_backward", "gelu_backward", "silu_backward", "mish_backward",
             "sigmoid_backward", "tanh_backward", "elu_backward", "leaky_relu_backward", "hardtanh_backward",
             "hardswish_backward", "hardsigmoid_backward", "softplus_backward", "glu_backward", "maximum",
             "minimum", "clamp", "clamp_min", "clamp_max", "clip", "where", "masked_fill", "lerp", "addcmul",
             "addcdiv", "floor", "ceil", "round", "trunc", "frac", "eq", "ne", "lt", "le", "gt", "ge",
             "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or",
             "bitwise_not", "bitwise_xor", "isnan", "isinf", "isfinite", "nan_to_num", "square", "native_dropout",
             "native_dropout_backward", "dropout", "copy", "_to_copy", "to", "clone", "contiguous",
             "convert_element_type", "type_as", "fill", "zero", "zeros_like", "ones_like", "full_like",
             "empty_like", "fma", "hypot", "copysign", "heaviside", "signbit", "bitwise_left_shift",
             "bitwise_right_shift", "_foreach_add", "_foreach_mul", "_foreach_div", "_foreach_sub",
             "_foreach_addcmul", "_foreach_addcdiv", "_foreach_sqrt", "_foreach_lerp"});
        return t;
    }();
    return kTable;
}

}  // namespace

std::string_view nodeCategoryName(NodeCategory c)
{
    switch (c) {
    case NodeCategory::Input: return "input";
    case NodeCategory::Constant: return "constant";
    case NodeCategory::Output: return "output";
    case NodeCategory::MatMul: return "matmul";
    case NodeCategory::Elementwise: return "elementwise";
    case NodeCategory::Reduction: return "reduction";
    case NodeCategory::View: return "view";
    case NodeCategory::Collective: return "collective";
    case NodeCategory::Other: return "other";
    }
    return "other";
}

NodeCategory classifyOp(std::string_view opName)
{
    // Dotted python names (dynamo-level graphs): the last component names the function.
    if (const auto dot = opName.rfind('.'); dot != std::string_view::npos)
        opName.remove_prefix(dot + 1);
    const Table& table = opTable();
    if (const auto it = table.find(opName); it != table.end())
        return it->second;
    // In-place variants ("add_", "relu_") do the same work as their functional form.
    if (opName.size() > 1 && opName.back() == '_' && opName[opName.size() - 2] != '_') {
        opName.remove_suffix(1);
        if (const auto it = table.find(opName); it != table.end())
            return it->second;
    }
    return NodeCategory::Other;
}

NodeCategory classifyNode(const graph::Node& n)
{
    switch (n.kind) {
    case graph::NodeKind::Placeholder: return NodeCategory::Input;
    case graph::NodeKind::GetAttr: return NodeCategory::Constant;
    case graph::NodeKind::Output: return NodeCategory::Output;
    case graph::NodeKind::CallFunction:
    case graph::NodeKind::CallMethod: break;
    }
    switch (n.target.kind) {
    case graph::Target::Kind::Getitem: return NodeCategory::View;
    case graph::Target::Kind::Operator: return NodeCategory::Other;  // SymInt arithmetic: no tensor work
    case graph::Target::Kind::Op:
        if (graph::isCollectiveNamespace(n.target.ns))
            return NodeCategory::Collective;
        // max.other / min.other are the binary (pointwise) forms of the reductions.
        if ((n.target.op == "max" || n.target.op == "min") && n.target.overload == "other")
            return NodeCategory::Elementwise;
        return classifyOp(n.target.op);
    case graph::Target::Kind::Python:
    case graph::Target::Kind::Method: return classifyOp(n.target.op);
    case graph::Target::Kind::None: break;
    }
    return NodeCategory::Other;
}

NodeStyle nodeStyle(NodeCategory c)
{
    switch (c) {
    case NodeCategory::Input: return {"#cfe2f3", "#3d6d99", "rect"};  // square corners: ops are rounded
    case NodeCategory::Constant: return {"#e4d7f5", "#6b4c9a", "cylinder"};
    case NodeCategory::Output: return {"#d9d9d9", "#505050", "house"};
    case NodeCategory::MatMul: return {"#f8c9a0", "#b35a16", "box"};
    case NodeCategory::Elementwise: return {"#d2eac2", "#4f7f32", "box"};
    case NodeCategory::Reduction: return {"#fbe59a", "#9c7c0c", "box"};
    case NodeCategory::View: return {"#f0f0f0", "#8c8c8c", "box", true};
    case NodeCategory::Collective: return {"#f6cfe4", "#9c2a6b", "box"};
    case NodeCategory::Other: return {"#ffffff", "#606060", "box"};
    }
    return {"#ffffff", "#606060", "box"};
}

NodeStyle stubStyle()
{
    return {"#e8f1fa", "#3d6d99", "box", true};
}

}  // namespace fxray::render
