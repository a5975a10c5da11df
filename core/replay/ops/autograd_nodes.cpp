#include "replay/ops/autograd_nodes.h"

#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/functions/accumulate_grad.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/generated/Functions.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <map>
#include <memory>

namespace fxray::replay::detail {
namespace {

namespace ag = torch::autograd;
namespace gen = torch::autograd::generated;
using Saved = std::vector<c10::IValue>;  // the call's arguments after the gradients and needs_input_grad

std::vector<c10::SymInt> symInts(const c10::IValue& v)
{
    std::vector<c10::SymInt> out;
    for (std::int64_t x : v.toIntVector())
        out.emplace_back(x);
    return out;
}

ag::SavedVariable saved(const c10::IValue& v)
{
    return v.isNone() ? ag::SavedVariable() : ag::SavedVariable(v.toTensor(), /*is_output=*/false);
}

at::ScalarType scalarType(const c10::IValue& v) { return static_cast<at::ScalarType>(v.toInt()); }
at::Layout layout(const c10::IValue& v) { return static_cast<at::Layout>(v.toInt()); }

// One builder per node: its saved fields, in the order Functions.h declares them (= the call's order).
struct NodeKind {
    std::vector<const char*> fields;
    std::shared_ptr<ag::Node> (*make)(const Saved&);
};

const std::map<std::string, NodeKind, std::less<>>& nodeKinds()
{
    static const std::map<std::string, NodeKind, std::less<>> kinds{
        {"MeanBackward0", {{"self_sym_numel", "self_sym_sizes"}, [](const Saved& s) -> std::shared_ptr<ag::Node> {
             auto f = std::make_shared<gen::MeanBackward0>();
             f->self_sym_numel = c10::SymInt(s[0].toInt());
             f->self_sym_sizes = symInts(s[1]);
             return f;
         }}},
        {"PowBackward0", {{"exponent", "self_"}, [](const Saved& s) -> std::shared_ptr<ag::Node> {
             auto f = std::make_shared<gen::PowBackward0>();
             f->exponent = s[0].toScalar();
             f->self_ = saved(s[1]);
             return f;
         }}},
        {"SumBackward0", {{"self_sym_sizes"}, [](const Saved& s) -> std::shared_ptr<ag::Node> {
             auto f = std::make_shared<gen::SumBackward0>();
             f->self_sym_sizes = symInts(s[0]);
             return f;
         }}},
        {"TBackward0", {{}, [](const Saved&) -> std::shared_ptr<ag::Node> { return std::make_shared<gen::TBackward0>(); }}},
        {"MulBackward0", {{"other_", "other_scalar_type", "self_", "self_scalar_type"},
                          [](const Saved& s) -> std::shared_ptr<ag::Node> {
                              auto f = std::make_shared<gen::MulBackward0>();
                              f->other_ = saved(s[0]);
                              f->other_scalar_type = scalarType(s[1]);
                              f->self_ = saved(s[2]);
                              f->self_scalar_type = scalarType(s[3]);
                              return f;
                          }}},
        {"GeluBackward0", {{"approximate", "self_"}, [](const Saved& s) -> std::shared_ptr<ag::Node> {
             auto f = std::make_shared<gen::GeluBackward0>();
             f->approximate = s[0].toStringRef();
             f->self_ = saved(s[1]);
             return f;
         }}},
        {"AddmmBackward0", {{"alpha", "beta", "mat1_", "mat1_layout", "mat1_sym_sizes", "mat1_sym_strides", "mat2_",
                             "mat2_layout", "mat2_sym_sizes", "mat2_sym_strides"},
                            [](const Saved& s) -> std::shared_ptr<ag::Node> {
                                auto f = std::make_shared<gen::AddmmBackward0>();
                                f->alpha = s[0].toScalar();
                                f->beta = s[1].toScalar();
                                f->mat1_ = saved(s[2]);
                                f->mat1_layout = layout(s[3]);
                                f->mat1_sym_sizes = symInts(s[4]);
                                f->mat1_sym_strides = symInts(s[5]);
                                f->mat2_ = saved(s[6]);
                                f->mat2_layout = layout(s[7]);
                                f->mat2_sym_sizes = symInts(s[8]);
                                f->mat2_sym_strides = symInts(s[9]);
                                return f;
                            }}},
    };
    return kinds;
}

ag::variable_list gradients(const c10::IValue& v)
{
    ag::variable_list out;
    for (const std::optional<at::Tensor> g : v.toOptionalTensorList())  // None: no gradient (undefined, as the engine passes it)
        out.push_back(g.has_value() ? *g : at::Tensor());
    return out;
}

c10::IValue optionalTensors(const ag::variable_list& ts)
{
    c10::List<std::optional<at::Tensor>> out;
    for (const at::Tensor& t : ts)
        out.push_back(t.defined() ? std::optional<at::Tensor>(t) : std::nullopt);
    return out;
}

// The node's apply() computes input i's gradient only where edge i is valid (task_should_compute_output): an edge to a
// node that never runs marks each input whose gradient the call asks for.
c10::IValue applyNode(const NodeKind& kind, const std::vector<c10::IValue>& v)
{
    const Saved s(v.begin() + 2, v.end());
    std::shared_ptr<ag::Node> fn = kind.make(s);
    static const auto sink = std::make_shared<ag::Error>("fxray: marks a wanted gradient; never run");
    for (bool wanted : v[1].toBoolList())
        fn->add_next_edge(wanted ? ag::Edge(sink, 0) : ag::Edge());
    at::NoGradGuard noGrad;  // the engine runs a backward without grad mode unless create_graph is set
    return optionalTensors((*fn)(gradients(v[0])));  // Node::operator(): apply() as the engine calls it
}

// ops.AccumulateGrad([grad], variable, variable.grad, has_post_hooks) -> [the new .grad]: 1 + has_post_hooks
// references are expected (hooks may hold the gradient), the rest of the rule is AccumulateGrad's own.
c10::IValue accumulateGrad(const std::vector<c10::IValue>& v)
{
    ag::variable_list grads = gradients(v[0]);
    TORCH_CHECK(grads.size() == 1, "AccumulateGrad takes one gradient, got ", grads.size());
    const at::Tensor variable = v[2].toTensor();
    at::Tensor variableGrad = v[3].isNone() ? at::Tensor() : v[3].toTensor();
    const std::size_t expectedRefs = 1 + static_cast<std::size_t>(v[4].toBool());
    if (!grads[0].defined())
        return optionalTensors({variableGrad});
    TORCH_CHECK(grads[0].sizes() == variable.sizes(), "AccumulateGrad: gradient of shape ", grads[0].sizes(),
                " for a parameter of shape ", variable.sizes());
    at::NoGradGuard noGrad;
    at::Tensor updated;
    ag::AccumulateGrad::accumulateGrad(variable, variableGrad, grads[0], expectedRefs,
                                       [&updated](at::Tensor&& g) { updated = std::move(g); });
    return optionalTensors({updated.defined() ? updated : variableGrad});  // in place: the old .grad, added to
}

ArgPlan savedArg(const graph::Graph& g, const graph::Arg& a, const c10::Device& device)
{
    using K = graph::Arg::Kind;
    if (a.kind == K::String)
        return constantArg(a.s);
    if (a.kind != K::List && a.kind != K::Tuple)
        return operandArg(g, a, device);
    ArgPlan p;  // sizes and strides: ints and SymInt nodes
    p.kind = ArgPlan::Kind::IntList;
    for (const graph::Arg& x : a.items) {
        if (x.kind != K::Int && x.kind != K::Node)
            throw std::invalid_argument("a saved list holds " + graph::formatArg(g, x) + ", not an int");
        p.items.push_back(operandArg(g, x, device));
    }
    return p;
}

}  // namespace

NodePlan planAutogradNode(const graph::Graph& g, const graph::Node& n, const std::string& node, const c10::Device& device)
{
    NodePlan p;
    p.name = n.target.op;
    const bool accumulate = node == "AccumulateGrad";
    const auto& kinds = nodeKinds();
    const auto found = kinds.find(node);
    if (!accumulate && found == kinds.end()) {
        p.why = "autograd node " + node + " has no native implementation in fxray";
        return p;
    }
    // AccumulateGrad([grad], variable, variable.grad, has_post_hooks) has no needs_input_grad: it has no inputs.
    const std::size_t fields = accumulate ? 3 : found->second.fields.size();
    const std::size_t lead = accumulate ? 1 : 2;
    try {
        if (n.args.size() != lead + fields || n.args[0].kind != graph::Arg::Kind::List ||
            (!accumulate && n.args[1].kind != graph::Arg::Kind::List))
            throw std::invalid_argument(std::string("expected (gradients, ") + (accumulate ? "" : "needs_input_grad, ") +
                                        std::to_string(fields) + " saved values), got " + std::to_string(n.args.size()) +
                                        " arguments");
        ArgPlan grads;
        grads.kind = ArgPlan::Kind::OptTensorList;
        for (const graph::Arg& a : n.args[0].items)
            grads.items.push_back(operandArg(g, a, device));
        c10::List<bool> needs;
        for (const graph::Arg& a : accumulate ? std::vector<graph::Arg>{} : n.args[1].items) {
            if (a.kind != graph::Arg::Kind::Bool)
                throw std::invalid_argument("needs_input_grad holds " + graph::formatArg(g, a) + ", not a bool");
            needs.push_back(a.b);
        }
        std::vector<ArgPlan> args{grads, constantArg(needs)};  // AccumulateGrad: an empty needs_input_grad
        for (std::size_t i = lead; i < n.args.size(); ++i)
            args.push_back(savedArg(g, n.args[i], device));
        if (accumulate)
            return nativePlan(std::move(args), "torch::autograd::AccumulateGrad::accumulateGrad (LibTorch)", &accumulateGrad);
        std::string schema = "torch::autograd::generated::" + node + "::apply (LibTorch; saved:";
        for (const char* f : found->second.fields)
            schema += std::string(" ") + f;
        const NodeKind kind = found->second;
        return nativePlan(std::move(args), schema + ")",
                          [kind](const std::vector<c10::IValue>& v) { return applyNode(kind, v); });
    } catch (const std::invalid_argument& e) {
        p.why = n.target.op + ": " + e.what();
        return p;
    }
}

}  // namespace fxray::replay::detail
