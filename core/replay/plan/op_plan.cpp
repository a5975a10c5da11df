#include "replay/plan/op_plan.h"

#include "graph/printer.h"
#include "replay/plan/attention_fallback.h"
#include "replay/plan/cpu_dtype_gaps.h"
#include "replay/plan/inductor_prims.h"
#include "replay/plan/plan_builders.h"
#include "replay/plan/rnn_cell_fallback.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/core/jit_type.h>

#include <set>
#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// A planning failure for one node; becomes NodePlan::Kind::Unsupported with this message.
struct PlanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

c10::Layout toLayout(const std::string& s)
{
    if (s == "strided")
        return c10::kStrided;
    if (s == "sparse_coo")
        return c10::kSparse;
    if (s == "sparse_csr")
        return c10::kSparseCsr;
    if (s == "sparse_csc")
        return c10::kSparseCsc;
    if (s == "sparse_bsr")
        return c10::kSparseBsr;
    if (s == "sparse_bsc")
        return c10::kSparseBsc;
    if (s == "_mkldnn")
        return c10::kMkldnn;
    if (s == "jagged")
        return c10::kJagged;
    throw PlanError("unknown layout torch." + s);
}

c10::MemoryFormat toMemoryFormat(const std::string& s)
{
    if (s == "contiguous_format")
        return c10::MemoryFormat::Contiguous;
    if (s == "channels_last")
        return c10::MemoryFormat::ChannelsLast;
    if (s == "channels_last_3d")
        return c10::MemoryFormat::ChannelsLast3d;
    if (s == "preserve_format")
        return c10::MemoryFormat::Preserve;
    throw PlanError("unknown memory format torch." + s);
}

std::string argText(const graph::Graph& g, const Arg& a) { return graph::formatArg(g, a); }

// A Python number where the schema wants a Tensor becomes a 0-dim "wrapped number", as torch's Python binding
// does, so type promotion treats it as a scalar (f32 tensor + 1 stays f32).
at::Tensor wrappedNumber(const Arg& a)
{
    at::Tensor t = a.kind == Arg::Kind::Float     ? at::scalar_tensor(a.f, at::kDouble)
                   : a.kind == Arg::Kind::Bool    ? at::scalar_tensor(a.b, at::kBool)
                   : a.kind == Arg::Kind::Complex ? at::scalar_tensor(c10::complex<double>(a.f, a.imag), at::kComplexDouble)
                                                  : at::scalar_tensor(a.i, at::kLong);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return t;
}

class Planner {
public:
    Planner(const graph::Graph& g, const c10::Device& device) : m_graph(g), m_device(device) {}

