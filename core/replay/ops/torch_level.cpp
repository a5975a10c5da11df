#include "replay/ops/torch_level.h"

#include "graph/compiled_autograd.h"
#include "graph/dtensor_global.h"
#include "replay/ops/inductor_lowerings.h"
#include "replay/ops/torch_level_attention.h"
#include "replay/ops/torch_level_autocast.h"
#include "replay/ops/torch_level_functional.h"
#include "replay/ops/torch_level_natives.h"
#include "replay/plan/plan_builders.h"
#include "replay/ops/torch_level_tensor_data.h"
#include "replay/ops/vmap_ops.h"
#include "replay/plan/op_plan.h"
#include "replay/values/torch_types.h"

#include <ATen/core/jit_type.h>

#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;
using graph::Node;

NodePlan unsupported(std::string why)
{
    NodePlan p;
    p.why = std::move(why);
    return p;
}

ValueKind kindOfMeta(const graph::ValueMeta& m)
{
    switch (m.kind) {
    case graph::ValueMeta::Kind::Tensor: return ValueKind::Tensor;
    case graph::ValueMeta::Kind::SymInt:
    case graph::ValueMeta::Kind::Int: return ValueKind::Int;
    case graph::ValueMeta::Kind::SymFloat:
    case graph::ValueMeta::Kind::Float: return ValueKind::Float;
    case graph::ValueMeta::Kind::SymBool: return ValueKind::Bool;
    case graph::ValueMeta::Kind::None: break;
    }
    return ValueKind::Unknown;
}

ValueKind kindOfType(const c10::TypePtr& t)
{
    using K = c10::TypeKind;
    switch (t->kind()) {
    case K::TensorType: return ValueKind::Tensor;
    case K::IntType:
    case K::SymIntType: return ValueKind::Int;
    case K::FloatType:
    case K::SymFloatType: return ValueKind::Float;
    case K::BoolType:
    case K::SymBoolType: return ValueKind::Bool;
    case K::NumberType: return ValueKind::Unknown;
    case K::ListType: {
        const ValueKind elem = kindOfType(t->castRaw<c10::ListType>()->getElementType());
        return elem == ValueKind::Tensor ? ValueKind::TensorList : elem == ValueKind::Int ? ValueKind::IntList : ValueKind::Other;
    }
    default: return ValueKind::Other;
    }
}

// A schema's result: one return by its type; several tensors as a tensor list (getitem picks a tensor).
ValueKind kindOfReturns(const c10::FunctionSchema& s)
{
    const auto& returns = s.returns();
    if (returns.size() == 1)
        return kindOfType(returns[0].real_type());
    bool allTensors = !returns.empty();
    for (const auto& r : returns)
        allTensors = allTensors && kindOfType(r.real_type()) == ValueKind::Tensor;
    return allTensors ? ValueKind::TensorList : ValueKind::Other;
}

struct NameTwin {
    std::string_view python;
    std::string_view aten;
};

// Python operators on tensors and their aten twins (Tensor.__add__ is aten::add; `a += b` is aten::add_).
constexpr NameTwin kOperatorTwins[] = {
    {"add", "add"}, {"sub", "sub"}, {"mul", "mul"}, {"truediv", "div"}, {"floordiv", "floor_divide"},
    {"mod", "remainder"}, {"pow", "pow"}, {"matmul", "matmul"}, {"neg", "neg"}, {"pos", "positive"},
    {"abs", "abs"}, {"invert", "bitwise_not"}, {"and_", "bitwise_and"}, {"or_", "bitwise_or"},
    {"xor", "bitwise_xor"}, {"lshift", "bitwise_left_shift"}, {"rshift", "bitwise_right_shift"},
    {"eq", "eq"}, {"ne", "ne"}, {"lt", "lt"}, {"le", "le"}, {"gt", "gt"}, {"ge", "ge"},
    {"iadd", "add_"}, {"isub", "sub_"}, {"imul", "mul_"}, {"itruediv", "div_"}, {"ifloordiv", "floor_divide_"},
    {"imod", "remainder_"}, {"ipow", "pow_"}, {"iand", "bitwise_and_"}, {"ior", "bitwise_or_"},
    {"ixor", "bitwise_xor_"}, {"ilshift", "bitwise_left_shift_"}, {"irshift", "bitwise_right_shift_"},
};

