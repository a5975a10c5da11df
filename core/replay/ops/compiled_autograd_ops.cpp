#include "replay/ops/compiled_autograd_ops.h"

#include "graph/compiled_autograd.h"
#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>
#include <torch/library.h>

namespace fxray::replay::detail {
namespace {

// validate_outputs(outputs, metadata): for gradients whose dtype, shape and device match the metadata (what a
// faithful replay produces) compiled autograd's validate_outputs returns them unchanged; a disagreement shows up
// in the checks of the nodes that read them.
c10::List<std::optional<at::Tensor>> validateOutputs(const c10::List<std::optional<at::Tensor>>& outputs)
{
    return outputs;
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

// call_accumulate_grad(param, grad, False): param.grad = grad (or += it). Replay runs kernels only, so the
// observable part is AccumulateGrad's own check: the gradient must have the parameter's shape and dtype.
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

std::int64_t unwrapDynamicInt(std::int64_t x) { return x; }

TORCH_LIBRARY(fxray_ca, m)
{
    m.def("validate_outputs(Tensor?[] outputs) -> Tensor?[]", &validateOutputs);
    m.def("aot_bwd_prologue(Tensor?[] saved, Tensor?[] grads) -> Tensor?[]", &aotBwdPrologue);
    m.def("accumulate_grad(Tensor variable, Tensor? grad, bool has_post_hooks) -> ()", &accumulateGrad);
    m.def("exec_final_callbacks_stub() -> ()", &finalCallbacksStub);
    m.def("unwrap_maybe_dynamic_int(int x) -> int", &unwrapDynamicInt);
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
    (void)g;
    (void)device;
    using C = graph::CompiledAutogradCall;
    const C call = graph::compiledAutogradCall(n);
    if (call == C::None)
        return std::nullopt;
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
            p.args = {nodeArg(n.args[0]), nodeArg(n.args[1]), constantArg(false)};
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