    ArgPlan plan(const Arg& a, const c10::TypePtr& type)
    {
        using K = c10::TypeKind;
        switch (type->kind()) {
        case K::OptionalType:
            if (a.kind == Arg::Kind::None)
                return constantArg(c10::IValue());
            return plan(a, type->castRaw<c10::OptionalType>()->getElementType());
        case K::TensorType:
            // A SymInt node where the schema wants a Tensor (aten.mul.Tensor(x, arg3_1) with arg3_1: Sym(s86)) is
            // a wrapped number, as torch's Python binding makes it; tensors pass as they are.
            if (a.kind == Arg::Kind::Node)
                return valueArg(a.node, ArgPlan::Kind::ValueAsTensor);
            if (a.kind == Arg::Kind::None)  // Python passes None for a Tensor argument as an undefined tensor
                return constantArg(at::Tensor());
            if (a.kind == Arg::Kind::Int || a.kind == Arg::Kind::Float || a.kind == Arg::Kind::Bool ||
                a.kind == Arg::Kind::Complex)
                return constantArg(wrappedNumber(a));
            break;
        case K::IntType:
        case K::SymIntType:
            if (a.kind == Arg::Kind::Int)
                return constantArg(a.i);
            if (a.kind == Arg::Kind::Bool)
                return constantArg(static_cast<std::int64_t>(a.b));
            if (a.kind == Arg::Kind::Node)
                return valueArg(a.node);
            break;
        case K::FloatType:
        case K::SymFloatType:
            if (a.kind == Arg::Kind::Float)
                return constantArg(a.f);
            if (a.kind == Arg::Kind::Int)
                return constantArg(static_cast<double>(a.i));
            if (a.kind == Arg::Kind::Node)
                return valueArg(a.node, ArgPlan::Kind::ValueToDouble);
            break;
        case K::NumberType:
        case K::ComplexType:
            if (a.kind == Arg::Kind::Int)
                return constantArg(a.i);
            if (a.kind == Arg::Kind::Float)
                return constantArg(a.f);
            if (a.kind == Arg::Kind::Bool)
                return constantArg(a.b);
            if (a.kind == Arg::Kind::Complex)  // 1j, (0.5-2j) in dynamo-level graphs
                return constantArg(c10::complex<double>(a.f, a.imag));
            if (a.kind == Arg::Kind::Node)
                return valueArg(a.node);
            break;
        case K::BoolType:
        case K::SymBoolType:
            if (a.kind == Arg::Kind::Bool)
                return constantArg(a.b);
            if (a.kind == Arg::Kind::Int)
                return constantArg(a.i != 0);
            if (a.kind == Arg::Kind::Node)
                return valueArg(a.node);
            break;
        case K::StringType:
            if (a.kind == Arg::Kind::String)
                return constantArg(a.s);
            break;
        case K::DeviceObjType:
            if (a.kind == Arg::Kind::Device)
                return constantArg(mapDevice(a.device, m_device));
            if (a.kind == Arg::Kind::String)
                return constantArg(mapDevice(graph::Device{a.s.substr(0, a.s.find(':')), -1}, m_device));
            break;
        case K::ScalarTypeType:
            if (a.kind == Arg::Kind::DType)
                return constantArg(toScalarType(a.dtype));
            if (a.kind == Arg::Kind::Int && a.i >= 0 && a.i < static_cast<std::int64_t>(c10::ScalarType::NumOptions))
                return constantArg(a.i);
            break;
        case K::LayoutType:
            if (a.kind == Arg::Kind::Layout)
                return constantArg(toLayout(a.s));
            break;
        case K::MemoryFormatType:
            if (a.kind == Arg::Kind::MemoryFormat)
                return constantArg(toMemoryFormat(a.s));
            break;
        case K::GeneratorType:
            if (a.kind == Arg::Kind::None)
                return constantArg(c10::IValue());
            break;
        case K::ListType:
            return planList(a, type->castRaw<c10::ListType>()->getElementType());
        default: break;
        }
        throw PlanError("cannot pass " + argText(m_graph, a) + " as " + type->str());
    }

private:
    ArgPlan planList(const Arg& a, const c10::TypePtr& elem)
    {
        using K = c10::TypeKind;
        std::vector<Arg> items;
        if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple)
            items = a.items;
        else if (a.kind == Arg::Kind::Int || a.kind == Arg::Kind::Float || a.kind == Arg::Kind::Node)
            items = {a};  // a scalar where the schema wants a list of one (int[1] / SymInt[1])
        else
            throw PlanError("cannot pass " + argText(m_graph, a) + " as a list of " + elem->str());
        ArgPlan p;
        bool allConst = true;
        switch (elem->kind()) {
        case K::IntType:
        case K::SymIntType: {
            p.kind = ArgPlan::Kind::IntList;
            std::vector<std::int64_t> ints;
            for (const Arg& i : items) {
                p.items.push_back(plan(i, c10::IntType::get()));
                allConst = allConst && p.items.back().kind == ArgPlan::Kind::Const;
                if (allConst)
                    ints.push_back(p.items.back().constant.toInt());
            }
            if (allConst)
                return constantArg(std::move(ints));
            return p;
        }
        case K::FloatType: {
            std::vector<double> doubles;
            for (const Arg& i : items) {
                ArgPlan e = plan(i, c10::FloatType::get());
                if (e.kind != ArgPlan::Kind::Const)
                    throw PlanError("float lists with graph values are not supported");
                doubles.push_back(e.constant.toDouble());
            }
            return constantArg(std::move(doubles));
        }
        case K::BoolType: {
            c10::List<bool> bools;
            for (const Arg& i : items) {
                if (i.kind != Arg::Kind::Bool)
                    throw PlanError("expected a list of bools");
                bools.push_back(i.b);
            }
            return constantArg(std::move(bools));
        }
        case K::TensorType:
            p.kind = ArgPlan::Kind::TensorList;
            for (const Arg& i : items) {
                if (i.kind != Arg::Kind::Node)
                    throw PlanError("expected tensors in " + argText(m_graph, a));
                p.items.push_back(valueArg(i.node));
            }
            return p;
        case K::OptionalType:
            if (elem->castRaw<c10::OptionalType>()->getElementType()->kind() == K::TensorType) {
                p.kind = ArgPlan::Kind::OptTensorList;
                for (const Arg& i : items) {
                    if (i.kind == Arg::Kind::None)
                        p.items.push_back(constantArg(c10::IValue()));
                    else if (i.kind == Arg::Kind::Node)
                        p.items.push_back(valueArg(i.node));
                    else
                        throw PlanError("expected tensors or None in " + argText(m_graph, a));
                }
                return p;
            }
            break;
        default: break;
        }
        throw PlanError("unsupported list type " + elem->str() + "[]");
    }

    const graph::Graph& m_graph;
    c10::Device m_device;
};