// Namespaces of torch's Python API whose functions are aten operators of the same (or a prefixed) name.
constexpr NameTwin kModulePrefixes[] = {
    {"torch._C._nn.", ""}, {"torch._C._VariableFunctions.", ""}, {"torch._C._linalg.", ""},
    {"torch._C._special.", ""}, {"torch._C._fft.", ""}, {"torch.functional.", ""}, {"torch.linalg.", "linalg_"},
    {"torch.special.", "special_"}, {"torch.fft.", "fft_"}, {"torch.", ""},
};

// Tensor conversion methods: x.float() is x.to(torch.float32).
constexpr std::pair<std::string_view, graph::DType> kDtypeMethods[] = {
    {"float", graph::DType::Float32}, {"double", graph::DType::Float64}, {"half", graph::DType::Float16},
    {"bfloat16", graph::DType::BFloat16}, {"long", graph::DType::Int64}, {"int", graph::DType::Int32},
    {"short", graph::DType::Int16}, {"char", graph::DType::Int8}, {"byte", graph::DType::UInt8},
    {"bool", graph::DType::Bool},
};

Arg dtypeArg(graph::DType t)
{
    Arg a;
    a.kind = Arg::Kind::DType;
    a.dtype = t;
    return a;
}

Arg deviceArg(std::string type)
{
    Arg a;
    a.kind = Arg::Kind::Device;
    a.device = graph::Device{std::move(type), -1};
    return a;
}

const Arg* keyword(const Node& n, std::string_view key)
{
    for (const auto& [k, v] : n.kwargs)
        if (k == key)
            return &v;
    return nullptr;
}

// torch.norm / Tensor.norm(p='fro', dim=None, keepdim=False, dtype=None): Python computes vector norms (which
// 'fro' is over one or two dims) with linalg_vector_norm; aten::norm's own overloads insist on p.
TorchCall normCall(const Node& n)
{
    static constexpr std::string_view kParams[] = {"self", "p", "dim", "keepdim", "dtype"};
    TorchCall call{"linalg_vector_norm", {}, {}};
    auto put = [&](std::string_view python, const Arg& v) {
        if (python == "p") {
            if (v.kind == Arg::Kind::String && v.s != "fro")
                throw std::invalid_argument("norm(p='" + v.s + "') is not a vector norm fxray resolves");
            call.kwargs.emplace_back("ord", v.kind == Arg::Kind::String || v.kind == Arg::Kind::None ? Arg::ofFloat(2.0) : v);
        } else {
            call.kwargs.emplace_back(python == "self" || python == "input" ? "self" : std::string(python), v);
        }
    };
    for (std::size_t k = 0; k < n.args.size(); ++k) {
        if (k >= std::size(kParams))
            throw std::invalid_argument("norm() with too many arguments");
        put(kParams[k], n.args[k]);
    }
    for (const auto& [k, v] : n.kwargs)
        put(k, v);
    return call;
}

