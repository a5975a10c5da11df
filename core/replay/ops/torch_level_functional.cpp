#include "replay/ops/torch_level_functional.h"

#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// A Python signature as torch/nn/functional.py writes it. "+name=value" is an aten argument Python does not
// have (batch_norm's cudnn_enabled); renames map Python's names to the schema's ("training:train").
struct Signature {
    std::string_view name;
    std::string_view params;
    std::string_view aten = {};     // aten::<aten>; empty: aten::<name>
    std::string_view renames = {};  // "python:schema python:schema"
    bool dropout = false;           // identity outside training or with p == 0
};

constexpr std::string_view kDropout = "input, p=0.5, training=True, inplace=False";
constexpr std::string_view kReduction = "size_average=None, reduce=None, reduction='mean'";

// Python functions of torch.nn.functional (the C builtins it re-exports, such as linear, conv2d and
// scaled_dot_product_attention, match their schemas already and need no entry).
const Signature kSignatures[] = {
    {"relu", "input, inplace=False"},
    {"relu6", "input, inplace=False"},
    {"elu", "input, alpha=1.0, inplace=False"},
    {"selu", "input, inplace=False"},
    {"celu", "input, alpha=1.0, inplace=False"},
    {"leaky_relu", "input, negative_slope=0.01, inplace=False"},
    {"hardtanh", "input, min_val=-1.0, max_val=1.0, inplace=False"},
    {"silu", "input, inplace=False"},
    {"mish", "input, inplace=False"},
    {"hardswish", "input, inplace=False"},
    {"hardsigmoid", "input, inplace=False"},
    {"threshold", "input, threshold, value, inplace=False"},
    {"glu", "input, dim=-1"},
    {"softmax", "input, dim=None, _stacklevel=3, dtype=None"},
    {"log_softmax", "input, dim=None, _stacklevel=3, dtype=None"},
    {"dropout", kDropout, {}, "training:train", true},
    {"dropout1d", kDropout, "feature_dropout", "training:train", true},
    {"dropout2d", kDropout, "feature_dropout", "training:train", true},
    {"dropout3d", kDropout, "feature_dropout", "training:train", true},
    {"alpha_dropout", kDropout, {}, "training:train", true},
    {"batch_norm",
     "input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05, "
     "+cudnn_enabled=True"},
    {"instance_norm",
     "input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, "
     "eps=1e-05, +cudnn_enabled=True"},
    {"layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05"},
    {"group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05"},
    {"rms_norm", "input, normalized_shape, weight=None, eps=None"},
    {"embedding", "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
     {}, "input:indices"},
    {"max_pool1d", "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False"},
    {"max_pool2d", "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False"},
    {"max_pool3d", "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False"},
    {"adaptive_avg_pool2d", "input, output_size"},
    {"adaptive_avg_pool3d", "input, output_size"},
    {"pad", "input, pad, mode='constant', value=None"},
    {"unfold", "input, kernel_size, dilation=1, padding=0, stride=1", "im2col"},
    {"fold", "input, output_size, kernel_size, dilation=1, padding=0, stride=1", "col2im"},
    {"cross_entropy", "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', "
                      "label_smoothing=0.0", "cross_entropy_loss"},
    {"nll_loss", "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'",
     "nll_loss_nd"},
    {"mse_loss", "input, target, size_average=None, reduce=None, reduction='mean', weight=None"},
    {"l1_loss", "input, target, size_average=None, reduce=None, reduction='mean'"},
    {"smooth_l1_loss", "input, target, size_average=None, reduce=None, reduction='mean', beta=1.0"},
    {"binary_cross_entropy", "input, target, weight=None, size_average=None, reduce=None, reduction='mean'"},
    {"binary_cross_entropy_with_logits",
     "input, target, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None"},
};

struct Param {
    std::string name;
    std::optional<Arg> byDefault;
    bool extra = false;  // "+name": aten only
};

// "None", "True", "3", "1e-05", "'mean'" as written in a signature.
Arg literal(std::string_view v)
{
    if (v == "None")
        return Arg::none();
    if (v == "True" || v == "False")
        return Arg::ofBool(v == "True");
    if (v.front() == '\'')
        return Arg::ofString(std::string(v.substr(1, v.size() - 2)));
    if (v.find_first_of(".e") != std::string_view::npos)
        return Arg::ofFloat(std::stod(std::string(v)));
    return Arg::ofInt(std::stoll(std::string(v)));
}

std::vector<Param> parseParams(std::string_view text)
{
    std::vector<Param> out;
    while (!text.empty()) {
        const std::size_t comma = text.find(", ");
        std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 2);
        Param p;
        p.extra = item.front() == '+';
        if (p.extra)
            item.remove_prefix(1);
        const std::size_t eq = item.find('=');
        p.name = std::string(item.substr(0, eq));
        if (eq != std::string_view::npos)
            p.byDefault = literal(item.substr(eq + 1));
        out.push_back(std::move(p));
    }
    return out;
}