// prims ops are registered from Python, so a C++ process lacks them: rewrite the common ones into aten.
bool lowerPrims(graph::Node& n)
{
    if (n.target.ns != "prims")
        return true;
    const std::string& op = n.target.op;
    if (op == "convert_element_type" && n.args.size() == 2) {
        n.target = graph::Target{graph::Target::Kind::Op, "aten", "_to_copy", "default"};
        n.kwargs = {{"dtype", n.args[1]}};
        n.args.resize(1);
        return true;
    }
    // iota(length, *, start, step, dtype, device, requires_grad) = arange(start, start + length * step, step): inductor's
    // decompositions put it in AOT graphs of every HF model (position ids). Literal lengths only.
    if (op == "iota" && n.args.size() == 1 && n.args[0].kind == graph::Arg::Kind::Int) {
        std::int64_t start = 0, step = 1;
        graph::Node lowered = n;
        lowered.kwargs.clear();
        for (const auto& [key, v] : n.kwargs) {
            if ((key == "start" || key == "step") && v.kind != graph::Arg::Kind::Int)
                return false;
            if (key == "start")
                start = v.i;
            else if (key == "step")
                step = v.i;
            else if (key == "dtype" || key == "device")
                lowered.kwargs.emplace_back(key, v);
        }
        lowered.target = graph::Target{graph::Target::Kind::Op, "aten", "arange", "start_step"};
        lowered.args = {graph::Arg::ofInt(start), graph::Arg::ofInt(start + n.args[0].i * step), graph::Arg::ofInt(step)};
        n = std::move(lowered);
        return true;
    }
    if (op == "device_put" && n.args.size() == 2) {
        n.target = graph::Target{graph::Target::Kind::Op, "aten", "_to_copy", "default"};
        n.kwargs = {{"device", n.args[1]}};
        n.args.resize(1);
        return true;
    }
    return false;
}

