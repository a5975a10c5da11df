#include "replay/ops/compiled_autograd_ops.h"

#include "graph/compiled_autograd.h"
#include "replay/ops/autograd_nodes.h"
#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>
#include <torch/library.h>

namespace fxray::replay::detail {
namespace {

constexpr const char* kOpsPrefix = "torch__dynamo_compiled_autograd_ops_";

// validate_outputs(outputs, metadata): what the autograd engine's validate_outputs does to each gradient before it
// flows on (torch/csrc/autograd/engine.cpp): one of another shape that broadcasts to its input's is summed down to
// it (at::sum_to: a bias's gradient out of AddmmBackward0 is the [batch, n] grad until here), one of another dtype
// is cast to the input's grad dtype. The metadata, per output ((options), shape, is_tensor_subclass, grad_dtype), comes
// flattened: the shapes' dims one after another, `ranks[i]` of them for output i (-1: not known, left as it is),
// `dtypes[i]` its dtype (-1: none recorded).
c10::List<std::optional<at::Tensor>> validateOutputs(const c10::List<std::optional<at::Tensor>>& outputs,
                                                     std::vector<std::int64_t> dims, std::vector<std::int64_t> ranks,
                                                     std::vector<std::int64_t> dtypes)
{
    c10::List<std::optional<at::Tensor>> out;
    std::size_t at = 0;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        std::optional<at::Tensor> g = outputs.get(i);
        const std::int64_t rank = i < ranks.size() ? ranks[i] : -1;
        if (rank >= 0) {
            TORCH_CHECK(at + static_cast<std::size_t>(rank) <= dims.size(), "validate_outputs: metadata shorter than its ranks");
            const std::vector<std::int64_t> shape(dims.begin() + static_cast<std::ptrdiff_t>(at),
                                                  dims.begin() + static_cast<std::ptrdiff_t>(at + static_cast<std::size_t>(rank)));
            at += static_cast<std::size_t>(rank);
            if (g && g->defined() && g->sizes() != at::IntArrayRef(shape)) {
                TORCH_CHECK(at::is_expandable_to(shape, g->sizes()), "validate_outputs: gradient ", i, " of shape ",
                            g->sizes(), " does not fit its input's shape ", at::IntArrayRef(shape));
                g = at::sum_to(*g, shape);
            }
        }
        if (g && g->defined() && i < dtypes.size() && dtypes[i] >= 0 && g->scalar_type() != static_cast<at::ScalarType>(dtypes[i]))
            g = g->to(static_cast<at::ScalarType>(dtypes[i]));
        out.push_back(g);
    }
    return out;
}

// call_aot_bwd_prologue(saved, symints, opaque, *grads) with no symints and no opaque objects (the planner
// checks): the inlined AOT backward's inputs are the saved tensors followed by the incoming gradients.
c10::List<std::optional<at::Tensor>> aotBwdPrologue(const c10::List<std::optional<at::Tensor>>& saved,
                                                    const c10::List<std::optional<at::Tensor>>& grads)
{
    c10::List<std::optional<at::Tensor>> out = saved.copy();
    for (const auto& g : grads)
        out.push_back(g);
    return out;
}

// call_accumulate_grad(param, grad, has_post_hooks): param.grad = grad (or += it). Replay runs kernels only, so the
// observable part is AccumulateGrad's own check: the gradient must have the parameter's shape and dtype. (The
// post-accumulate-grad hooks are call_hook nodes of their own; has_post_hooks only keeps the gradient from being
// stolen.)
void accumulateGrad(const at::Tensor& variable, const std::optional<at::Tensor>& grad, bool)
{
    if (!grad || !grad->defined())
        return;
    TORCH_CHECK(grad->sizes() == variable.sizes(), "call_accumulate_grad: gradient of shape ", grad->sizes(),
                " for a parameter of shape ", variable.sizes());
    TORCH_CHECK(grad->scalar_type() == variable.scalar_type(), "call_accumulate_grad: gradient of dtype ",
                grad->scalar_type(), " for a parameter of dtype ", variable.scalar_type());
}

void finalCallbacksStub() {}

// unwrap_maybe_dynamic_int(x): compiled autograd passes each used entry of `sizes` as torch.empty(0, n) (so that dynamo
// marks n dynamic), or as the int itself when n <= 0 (torch/_dynamo/compiled_autograd.py, runtime_wrapper).
std::int64_t unwrapDynamicInt(const c10::IValue& x)
{
    if (x.isTensor()) {
        const at::Tensor& t = x.toTensor();
        TORCH_CHECK(t.dim() == 2 && t.size(0) == 0, "unwrap_maybe_dynamic_int: expected an int or a [0, n] tensor, got a tensor of shape ",
                    t.sizes());
        return t.size(1);
    }
    return x.toInt();
}

TORCH_LIBRARY(fxray_ca, m)
{
    m.def("validate_outputs(Tensor?[] outputs, int[] dims, int[] ranks, int[] dtypes) -> Tensor?[]", &validateOutputs);
    m.def("aot_bwd_prologue(Tensor?[] saved, Tensor?[] grads) -> Tensor?[]", &aotBwdPrologue);
    m.def("accumulate_grad(Tensor variable, Tensor? grad, bool has_post_hooks) -> ()", &accumulateGrad);
    m.def("exec_final_callbacks_stub() -> ()", &finalCallbacksStub);
    m.def("unwrap_maybe_dynamic_int(Any x) -> int", &unwrapDynamicInt);
}

ArgPlan nodeArg(const graph::Arg& a)
{
    if (a.kind == graph::Arg::Kind::None)
        return constantArg(c10::IValue());
    if (a.kind != graph::Arg::Kind::Node)
        throw std::invalid_argument("expected a graph value or None");
    ArgPlan p;
    p.kind = ArgPlan::Kind::Value;
    p.node = a.node;
    return p;
}

// validate_outputs' metadata list, flattened as validateOutputs takes it: (dims, ranks, dtypes). An output whose
// metadata is not ((options...), [dims], is_tensor_subclass, grad_dtype) with int or node dims keeps rank -1.
std::vector<ArgPlan> validateMetadata(const graph::Node& n)
{
    using K = graph::Arg::Kind;
    ArgPlan dims;
    dims.kind = ArgPlan::Kind::IntList;
    std::vector<std::int64_t> ranks, dtypes;
    const std::size_t count = n.args[0].items.size();
    const bool listed = n.args.size() >= 2 && n.args[1].kind == K::List && n.args[1].items.size() == count;
    for (std::size_t i = 0; i < count; ++i) {
        ranks.push_back(-1);
        dtypes.push_back(-1);
        if (!listed)
            continue;
        const graph::Arg& m = n.args[1].items[i];
        if (m.kind != K::Tuple || m.items.size() != 4 || m.items[1].kind != K::List)
            continue;
        bool plain = true;
        for (const graph::Arg& d : m.items[1].items)
            plain = plain && (d.kind == K::Int || d.kind == K::Node);
        if (plain) {
            for (const graph::Arg& d : m.items[1].items)
                dims.items.push_back(d.kind == K::Int ? constantArg(d.i) : nodeArg(d));
            ranks.back() = static_cast<std::int64_t>(m.items[1].items.size());
        }
        // grad_dtype, else the options' dtype (an int: torch prints ScalarType so)
        const graph::Arg& options = m.items[0];
        if (m.items[3].kind == K::Int)
            dtypes.back() = m.items[3].i;
        else if (options.kind == K::Tuple && options.items.size() == 6 && options.items[3].kind == K::Int)
            dtypes.back() = options.items[3].i;
    }
    return {dims, constantArg(ranks), constantArg(dtypes)};
}

ArgPlan tensorList(const std::vector<graph::Arg>& items)
{
    ArgPlan p;
    p.kind = ArgPlan::Kind::OptTensorList;
    for (const graph::Arg& a : items)
        p.items.push_back(nodeArg(a));
    return p;
}

}  // namespace

