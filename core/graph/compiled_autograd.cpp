#include "graph/compiled_autograd.h"

#include <string_view>

namespace fxray::graph {
namespace {

constexpr std::string_view kOps = "torch__dynamo_compiled_autograd_ops_";
constexpr std::string_view kCa = "torch__dynamo_compiled_autograd_";
constexpr std::string_view kUtils = "torch__dynamo_external_utils_";

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string kwargText(const Node& n, std::string_view key)
{
    for (const auto& [k, v] : n.kwargs)
        if (k == key && v.kind == Arg::Kind::String)
            return v.s;
    return {};
}

}  // namespace

bool autogradNodeRunsNatively(std::string_view node)
{
    for (std::string_view k : {"AccumulateGrad", "AddmmBackward0", "GeluBackward0", "MeanBackward0", "MulBackward0",
                               "PowBackward0", "SumBackward0", "TBackward0"})
        if (node == k)
            return true;
    return false;
}

CompiledAutogradCall compiledAutogradCall(const Node& n)
{
    using C = CompiledAutogradCall;
    if (n.kind != NodeKind::CallFunction || n.target.kind != Target::Kind::Python)
        return C::None;
    const std::string_view f = n.target.op;
    if (f == std::string(kOps) + "validate_outputs")
        return C::ValidateOutputs;
    if (startsWith(f, std::string(kOps) + "CppNode"))
        return C::CustomFunction;
    if (startsWith(f, kOps))
        return C::AutogradNode;
    if (f == std::string(kCa) + "call_aot_bwd_prologue")
        return C::AotBwdPrologue;
    if (f == std::string(kUtils) + "call_accumulate_grad")
        return C::AccumulateGrad;
    if (f == std::string(kUtils) + "_exec_final_callbacks_stub")
        return C::FinalCallbacksStub;
    if (f == std::string(kUtils) + "unwrap_maybe_dynamic_int")
        return C::UnwrapDynamicInt;
    if (f == std::string(kUtils) + "call_hook" || f == std::string(kUtils) + "call_hook_from_backward_state")
        return C::Hook;
    return C::None;
}

std::string compiledAutogradPythonReason(const Node& n)
{
    using C = CompiledAutogradCall;
    const std::string& f = n.target.op;
    switch (compiledAutogradCall(n)) {
    case C::Hook: {
        const std::string type = kwargText(n, "hook_type");
        return "needs Python: call_hook runs a user hook" + (type.empty() ? std::string() : " (" + type + ")");
    }
    case C::CustomFunction:
        return "needs Python: " + f.substr(kOps.size() + 7) + " is a custom autograd.Function's backward";
    case C::AutogradNode:
        if (autogradNodeRunsNatively(std::string_view(f).substr(kOps.size())))
            return {};
        return "needs Python: compiled autograd runs autograd node " + f.substr(kOps.size()) +
               " through torch._dynamo.compiled_autograd.ops";
    case C::AccumulateGrad:
        // has_post_hooks only tells AccumulateGrad not to steal the gradient (the hooks may hold it): the hooks
        // themselves are call_hook nodes of their own (AccumulateGrad_apply_functional_no_hooks_ivalue).
        return {};
    case C::AotBwdPrologue:
        // (saved tensors, symints, opaque objects, *gradients): fxray forwards tensors only.
        if (n.args.size() < 3 || n.args[1].kind != Arg::Kind::List || !n.args[1].items.empty() ||
            n.args[2].kind != Arg::Kind::List || !n.args[2].items.empty())
            return "needs Python: call_aot_bwd_prologue with saved SymInts or opaque objects";
        return {};
    default: return {};
    }
}

std::vector<int> cudaMovableScalarInputs(const Graph& g)
{
    const auto ph = g.placeholders();
    if (ph.empty() || g.nodes[static_cast<std::size_t>(ph[0])].name != "inputs")
        return {};
    const int inputs = ph[0];
    // users of every node, in program order
    std::vector<std::vector<int>> users(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        forEachNodeRef(g.nodes[i], [&](int ref) { users[static_cast<std::size_t>(ref)].push_back(static_cast<int>(i)); });

    auto isMovableUser = [&](int u) {
        const Node& n = g.nodes[static_cast<std::size_t>(u)];
        if (n.isOp())
            return n.target.ns == "aten" || n.target.ns == "prims";
        // torch accepts any compiled_autograd.ops.<Op> that is not a custom Function: validate_outputs too.
        const auto c = compiledAutogradCall(n);
        return c == CompiledAutogradCall::AutogradNode || c == CompiledAutogradCall::ValidateOutputs;
    };
    bool anyCuda = false;
    std::vector<int> out;
    for (int u : users[static_cast<std::size_t>(inputs)]) {
        const Node& get = g.nodes[static_cast<std::size_t>(u)];
        if (get.target.kind != Target::Kind::Getitem || get.args.size() != 2 || get.args[1].kind != Arg::Kind::Int ||
            !get.meta || !get.meta->isTensor() || !get.meta->tensor.device)
            continue;
        const TensorMeta& t = get.meta->tensor;
        if (t.device->type == "cuda") {
            anyCuda = true;
            continue;
        }
        const auto& us = users[static_cast<std::size_t>(u)];
        bool all = true;
        for (int x : us)
            all = all && isMovableUser(x);
        if (t.device->type == "cpu" && t.sizes.empty() && all)
            out.push_back(static_cast<int>(get.args[1].i));
    }
    return anyCuda ? out : std::vector<int>{};
}

}  // namespace fxray::graph