// prims.iota(length, *, start, step, dtype, device, requires_grad) with a SymInt length (inductor's dynamic-shape
// graphs: position ids of a sequence of length s0) = arange(start, start + length * step, step), run natively. A
// literal length is lowered to aten.arange by lowerPrims.
std::optional<NodePlan> planIota(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    if (n.target.ns != "prims" || n.target.op != "iota" || n.args.size() != 1 || n.args[0].kind != Arg::Kind::Node)
        return std::nullopt;
    std::int64_t start = 0, step = 1;
    at::TensorOptions options = at::TensorOptions().dtype(at::kLong).device(device);
    for (const auto& [key, v] : n.kwargs) {
        if ((key == "start" || key == "step") && v.kind != Arg::Kind::Int)
            throw PlanError("prims.iota's " + key + " must be a literal int, got " + argText(g, v));
        if (key == "start")
            start = v.i;
        else if (key == "step")
            step = v.i;
        else if (key == "dtype" && v.kind == Arg::Kind::DType)
            options = options.dtype(toScalarType(v.dtype));
        else if (key == "device" && v.kind == Arg::Kind::Device)
            options = options.device(mapDevice(v.device, device));
    }
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = n.target.str();
    p.args = {valueArg(n.args[0].node)};
    p.schema = "prims.iota(length, start=" + std::to_string(start) + ", step=" + std::to_string(step) +
               ") = torch.arange(start, start + length * step, step) (its eager definition)";
    p.native = [start, step, options](const std::vector<c10::IValue>& v) -> c10::IValue {
        const std::int64_t length = v[0].toInt();
        return at::arange(start, start + length * step, step, options);
    };
    return p;
}

// A packet call (torch.ops.transformers.grouped_mm_fallback(...) in Dynamo's graphs: custom ops are called so)
// resolves as Python's OpOverloadPacket does when there is nothing to choose: the one overload registered.
std::optional<std::string> soleOverload(const std::string& qualifiedName)
{
    std::optional<std::string> found;
    for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
        if (name.name != qualifiedName)
            continue;
        if (found)
            return std::nullopt;
        found = name.overload_name;
    }
    return found;
}

// Inductor's reinplacing pass (torch/_inductor/fx_passes/reinplace.py) turns a functional foreach op into its
// in-place twin by changing the node's target only: `_foreach_add = aten._foreach_add_.Scalar(xs, 1)` keeps its
// `_foreach_add[k]` users, though the in-place schema returns nothing (inductor's lowering returns the mutated list).
// A compiled optimizer step's post-grad graph is full of them. The replay runs the op and hands on what it mutated.
bool isInplaceForeach(const c10::FunctionSchema& schema)
{
    const std::string& name = schema.name();
    return name.rfind("aten::_foreach_", 0) == 0 && name.back() == '_' && schema.returns().empty() &&
           !schema.arguments().empty() && schema.arguments()[0].type()->kind() == c10::TypeKind::ListType;
}

NodePlan returningMutatedList(NodePlan op)
{
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = op.name;
    p.args = std::move(op.args);
    p.schema = c10::toString(op.op->schema()) + ", returning its mutated self (inductor's reinplaced foreach)";
    p.native = [handle = *op.op](const std::vector<c10::IValue>& operands) {
        std::vector<c10::IValue> stack = operands;
        handle.callBoxed(stack);
        return operands[0];
    };
    return p;
}