std::optional<NodePlan> planCompiledAutogradCall(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    using C = graph::CompiledAutogradCall;
    const C call = graph::compiledAutogradCall(n);
    if (call == C::None)
        return std::nullopt;
    if (call == C::AutogradNode && graph::autogradNodeRunsNatively(n.target.op.substr(std::string_view(kOpsPrefix).size())))
        return planAutogradNode(g, n, n.target.op.substr(std::string_view(kOpsPrefix).size()), device);
    NodePlan p;
    p.name = n.target.op;
    p.why = graph::compiledAutogradPythonReason(n);
    if (!p.why.empty())
        return p;  // Unsupported, with the reason
    const char* op = nullptr;
    try {
        switch (call) {
        case C::ValidateOutputs:
            if (n.args.empty() || n.args[0].kind != graph::Arg::Kind::List)
                throw std::invalid_argument("validate_outputs without a list of gradients");
            op = "validate_outputs";
            p.args = {tensorList(n.args[0].items)};
            for (ArgPlan& a : validateMetadata(n))
                p.args.push_back(std::move(a));
            break;
        case C::AotBwdPrologue: {
            if (n.args[0].kind != graph::Arg::Kind::Tuple && n.args[0].kind != graph::Arg::Kind::List)
                throw std::invalid_argument("call_aot_bwd_prologue without a tuple of saved tensors");
            op = "aot_bwd_prologue";
            p.args = {tensorList(n.args[0].items), tensorList({n.args.begin() + 3, n.args.end()})};
            break;
        }
        case C::AccumulateGrad:
            if (n.args.size() != 3 || n.args[0].kind != graph::Arg::Kind::Node)
                throw std::invalid_argument("call_accumulate_grad(variable, grad, has_post_hooks) expected");
            op = "accumulate_grad";
            p.args = {nodeArg(n.args[0]), nodeArg(n.args[1]),
                      constantArg(n.args[2].kind == graph::Arg::Kind::Bool && n.args[2].b)};
            break;
        case C::FinalCallbacksStub: op = "exec_final_callbacks_stub"; break;
        case C::UnwrapDynamicInt:
            if (n.args.size() != 1)
                throw std::invalid_argument("unwrap_maybe_dynamic_int takes one value");
            op = "unwrap_maybe_dynamic_int";
            p.args = {nodeArg(n.args[0])};
            break;
        default:
            p.why = "compiled-autograd helper " + n.target.op + " is not supported";
            return p;
        }
    } catch (const std::invalid_argument& e) {
        p.args.clear();
        p.why = n.target.op + ": " + e.what();
        return p;
    }
    auto handle = c10::Dispatcher::singleton().findSchema({std::string("fxray_ca::") + op, ""});
    if (!handle) {
        p.args.clear();
        p.why = std::string("fxray_ca::") + op + " is not registered (fxray's replay library was linked without it)";
        return p;
    }
    p.kind = NodePlan::Kind::Op;
    p.op = handle;
    return p;
}

}  // namespace fxray::replay::detail
