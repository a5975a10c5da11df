// Ops whose fake-tensor rule and eager kernel choose different output layouts (fake_layouts.h). Each entry was
// found by tests/data/layouts/probe_fake_layouts.py (torch 2.11, CPU): the op called on inputs of mixed layouts (a
// channels-last-like grad and a contiguous input, and the other way round), eager against FakeTensorMode.
#include "replay/engine/fake_layouts.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace fxray::replay::engine {
namespace {

// aten op -> the output (index into its returns) whose layout differs. Why each differs:
//  - _log_softmax_backward_data: the Python meta follows grad_output's strides, the structured kernel's meta makes
//    the output contiguous (wav2vec2's CTC loss: recorded [32, 64, 1], eager [5088, 32, 1]);
//  - native_batch_norm_backward, batch_norm_backward, native_group_norm_backward (grad_input): the decomposition
//    fake tensors run computes grad_input elementwise from grad_out first, so it follows grad_out's layout; the
//    kernels allocate it like the input (input.suggest_memory_format()). LeViT's stem: the grad of
//    bn(conv(x)).flatten(2).transpose(1, 2) reaches the batch norm channels-last-like, recorded
//    [2048, 1, 512, 128], eager [2048, 16, 4, 1];
//  - hardswish/hardsigmoid/hardtanh/elu/softplus/logit backward: the decompositions start from where(self ...), so
//    they follow self's layout; the TensorIterator kernels follow grad_output's;
//  - _efficient_attention_backward (CUDA): the meta makes grad_query/key/value empty_like their inputs, the kernel
//    allocates them dense (at::empty(query.sizes())) unless q, k and v share one storage. Found on an H100 by
//    OpInfo's sample with permuted q and k: recorded [352, 8, 88, 1], the kernel's [352, 32, 8, 1]. Not probed by
//    probe_fake_layouts.py (CPU: the op has no CPU kernel).
const std::map<std::string, std::set<int>, std::less<>>& opsWithOtherLayouts()
{
    static const std::map<std::string, std::set<int>, std::less<>> kOps = {
        {"_log_softmax_backward_data", {0}}, {"native_batch_norm_backward", {0}}, {"batch_norm_backward", {0}},
        {"native_group_norm_backward", {0}}, {"hardswish_backward", {0}},         {"hardsigmoid_backward", {0}},
        {"hardtanh_backward", {0}},          {"elu_backward", {0}},               {"softplus_backward", {0}},
        {"logit_backward", {0}},             {"_efficient_attention_backward", {0, 1, 2}}};
    return kOps;
}

bool listedOutput(const graph::Node& op, int output)
{
    if (!op.isOp() || op.target.ns != "aten")
        return false;
    const auto& ops = opsWithOtherLayouts();
    const auto it = ops.find(op.target.op);
    return it != ops.end() && it->second.contains(output);
}

}  // namespace

bool isIdentityDropout(const graph::Node& n)
{
    static const std::set<std::string, std::less<>> kTorchLevel = {
        "torch.nn.functional.dropout", "torch.nn.functional.dropout1d", "torch.nn.functional.dropout2d",
        "torch.nn.functional.dropout3d", "torch.nn.functional.alpha_dropout", "torch.dropout", "torch.feature_dropout",
        "torch.alpha_dropout"};
    const bool aten = n.isOp() && n.target.ns == "aten" &&
                      (n.target.op == "dropout" || n.target.op == "feature_dropout" || n.target.op == "alpha_dropout");
    if (!aten && !(n.target.kind == graph::Target::Kind::Python && kTorchLevel.contains(n.target.op)))
        return false;
    auto arg = [&](std::size_t pos, std::initializer_list<std::string_view> names) -> const graph::Arg* {
        for (const auto& [k, v] : n.kwargs)
            if (std::find(names.begin(), names.end(), k) != names.end())
                return &v;
        return pos < n.args.size() ? &n.args[pos] : nullptr;
    };
    const graph::Arg* p = arg(1, {"p"});
    const graph::Arg* train = arg(2, {"training", "train"});
    const bool zero = p && ((p->kind == graph::Arg::Kind::Float && p->f == 0) || (p->kind == graph::Arg::Kind::Int && p->i == 0));
    // torch.nn.functional.alpha_dropout's `training` defaults to False (the other functions' to True).
    const bool trainingByDefault = n.target.op != "torch.nn.functional.alpha_dropout";
    const bool notTraining = train ? train->kind == graph::Arg::Kind::Bool && !train->b : !aten && !trainingByDefault;
    return zero || notTraining;
}

bool fakeLayoutDiffersFromEager(const graph::Graph& g, const graph::Node& n)
{
    if (n.target.kind == graph::Target::Kind::Getitem && n.args.size() == 2 && n.args[0].kind == graph::Arg::Kind::Node &&
        n.args[1].kind == graph::Arg::Kind::Int && n.args[0].node >= 0 &&
        static_cast<std::size_t>(n.args[0].node) < g.nodes.size())
        return listedOutput(g.nodes[static_cast<std::size_t>(n.args[0].node)], static_cast<int>(n.args[1].i));
    return listedOutput(n, 0) || isIdentityDropout(n);
}

bool readsPaddedMatmul(const graph::Graph& g, const graph::Node& n)
{
    static const std::set<std::string, std::less<>> kViews = {"view", "_unsafe_view", "reshape", "slice", "permute",
                                                              "transpose", "t", "expand", "squeeze", "unsqueeze",
                                                              "select", "alias", "as_strided"};
    static const std::set<std::string, std::less<>> kMatmuls = {"mm", "bmm", "addmm", "baddbmm"};
    auto producer = [&](const graph::Arg& a) -> const graph::Node* {
        return a.kind == graph::Arg::Kind::Node ? &g.nodes[static_cast<std::size_t>(a.node)] : nullptr;
    };
    const graph::Node* at = n.args.empty() ? nullptr : producer(n.args[0]);
    for (int hops = 0; at && hops < 16; ++hops) {
        if (!at->isOp() || at->target.ns != "aten")
            return false;
        if (kMatmuls.contains(at->target.op))
            return std::any_of(at->args.begin(), at->args.end(), [&](const graph::Arg& a) {
                const graph::Node* operand = producer(a);
                return operand && operand->isOp() && operand->target.op == "constant_pad_nd";
            });
        if (!kViews.contains(at->target.op) || at->args.empty())
            return false;
        at = producer(at->args[0]);
    }
    return false;
}

}  // namespace fxray::replay::engine