// torch.nn.functional.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor,
// antialias) as the aten upsample op Python picks by mode and rank (from the input's recorded sizes), in its .vec
// form that takes either an output size or scale factors.
TorchCall interpolateCall(const graph::Graph& g, const Node& n)
{
    static constexpr std::string_view kParams[] = {"input", "size", "scale_factor", "mode", "align_corners",
                                                   "recompute_scale_factor", "antialias"};
    std::map<std::string, Arg, std::less<>> v;
    for (std::size_t k = 0; k < n.args.size() && k < std::size(kParams); ++k)
        v[std::string(kParams[k])] = n.args[k];
    for (const auto& [k, a] : n.kwargs)
        v[k] = a;
    const Arg input = v["input"];
    const graph::Node* producer = input.kind == Arg::Kind::Node ? &g.nodes[static_cast<std::size_t>(input.node)] : nullptr;
    if (!producer || !producer->meta || !producer->meta->isTensor())
        throw std::invalid_argument("interpolate of an input without recorded sizes (its rank picks the op)");
    const std::size_t dims = producer->meta->tensor.sizes.size() - 2;
    const std::string mode = v.contains("mode") && v["mode"].kind == Arg::Kind::String ? v["mode"].s : "nearest";
    const bool antialias = v.contains("antialias") && v["antialias"].kind == Arg::Kind::Bool && v["antialias"].b;
    const Arg recompute = v.contains("recompute_scale_factor") ? v["recompute_scale_factor"] : Arg::none();
    if (dims < 1 || dims > 3 || (recompute.kind == Arg::Kind::Bool && recompute.b))
        throw std::invalid_argument("interpolate of a " + std::to_string(dims + 2) + "-d input or with recompute_scale_factor");
    static const std::map<std::string, std::vector<std::string>, std::less<>> kOps = {
        {"nearest", {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d"}},
        {"nearest-exact", {"_upsample_nearest_exact1d", "_upsample_nearest_exact2d", "_upsample_nearest_exact3d"}},
        {"linear", {"upsample_linear1d", "", ""}},
        {"bilinear", {"", antialias ? "_upsample_bilinear2d_aa" : "upsample_bilinear2d", ""}},
        {"bicubic", {"", antialias ? "_upsample_bicubic2d_aa" : "upsample_bicubic2d", ""}},
        {"trilinear", {"", "", "upsample_trilinear3d"}},
    };
    auto op = kOps.find(mode);
    if (op == kOps.end() || op->second[dims - 1].empty())
        throw std::invalid_argument("interpolate(mode='" + mode + "') of a " + std::to_string(dims + 2) + "-d input");
    // A single size or factor applies to every spatial dim.
    auto perDim = [&](const Arg& a) {
        return a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple || a.kind == Arg::Kind::None ? a
                                                                                                     : Arg::ofList(std::vector<Arg>(dims, a));
    };
    TorchCall call{op->second[dims - 1], {}, {{"input", input}}};
    call.kwargs.emplace_back("output_size", perDim(v.contains("size") ? v["size"] : Arg::none()));
    call.kwargs.emplace_back("scale_factors", perDim(v.contains("scale_factor") ? v["scale_factor"] : Arg::none()));
    if (mode != "nearest" && mode != "nearest-exact") {
        const Arg align = v.contains("align_corners") ? v["align_corners"] : Arg::none();
        call.kwargs.emplace_back("align_corners", align.kind == Arg::Kind::None ? Arg::ofBool(false) : align);
    }
    return call;
}

}  // namespace

std::optional<NodePlan> TorchLevelPlanner::plan(std::size_t i, const std::vector<NodePlan>& earlier)
{
    learnKinds(earlier);
    m_current = i;
    const Node& n = m_graph.nodes[i];
    std::optional<NodePlan> out;
    try {
        out = claim(n);
    } catch (const std::exception& e) {  // std::invalid_argument: a construct fxray does not run; c10::Error too
        out = unsupported(errorText(e));
    }
    if (out)
        finish(n, *out);
    return out;
}

std::optional<NodePlan> TorchLevelPlanner::claim(const Node& n)
{
    if (n.kind == graph::NodeKind::CallMethod)
        return planMethod(n);
    if (n.kind != graph::NodeKind::CallFunction)
        return std::nullopt;
    switch (n.target.kind) {
    case graph::Target::Kind::Python:
        // torch.sym_* are SymInt arithmetic; compiled-autograd helpers have their own plans.
        if (n.target.op.starts_with("torch.sym_") || graph::compiledAutogradCall(n) != graph::CompiledAutogradCall::None)
            return std::nullopt;
        return planPythonCall(n);
    case graph::Target::Kind::Operator:
        if (n.target.op == "setitem" && n.args.size() == 3)
            return planSetItem(m_graph, n.args[0], n.args[1], n.args[2], m_device);
        if (involvesTensor(n))
            return planOperator(n);
        return std::nullopt;  // SymInt arithmetic
    case graph::Target::Kind::Getitem: {
        // x[i] on a tensor is Python indexing; on a tuple or list of results it is picking one (planned
        // elsewhere), unless the index is a slice or more.
        const bool tensorBase = n.args.size() == 2 && n.args[0].kind == Arg::Kind::Node &&
                                kindOf(n.args[0].node) == ValueKind::Tensor;
        if (n.args.size() == 2 && (tensorBase || n.args[1].kind != Arg::Kind::Int))
            return planIndexing(m_graph, n.args[0], n.args[1], m_device);
        return std::nullopt;
    }
    case graph::Target::Kind::Op:
        // An aten packet call, no overload named (inductor's DDP bucketing writes torch.ops.aten.cat(...) and
        // .split(...) into post-grad graphs): resolved by its operands, as Python's OpOverloadPacket does.
        if (n.target.ns == "aten" && n.target.overload.empty())
            return resolve(n, TorchCall{n.target.op, n.args, n.kwargs});
        return std::nullopt;
    default: return std::nullopt;
    }
}

// Runs the plan under the autocast region open at n, and records what it produces for the nodes after it.
void TorchLevelPlanner::finish(const Node& n, NodePlan& p)
{
    const std::size_t i = m_current;
    // An aten op (a resolved packet) is graph-level code: autocast regions are dynamo-level constructs.
    const bool regionEdge = n.target.op.starts_with("torch.amp.autocast_mode.") || n.target.kind == graph::Target::Kind::Op;
    const AutocastRegion* region = !m_autocast.empty() ? &m_autocast.back() : m_ambient ? &*m_ambient : nullptr;
    if (m_rng)
        if (auto aligned = alignedRandomPlan(p, *m_rng))
            p = std::move(*aligned);
    if (m_sdpaBackends && n.target.op.find("scaled_dot_product_attention") != std::string::npos &&
        (p.kind == NodePlan::Kind::Op || p.kind == NodePlan::Kind::Native)) {
        if (p.op)
            m_native[i] = kindOfReturns(p.op->schema());
        p = underSdpaBackends(std::move(p), *m_sdpaBackends, m_device);
    }
    if (region && !regionEdge && (p.kind == NodePlan::Kind::Op || p.kind == NodePlan::Kind::Native)) {
        if (p.op)
            m_native[i] = kindOfReturns(p.op->schema());
        p = underAutocast(std::move(p), *region);
    }
    if (p.kind == NodePlan::Kind::Native && !m_native.contains(i)) {
        // Indexing keeps the base's kind (a tensor, or a slice of a list); the other native steps make tensors.
        const bool indexing = n.target.kind == graph::Target::Kind::Getitem && n.args[0].kind == Arg::Kind::Node;
        m_native[i] = indexing ? kindOf(n.args[0].node) : ValueKind::Tensor;
    }
    if (p.name.empty())
        p.name = n.target.str();
}

void TorchLevelPlanner::learnKinds(const std::vector<NodePlan>& earlier)
{
    for (std::size_t k = m_kinds.size(); k < earlier.size(); ++k) {
        const Node& n = m_graph.nodes[k];
        const NodePlan& p = earlier[k];
        ValueKind v = ValueKind::Unknown;
        if (n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
            v = kindOfMeta(*n.meta);
        else if (p.kind == NodePlan::Kind::Op && p.op)
            v = kindOfReturns(p.op->schema());
        else if (m_native.contains(k))
            v = m_native.at(k);
        else if (p.kind == NodePlan::Kind::Getitem && n.args[0].kind == Arg::Kind::Node) {
            const ValueKind base = m_kinds[static_cast<std::size_t>(n.args[0].node)];
            v = base == ValueKind::TensorList ? ValueKind::Tensor : base == ValueKind::IntList ? ValueKind::Int : v;
        }
        m_kinds.push_back(v);
    }
}

ValueKind TorchLevelPlanner::kindOf(int node) const
{
    const auto k = static_cast<std::size_t>(node);
    return k < m_kinds.size() ? m_kinds[k] : ValueKind::Unknown;
}

bool TorchLevelPlanner::involvesTensor(const Node& n) const
{
    bool tensor = n.meta && n.meta->isTensor();
    for (const Arg& a : n.args)
        tensor = tensor || (a.kind == Arg::Kind::Node && kindOf(a.node) == ValueKind::Tensor);
    return tensor;
}

// Resolves the call to an aten overload and plans it as that op; the report shows the overload's schema.
NodePlan TorchLevelPlanner::resolve(const Node& n, const TorchCall& call)
{
    std::string why;
    std::optional<OverloadChoice> choice = chooseOverload(call, [this](int node) { return kindOf(node); }, why);
    if (!choice)
        return unsupported(n.target.str() + ": " + why);
    Node op = n;
    op.kind = graph::NodeKind::CallFunction;
    const std::string& overload = choice->op.operator_name().overload_name;
    op.target = graph::Target{graph::Target::Kind::Op, "aten", call.name, overload.empty() ? "default" : overload};
    op.args.clear();
    op.kwargs = choice->bound;
    NodePlan p = planOpNode(m_graph, op, m_device);
    if (p.kind != NodePlan::Kind::Op) {
        p.why = n.target.str() + " as " + op.target.str() + ": " + p.why;
        return p;
    }
    const auto& formals = p.op->schema().arguments();
    for (std::size_t k = 0; k < formals.size() && k < p.args.size(); ++k)
        for (const std::string& name : choice->wrappedNodes)
            if (formals[k].name() == name && p.args[k].kind == ArgPlan::Kind::Value)
                p.args[k].kind = ArgPlan::Kind::ValueAsTensor;
    return p;
}

NodePlan TorchLevelPlanner::planMethod(const Node& n)
{
    const std::string& m = n.target.op;
    if (n.args.empty())
        return unsupported("method ." + m + "() without self");
    if (m == "size" || m == "stride") {
        const Arg* dim = n.args.size() > 1 ? &n.args[1] : keyword(n, "dim");
        m_native[m_current] = dim ? ValueKind::Int : ValueKind::IntList;
        return planTensorQuery(m_graph, m, n.args[0], dim);
    }
    if (m == "dim" || m == "ndimension" || m == "numel" || m == "nelement") {
        m_native[m_current] = ValueKind::Int;
        return planTensorQuery(m_graph, m == "dim" || m == "ndimension" ? "dim" : "numel", n.args[0], nullptr);
    }
    if (m == "to" || m == "cuda" || m == "cpu" || m == "type")
        return planConversion(n, m);
    for (const auto& [method, dtype] : kDtypeMethods)
        if (m == method)
            return planConversion(n, m);
    if (m == "norm")
        return resolve(n, normCall(n));
    if (m == "new_tensor" && n.args.size() == 2)
        return planTensorData(m_graph, TensorDataCall::NewTensor, n.args[1], keyword(n, "dtype"), keyword(n, "device"), &n.args[0], m_device);
    if (m == "requires_grad_")  // autograd bookkeeping: the replay runs without autograd
        return planIdentity(m_graph, n.args[0], "Tensor.requires_grad_ (no autograd in a replay: returns self)");
    if (m == "__getitem__" && n.args.size() == 2)
        return planIndexing(m_graph, n.args[0], n.args[1], m_device);
    if (m.size() > 4 && m.starts_with("__") && m.ends_with("__"))
        return planDunder(n, m.substr(2, m.size() - 4));
    return resolve(n, TorchCall{m, n.args, n.kwargs});
}

// x.to(...), x.cuda(), x.cpu(), x.float(), x.type(dtype): aten::to with the device and dtype as keywords where
// Python passed them positionally (to.dtype_layout takes both; to.device insists on a dtype).
NodePlan TorchLevelPlanner::planConversion(const Node& n, const std::string& method)
{
    TorchCall call{"to", {n.args[0]}, n.kwargs};
    for (const auto& [name, dtype] : kDtypeMethods)
        if (method == name) {
            if (n.args.size() > 1)
                throw std::invalid_argument("Tensor." + method + "() takes no positional arguments");
            call.kwargs.emplace_back("dtype", dtypeArg(dtype));
            return resolve(n, call);
        }
    if (method == "cuda" || method == "cpu") {
        call.kwargs.clear();
        for (const auto& [k, v] : n.kwargs)
            if (k != "device")
                call.kwargs.emplace_back(k, v);
        call.kwargs.emplace_back("device", deviceArg(method));
        return resolve(n, call);
    }
    if (method == "type") {
        if (n.args.size() != 2 || n.args[1].kind != Arg::Kind::DType)
            throw std::invalid_argument("Tensor.type() is supported with a dtype only");
        call.kwargs.emplace_back("dtype", n.args[1]);
        return resolve(n, call);
    }
    const bool deviceFirst = n.args.size() > 1 && (n.args[1].kind == Arg::Kind::Device || n.args[1].kind == Arg::Kind::String);
    if (!deviceFirst)
        return resolve(n, TorchCall{"to", n.args, n.kwargs});
    static const char* const kAfterDevice[] = {"dtype", "non_blocking", "copy"};
    call.kwargs.emplace_back("device", n.args[1]);
    for (std::size_t k = 2; k < n.args.size(); ++k) {
        if (k - 2 >= std::size(kAfterDevice))
            throw std::invalid_argument("Tensor.to() with too many positional arguments");
        call.kwargs.emplace_back(kAfterDevice[k - 2], n.args[k]);
    }
    return resolve(n, call);
}

// x.__eq__(y), x.__add__(y), x.__rsub__(y) (y - x): the Python operators, reflected ones with their operands
// swapped.
NodePlan TorchLevelPlanner::planDunder(const Node& n, const std::string& name)
{
    for (const std::string& op : {name, name + "_"}) {  // __and__ is operator.and_
        for (const NameTwin& twin : kOperatorTwins)
            if (op == twin.python)
                return resolve(n, TorchCall{std::string(twin.aten), n.args, n.kwargs});
        if (op.size() > 1 && op[0] == 'r' && n.args.size() == 2)
            for (const NameTwin& twin : kOperatorTwins)
                if (op.substr(1) == twin.python)
                    return resolve(n, TorchCall{std::string(twin.aten), {n.args[1], n.args[0]}, n.kwargs});
    }
    return resolve(n, TorchCall{"__" + name + "__", n.args, n.kwargs});  // aten has a few: __and__, __lshift__
}

NodePlan TorchLevelPlanner::planOperator(const Node& n)
{
    for (const NameTwin& twin : kOperatorTwins)
        if (n.target.op == twin.python)
            return resolve(n, TorchCall{std::string(twin.aten), n.args, {}});
    return unsupported("python operator." + n.target.op + " on tensors has no aten twin");
}

NodePlan TorchLevelPlanner::planGetattr(const Node& n)
{
    if (n.args.size() != 2 || n.args[1].kind != Arg::Kind::String)
        return unsupported("getattr with a computed attribute name needs Python");
    const std::string& attr = n.args[1].s;
    if (attr == "shape" || attr == "ndim") {
        m_native[m_current] = attr == "shape" ? ValueKind::IntList : ValueKind::Int;
        return planTensorQuery(m_graph, attr == "shape" ? "size" : "dim", n.args[0], nullptr);
    }
    if (attr == "data")
        return planIdentity(m_graph, n.args[0], "Tensor.data (the same values, without autograd)");
    if (attr == "itemsize") {  // FSDP2 sizes a parameter's storage by numel * itemsize
        m_native[m_current] = ValueKind::Int;
        return nativePlan({operandArg(m_graph, n.args[0], m_device)}, "Tensor.itemsize: bytes per element",
                          [](const std::vector<c10::IValue>& v) -> c10::IValue {
                              return static_cast<std::int64_t>(v[0].toTensor().element_size());
                          });
    }
    static const NameTwin kAttributeOps[] = {{"T", "numpy_T"}, {"mT", "mT"}, {"mH", "mH"}, {"H", "numpy_H"},
                                             {"real", "real"}, {"imag", "imag"}};
    for (const NameTwin& twin : kAttributeOps)
        if (attr == twin.python)
            return resolve(n, TorchCall{std::string(twin.aten), {n.args[0]}, {}});
    return unsupported("getattr(x, '" + attr + "') gives a Python object fxray does not model");
}

NodePlan TorchLevelPlanner::planFunctional(const Node& n, const std::string& name)
{
    if (name == "normalize") {
        TorchCall c{"", n.args, n.kwargs};
        auto number = [&](std::size_t pos, const char* key, double fallback) {
            const Arg* a = n.args.size() > pos ? &n.args[pos] : keyword(n, key);
            if (!a)
                return fallback;
            if (a->kind != Arg::Kind::Int && a->kind != Arg::Kind::Float)
                throw std::invalid_argument(std::string("torch.nn.functional.normalize: ") + key + " must be a number literal");
            return a->kind == Arg::Kind::Int ? static_cast<double>(a->i) : a->f;
        };
        const Arg* out = keyword(n, "out");
        if (n.args.empty() || (out && out->kind != Arg::Kind::None))
            throw std::invalid_argument("torch.nn.functional.normalize needs an input and no out=");
        return planNormalize(m_graph, n.args[0], number(1, "p", 2.0), static_cast<std::int64_t>(number(2, "dim", 1.0)),
                             number(3, "eps", 1e-12));
    }
    if (name == "interpolate")
        return resolve(n, interpolateCall(m_graph, n));
    if (name == "multi_head_attention_forward") {
        m_native[m_current] = ValueKind::TensorList;  // (attn_output, attn_weights or None)
        return planMultiHeadAttention(m_graph, n, m_device);
    }
    FunctionalRewrite r = rewriteFunctional(name, n.args, n.kwargs);
    switch (r.kind) {
    case FunctionalRewrite::Kind::Identity:
        return planIdentity(m_graph, r.input, "torch.nn.functional." + name + " outside training: returns its input");
    case FunctionalRewrite::Kind::Call: return resolve(n, r.call);
    case FunctionalRewrite::Kind::NotListed: break;
    }
    if (!hasAtenOp(name))
        return unsupported("torch.nn.functional." + name + "() is Python code with no aten twin (needs Python)");
    return resolve(n, TorchCall{name, n.args, n.kwargs});
}

NodePlan TorchLevelPlanner::planPythonCall(const Node& n)
{
    const std::string& f = n.target.op;
    if (f == "getattr" || f == "builtins.getattr")
        return planGetattr(n);
    if (f == "torch._C._set_grad_enabled" || f == "torch._C._log_api_usage_once")
        return planNoOp(f + " (Python-side state; the replay runs without autograd)");
    if (isBackendFromString(n))
        return planNoOp(f + ": names an SDPA backend for the _sdpa_kernel call that reads it");
    if (isSdpaKernelCall(n)) {
        m_sdpaBackends = sdpaBackendsOf(m_graph, n);
        return planNoOp(m_sdpaBackends ? "sdpa_kernel region opens: the SDPA calls until the next _sdpa_kernel run with its backends"
                                       : "sdpa_kernel region closes: every SDPA backend allowed again");
    }
    if (f == "torch.amp.autocast_mode._enter_autocast") {
        const AutocastRegion* outer = !m_autocast.empty() ? &m_autocast.back() : m_ambient ? &*m_ambient : nullptr;
        m_autocast.push_back(autocastRegionOf(n, m_device, outer));
        return planNoOp("autocast region opens: the ops until _exit_autocast run under it");
    }
    if (f == "torch.amp.autocast_mode._exit_autocast") {
        if (m_autocast.empty())
            return unsupported("_exit_autocast without an open autocast region");
        m_autocast.pop_back();
        return planNoOp("autocast region closes");
    }
    if (f.starts_with("torch.nn.functional."))
        return planFunctional(n, f.substr(std::string_view("torch.nn.functional.").size()));
    if ((f == "torch.tensor" || f == "torch.as_tensor") && !n.args.empty())
        return planTensorData(m_graph, f == "torch.tensor" ? TensorDataCall::Tensor : TensorDataCall::AsTensor, n.args[0],
                              keyword(n, "dtype"), keyword(n, "device"), nullptr, m_device);
    if (f.starts_with("torch.Tensor.")) {  // an unbound method: self is the first argument
        Node method = n;
        method.target.op = f.substr(std::string_view("torch.Tensor.").size());
        return planMethod(method);
    }
    if (auto vmap = planVmapCall(m_graph, n)) {
        if (f.ends_with("_vmap_increment_nesting") || f.ends_with("_vmap_decrement_nesting"))
            m_native[m_current] = ValueKind::Int;  // the level
        return std::move(*vmap);
    }
    for (const NameTwin& prefix : kModulePrefixes) {
        if (!f.starts_with(prefix.python))
            continue;
        const std::string rest = f.substr(prefix.python.size());
        if (rest.find('.') != std::string::npos)
            break;
        const std::string name = std::string(prefix.aten) + rest;
        if (!hasAtenOp(name))
            return unsupported(f + "() has no aten twin (needs Python)");
        TorchCall call = name == "norm" ? normCall(n) : TorchCall{name, n.args, n.kwargs};
        for (auto& [k, v] : call.kwargs)  // torch.functional's Python names for aten's self / split_size
            k = k == "tensor" ? "self" : k == "split_size_or_sections" ? "split_size" : k;
        return resolve(n, call);
    }
    if (const std::string prim = graph::dtensorPrimName(n); !prim.empty()) {
        // The unsharded computation (a distributed replay's single-rank reference) holds every DTensor as its
        // global tensor: making one from a local tensor, moving it between placements and taking its local part
        // all leave the global value as it is.
        if (m_dtensorGlobal && !n.args.empty())
            return planIdentity(m_graph, n.args[0], "DTensor " + prim + " in the unsharded run: the global tensor as is");
        return unsupported("DTensor's " + prim + "() is a Python prim (needs Python); a distributed replay of the rank "
                           "folder runs this graph as the single-rank reference");
    }
    // Dynamo's BackwardState helpers (traceable FSDP2, tensor.register_hook under compiled autograd). The forward
    // registers a hook held in the BackwardState on a tensor: it changes nothing the forward computes (the replay
    // runs without autograd), and the hook's call is the backward graph's trace_wrapped node, which is Python.
    if (f.ends_with("_register_hook_trampoline"))
        return planNoOp(f + " registers a backward hook held in the BackwardState: no effect on the forward's values "
                            "(the replay runs without autograd; the backward graph's trace_wrapped node calls the hook)");
    if (f.find("_trace_wrapped_higher_order_op") != std::string::npos) {
        std::string state;
        for (const auto& [k, a] : n.kwargs)
            if (k == "bw_state" && a.kind == graph::Arg::Kind::Node)
                state = " (bw_state=" + m_graph.nodes[static_cast<std::size_t>(a.node)].name + ")";
        return unsupported("trace_wrapped calls a Python hook held in the BackwardState" + state +
                           ", e.g. FSDP2's pre-backward hook; its result is the hook's (needs Python)");
    }
    try {  // inductor's post-grad lowering patterns: their handler holds the aten ops it replaced
        if (auto lowering = planInductorLowering(m_graph, n, f, m_device))
            return std::move(*lowering);
    } catch (const std::invalid_argument& e) {
        return unsupported(e.what());
    }
    return unsupported("python call " + f + "() is not a torch function (needs Python)");
}

}  // namespace fxray::replay::detail