NodePlan planOp(const graph::Graph& g, const graph::Node& original, const c10::Device& device)
{
    graph::Node n = original;
    NodePlan p;
    p.name = n.target.str();
    if (!lowerPrims(n)) {
        try {
            if (auto iota = planIota(g, n, device))
                return std::move(*iota);
        } catch (const PlanError& e) {
            p.why = e.what();
            return p;
        }
        try {
            return planInductorPrim(g, n);
        } catch (const std::invalid_argument& e) {
            p.why = e.what();
            return p;
        }
    }
    if (n.target.ns == "higher_order") {
        p.why = "higher-order op " + n.target.str() + " needs its subgraph interpreted (not supported yet)";
        return p;
    }
    std::string overload = n.target.overload == "default" ? "" : n.target.overload;
    if (n.target.overload.empty() && n.target.ns != "_c10d_functional") {  // a collective packet has one overload
        const std::optional<std::string> only = soleOverload(n.target.qualifiedName());
        if (!only) {
            p.why = "operator packet " + n.target.str() + " names no overload, and the dispatcher knows " +
                    (n.target.ns == "aten" ? "several" : "none or several");
            return p;
        }
        overload = *only;
    }
    auto handle = c10::Dispatcher::singleton().findSchema({n.target.qualifiedName(), overload});
    if (!handle) {
        const std::string op = n.target.qualifiedName() + (overload.empty() ? "" : "." + overload);
        // Namespaces other than LibTorch's own are custom ops a Python library registered with torch.library
        // (transformers::grouped_mm_fallback_backward): their kernels exist only in that Python process.
        static const std::set<std::string, std::less<>> kLibTorch = {"aten", "prims", "_c10d_functional", "c10d", "quantized",
                                                                     "_quantized", "profiler", "_test", "inductor"};
        p.why = kLibTorch.contains(n.target.ns)
                    ? "operator " + op + " is not registered with LibTorch's dispatcher"
                    : "custom op " + op + " was registered from Python (torch.library) by the capturing process: needs Python";
        return p;
    }
    const c10::FunctionSchema& schema = handle->schema();
    try {
        Planner planner(g, device);
        const auto& formals = schema.arguments();
        std::size_t positional = 0;
        for (const auto& f : formals)
            positional += !f.kwarg_only();
        if (n.args.size() > positional)
            throw PlanError(std::to_string(n.args.size()) + " positional arguments, schema takes " + std::to_string(positional));
        for (const auto& [key, v] : n.kwargs) {
            bool known = false;
            for (const auto& f : formals)
                known = known || f.name() == key;
            if (!known)
                throw PlanError("no argument named '" + key + "' in " + schema.name() + "." + schema.overload_name());
        }
        for (std::size_t i = 0; i < formals.size(); ++i) {
            const c10::Argument& f = formals[i];
            const graph::Arg* given = nullptr;
            if (!f.kwarg_only() && i < n.args.size())
                given = &n.args[i];
            for (const auto& [key, v] : n.kwargs)
                if (key == f.name())
                    given = &v;
            if (given)
                p.args.push_back(planner.plan(*given, f.real_type()));
            else if (f.default_value())
                p.args.push_back(constantArg(*f.default_value()));
            else if (f.real_type()->kind() == c10::TypeKind::OptionalType)
                p.args.push_back(constantArg(c10::IValue()));
            else
                throw PlanError("missing argument '" + f.name() + "'");
        }
    } catch (const PlanError& e) {
        p.args.clear();
        p.why = e.what();
        return p;
    }
    const c10::DispatchKey key = device.is_cuda() ? c10::DispatchKey::CUDA : c10::DispatchKey::CPU;
    // The computed table of a runtime key includes composite kernels (the plain kernel lookup would miss them).
    if (!handle->hasComputedKernelForDispatchKey(key)) {
        if (!device.is_cuda()) {  // CUDA-only kernels a graph recorded on a GPU holds, run on the CPU
            if (auto fallback = planCpuAttentionFallback(*handle, p.args))
                return std::move(*fallback);
            if (auto fallback = planCpuRnnCellFallback(*handle, p.args))
                return std::move(*fallback);
        }
        p.args.clear();
        p.why = "no " + std::string(c10::toString(key)) + " kernel for " + n.target.str();
        return p;
    }
    if (!device.is_cuda())
        if (auto widened = planCpuDtypeGap(*handle, p.args))
            return std::move(*widened);
    p.kind = NodePlan::Kind::Op;
    p.op = handle;
    return isInplaceForeach(schema) ? returningMutatedList(std::move(p)) : p;
}

}  // namespace

NodePlan planOpNode(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    return planOp(g, n, device);
}

}  // namespace fxray::replay::detail