std::string renamed(const Signature& sig, const std::string& name)
{
    std::string_view r = sig.renames;
    while (!r.empty()) {
        const std::size_t space = r.find(' ');
        const std::string_view pair = r.substr(0, space);
        r = space == std::string_view::npos ? std::string_view{} : r.substr(space + 1);
        const std::size_t colon = pair.find(':');
        if (pair.substr(0, colon) == name)
            return std::string(pair.substr(colon + 1));
    }
    return name;
}

// Python's binding of the call to the signature: every parameter gets its value or its default.
std::vector<Arg> bindPython(const Signature& sig, const std::vector<Param>& params, const std::vector<Arg>& args,
                            const std::vector<std::pair<std::string, Arg>>& kwargs)
{
    const std::string fn = "torch.nn.functional." + std::string(sig.name);
    std::vector<std::optional<Arg>> given(params.size());
    for (std::size_t k = 0; k < args.size(); ++k) {
        if (k >= params.size() || params[k].extra)
            throw std::invalid_argument(fn + "() takes fewer positional arguments than " + std::to_string(args.size()));
        given[k] = args[k];
    }
    for (const auto& [key, value] : kwargs) {
        std::size_t k = 0;
        while (k < params.size() && (params[k].extra || params[k].name != key))
            ++k;
        if (k == params.size())
            throw std::invalid_argument(fn + "() got an unexpected keyword argument '" + key + "'");
        given[k] = value;
    }
    std::vector<Arg> out;
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (!given[k] && !params[k].byDefault)
            throw std::invalid_argument(fn + "() is missing argument '" + params[k].name + "'");
        out.push_back(given[k] ? *given[k] : *params[k].byDefault);
    }
    return out;
}

const Arg* valueOf(const std::vector<Param>& params, const std::vector<Arg>& values, std::string_view name)
{
    for (std::size_t k = 0; k < params.size(); ++k)
        if (params[k].name == name)
            return &values[k];
    return nullptr;
}

bool isTrue(const Arg* a) { return a && a->kind == Arg::Kind::Bool && a->b; }

// Dropout does nothing outside training or with p == 0 (Python returns the input itself).
bool dropoutIsIdentity(const std::vector<Param>& params, const std::vector<Arg>& values)
{
    const Arg* training = valueOf(params, values, "training");
    const Arg* p = valueOf(params, values, "p");
    const bool notTraining = training && training->kind == Arg::Kind::Bool && !training->b;
    const bool noDrop = p && ((p->kind == Arg::Kind::Float && p->f == 0.0) || (p->kind == Arg::Kind::Int && p->i == 0));
    return notTraining || noDrop;
}

// The losses' reduction string as aten's enum (at::Reduction: None 0, Mean 1, Sum 2).
Arg reductionEnum(const Arg& a)
{
    if (a.kind != Arg::Kind::String)
        return a;
    if (a.s == "none" || a.s == "mean" || a.s == "sum")
        return Arg::ofInt(a.s == "none" ? 0 : a.s == "mean" ? 1 : 2);
    throw std::invalid_argument("unknown reduction '" + a.s + "'");
}

}  // namespace

FunctionalRewrite rewriteFunctional(const std::string& name, const std::vector<Arg>& args,
                                    const std::vector<std::pair<std::string, Arg>>& kwargs)
{
    const Signature* sig = nullptr;
    for (const Signature& s : kSignatures)
        if (s.name == name)
            sig = &s;
    FunctionalRewrite out;
    if (!sig)
        return out;
    const std::vector<Param> params = parseParams(sig->params);
    const std::vector<Arg> values = bindPython(*sig, params, args, kwargs);
    if (sig->dropout && dropoutIsIdentity(params, values)) {
        out.kind = FunctionalRewrite::Kind::Identity;
        out.input = values[0];
        return out;
    }
    std::string aten = sig->aten.empty() ? name : std::string(sig->aten);
    if (isTrue(valueOf(params, values, "inplace")))
        aten += "_";
    if (isTrue(valueOf(params, values, "return_indices")))
        aten += "_with_indices";
    out.kind = FunctionalRewrite::Kind::Call;
    out.call.name = aten;
    for (std::size_t k = 0; k < params.size(); ++k) {
        const Param& p = params[k];
        const Arg& v = values[k];
        if (p.name == "_stacklevel" || p.name == "inplace" || p.name == "return_indices")
            continue;
        const std::string schemaName = renamed(*sig, p.name);
        // embedding's norm_type only matters with a max_norm (refused above when given); dynamo may pass it as a
        // graph value (a float it did not specialise).
        const bool ignored = name == "embedding" && p.name == "norm_type";
        const bool pythonDefault = ignored || v.kind == Arg::Kind::None || (p.byDefault && v == *p.byDefault);
        if (!atenHasArgument(aten, schemaName)) {
            if (pythonDefault)
                continue;  // a Python-only parameter left at its default (size_average=None, norm_type=2.0)
            throw std::invalid_argument("torch.nn.functional." + name + "(" + p.name + "=...) has no aten equivalent");
        }
        if (v.kind == Arg::Kind::None && p.byDefault && p.byDefault->kind == Arg::Kind::None)
            continue;  // Python's None default means "the default": the schema's default applies (stride=None)
        out.call.kwargs.emplace_back(schemaName, schemaName == "reduction" ? reductionEnum(v) : v);
    }
    return out;
}

}  // namespace fxray::replay::detail
