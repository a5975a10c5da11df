#include "replay/ops/torch_level_overloads.h"

#include <ATen/core/jit_type.h>

#include <algorithm>
#include <unordered_map>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// How well an argument fits a formal. Converts: accepted with a conversion (a number as a wrapped-number tensor,
// an int as int[1], a value whose kind is unknown until run time).
enum class Fit { No, Converts, Exact };

// Every aten overload by operator name ("add" -> add.Tensor, add.Scalar, ...), the default overload first, then
// by overload name, so that ties resolve the same way in every process.
const std::unordered_map<std::string, std::vector<c10::OperatorHandle>>& atenOverloads()
{
    static const auto table = [] {
        std::unordered_map<std::string, std::vector<c10::OperatorHandle>> m;
        for (const c10::OperatorName& name : c10::Dispatcher::singleton().getAllOpNames()) {
            if (!name.name.starts_with("aten::"))
                continue;
            if (auto handle = c10::Dispatcher::singleton().findSchema(name))
                m[name.name.substr(6)].push_back(*handle);
        }
        for (auto& [name, handles] : m)
            std::sort(handles.begin(), handles.end(), [](const c10::OperatorHandle& a, const c10::OperatorHandle& b) {
                return a.operator_name().overload_name < b.operator_name().overload_name;
            });
        return m;
    }();
    return table;
}

bool isNumberLiteral(const Arg& a)
{
    return a.kind == Arg::Kind::Int || a.kind == Arg::Kind::Float || a.kind == Arg::Kind::Bool || a.kind == Arg::Kind::Complex;
}

bool isNumberKind(ValueKind k) { return k == ValueKind::Int || k == ValueKind::Float || k == ValueKind::Bool; }

Fit fits(const Arg& a, const c10::TypePtr& type, const KindOf& kindOf);

// A list formal: list literals item by item; a list-valued node by its kind; a lone int as int[1].
Fit fitsList(const Arg& a, const c10::TypePtr& elem, const KindOf& kindOf)
{
    using K = c10::TypeKind;
    const bool intElem = elem->kind() == K::IntType || elem->kind() == K::SymIntType;
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        Fit worst = Fit::Exact;
        for (const Arg& item : a.items)
            worst = std::min(worst, fits(item, elem, kindOf));
        return worst;
    }
    if (a.kind == Arg::Kind::Node) {
        const ValueKind v = kindOf(a.node);
        const bool tensorElem = elem->kind() == K::TensorType ||
                                (elem->kind() == K::OptionalType &&
                                 elem->castRaw<c10::OptionalType>()->getElementType()->kind() == K::TensorType);
        if ((v == ValueKind::IntList && intElem) || (v == ValueKind::TensorList && tensorElem))
            return Fit::Exact;
        if (v == ValueKind::Unknown || (v == ValueKind::Int && intElem))
            return Fit::Converts;
        return Fit::No;
    }
    if (a.kind == Arg::Kind::Int && intElem)
        return Fit::Converts;
    if ((a.kind == Arg::Kind::Int || a.kind == Arg::Kind::Float) && elem->kind() == K::FloatType)
        return Fit::Converts;
    return Fit::No;
}

// Numbers: literals and number-valued nodes.
Fit fitsNumber(const Arg& a, ValueKind v, c10::TypeKind formal)
{
    using K = c10::TypeKind;
    const bool isInt = a.kind == Arg::Kind::Int || v == ValueKind::Int;
    const bool isFloat = a.kind == Arg::Kind::Float || v == ValueKind::Float;
    const bool isBool = a.kind == Arg::Kind::Bool || v == ValueKind::Bool;
    if (v == ValueKind::Unknown && a.kind == Arg::Kind::Node)
        return Fit::Converts;
    switch (formal) {
    case K::IntType:
    case K::SymIntType: return isInt ? Fit::Exact : isBool ? Fit::Converts : Fit::No;
    case K::FloatType:
    case K::SymFloatType: return isFloat ? Fit::Exact : isInt ? Fit::Converts : Fit::No;
    case K::BoolType:
    case K::SymBoolType: return isBool ? Fit::Exact : Fit::No;
    default: return isInt || isFloat || isBool || a.kind == Arg::Kind::Complex ? Fit::Exact : Fit::No;  // Scalar, complex
    }
}

Fit fits(const Arg& a, const c10::TypePtr& type, const KindOf& kindOf)
{
    using K = c10::TypeKind;
    const ValueKind v = a.kind == Arg::Kind::Node ? kindOf(a.node) : ValueKind::Other;
    switch (type->kind()) {
    case K::OptionalType:
        return a.kind == Arg::Kind::None ? Fit::Exact : fits(a, type->castRaw<c10::OptionalType>()->getElementType(), kindOf);
    case K::TensorType:
        if (v == ValueKind::Tensor)
            return Fit::Exact;
        return isNumberLiteral(a) || isNumberKind(v) || v == ValueKind::Unknown ? Fit::Converts : Fit::No;
    case K::IntType:
    case K::SymIntType:
    case K::FloatType:
    case K::SymFloatType:
    case K::BoolType:
    case K::SymBoolType:
    case K::NumberType:
    case K::ComplexType:
        return isNumberLiteral(a) || a.kind == Arg::Kind::Node ? fitsNumber(a, v, type->kind()) : Fit::No;
    case K::StringType: return a.kind == Arg::Kind::String ? Fit::Exact : Fit::No;
    case K::ScalarTypeType: return a.kind == Arg::Kind::DType ? Fit::Exact : Fit::No;
    case K::LayoutType: return a.kind == Arg::Kind::Layout ? Fit::Exact : Fit::No;
    case K::MemoryFormatType: return a.kind == Arg::Kind::MemoryFormat ? Fit::Exact : Fit::No;
    case K::DeviceObjType: return a.kind == Arg::Kind::Device || a.kind == Arg::Kind::String ? Fit::Exact : Fit::No;
    case K::GeneratorType: return a.kind == Arg::Kind::None ? Fit::Exact : Fit::No;
    case K::ListType: return fitsList(a, type->castRaw<c10::ListType>()->getElementType(), kindOf);
    default: return Fit::No;
    }
}

bool isPackableList(const c10::TypePtr& type)
{
    using K = c10::TypeKind;
    if (type->kind() != K::ListType)
        return false;
    const K elem = type->castRaw<c10::ListType>()->getElementType()->kind();
    return elem == K::IntType || elem == K::SymIntType || elem == K::TensorType;
}

// Out variants (add.out): the result goes into a kwarg-only argument the call never passes.
bool isOutVariant(const c10::FunctionSchema& s)
{
    for (const c10::Argument& f : s.arguments())
        if (f.kwarg_only() && f.alias_info() && f.alias_info()->isWrite())
            return true;
    return false;
}

int formalIndex(const c10::FunctionSchema& s, const std::string& name)
{
    const auto& formals = s.arguments();
    for (std::size_t k = 0; k < formals.size(); ++k)
        if (formals[k].name() == name)
            return static_cast<int>(k);
    // Python's torch functions call their first tensor `input` where the schema says `self`.
    if (name == "input")
        return formalIndex(s, "self");
    return -1;
}

struct Binding {
    std::vector<std::optional<Arg>> args;  // per formal
};

// Python's positional arguments, with varargs sizes (`x.view(2, 3)`, `torch.zeros(2, 3)`, `torch.einsum(eq, a,
// b)`) packed into the last positional formal when it is an int[] or Tensor[].
std::optional<std::vector<Arg>> positionalArgs(const c10::FunctionSchema& s, const TorchCall& call, std::string& why)
{
    std::vector<int> positional;
    for (std::size_t k = 0; k < s.arguments().size(); ++k)
        if (!s.arguments()[k].kwarg_only())
            positional.push_back(static_cast<int>(k));
    std::vector<Arg> args = call.args;
    if (args.size() <= positional.size())
        return args;
    if (positional.empty() || !isPackableList(s.arguments()[static_cast<std::size_t>(positional.back())].real_type())) {
        why = "takes " + std::to_string(positional.size()) + " positional argument(s), given " + std::to_string(args.size());
        return std::nullopt;
    }
    const std::size_t first = positional.size() - 1;
    Arg packed = Arg::ofList({args.begin() + static_cast<std::ptrdiff_t>(first), args.end()});
    args.resize(first);
    args.push_back(std::move(packed));
    return args;
}

std::optional<Binding> bind(const c10::FunctionSchema& s, const TorchCall& call, std::string& why)
{
    auto args = positionalArgs(s, call, why);
    if (!args)
        return std::nullopt;
    const auto& formals = s.arguments();
    Binding b;
    b.args.resize(formals.size());
    std::size_t next = 0;
    for (std::size_t k = 0; k < formals.size() && next < args->size(); ++k)
        if (!formals[k].kwarg_only())
            b.args[k] = (*args)[next++];
    for (const auto& [key, value] : call.kwargs) {
        const int k = formalIndex(s, key);
        if (k < 0) {
            why = "no argument '" + key + "'";
            return std::nullopt;
        }
        if (b.args[static_cast<std::size_t>(k)]) {
            why = "argument '" + key + "' given twice";
            return std::nullopt;
        }
        b.args[static_cast<std::size_t>(k)] = value;
    }
    for (std::size_t k = 0; k < formals.size(); ++k)
        if (!b.args[k] && !formals[k].default_value()) {
            why = "missing argument '" + formals[k].name() + "'";
            return std::nullopt;
        }
    return b;
}

// Scores a bound candidate: the number of conversions it needs, or -1 with the reason when an argument does
// not fit at all.
int conversions(const c10::FunctionSchema& s, const Binding& b, const KindOf& kindOf, std::string& why)
{
    int count = 0;
    for (std::size_t k = 0; k < b.args.size(); ++k) {
        if (!b.args[k])
            continue;
        const Fit f = fits(*b.args[k], s.arguments()[k].real_type(), kindOf);
        if (f == Fit::No) {
            why = "'" + s.arguments()[k].name() + "' takes " + s.arguments()[k].real_type()->str();
            return -1;
        }
        count += f == Fit::Converts;
    }
    return count;
}

// Python's binding broadcasts one int to a fixed-size int[N] formal (adaptive_avg_pool2d(x, 1) is [1, 1]);
// planning would make it int[1].
Arg broadcastToFixedSize(const Arg& a, const c10::Argument& formal)
{
    c10::TypePtr t = formal.real_type();
    if (t->kind() == c10::TypeKind::OptionalType)
        t = t->castRaw<c10::OptionalType>()->getElementType();
    const bool scalar = a.kind == Arg::Kind::Int || a.kind == Arg::Kind::Node;
    if (!scalar || t->kind() != c10::TypeKind::ListType || !formal.N() || *formal.N() < 2)
        return a;
    return Arg::ofList(std::vector<Arg>(static_cast<std::size_t>(*formal.N()), a));
}

OverloadChoice choiceOf(const c10::OperatorHandle& op, const Binding& b, const KindOf& kindOf)
{
    OverloadChoice c{op, {}, {}};
    const auto& formals = op.schema().arguments();
    for (std::size_t k = 0; k < formals.size(); ++k) {
        if (!b.args[k])
            continue;
        const Arg a = broadcastToFixedSize(*b.args[k], formals[k]);
        c.bound.emplace_back(formals[k].name(), a);
        c10::TypePtr t = formals[k].real_type();
        if (t->kind() == c10::TypeKind::OptionalType)
            t = t->castRaw<c10::OptionalType>()->getElementType();
        if (t->kind() == c10::TypeKind::TensorType && a.kind == Arg::Kind::Node && kindOf(a.node) != ValueKind::Tensor)
            c.wrappedNodes.push_back(formals[k].name());
    }
    return c;
}

}  // namespace

bool hasAtenOp(const std::string& name) { return atenOverloads().contains(name); }

bool atenHasArgument(const std::string& name, const std::string& arg)
{
    auto it = atenOverloads().find(name);
    if (it == atenOverloads().end())
        return false;
    for (const c10::OperatorHandle& op : it->second)
        if (formalIndex(op.schema(), arg) >= 0)
            return true;
    return false;
}

std::optional<OverloadChoice> chooseOverload(const TorchCall& call, const KindOf& kindOf, std::string& why)
{
    auto it = atenOverloads().find(call.name);
    if (it == atenOverloads().end()) {
        why = "no aten operator named aten::" + call.name;
        return std::nullopt;
    }
    const c10::OperatorHandle* best = nullptr;
    std::optional<Binding> bestBinding;
    int bestCount = 0;
    std::string rejected;
    for (const c10::OperatorHandle& op : it->second) {
        const c10::FunctionSchema& s = op.schema();
        if (isOutVariant(s))
            continue;
        std::string reason;
        std::optional<Binding> b = bind(s, call, reason);
        const int count = b ? conversions(s, *b, kindOf, reason) : -1;
        if (count < 0) {
            const std::string overload = s.overload_name().empty() ? "default" : s.overload_name();
            rejected += (rejected.empty() ? "" : "; ") + overload + ": " + reason;
            continue;
        }
        if (!best || count < bestCount) {
            best = &op;
            bestBinding = std::move(b);
            bestCount = count;
        }
    }
    if (!best) {
        why = "no overload of aten::" + call.name + " fits the call (" + rejected + ")";
        return std::nullopt;
    }
    return choiceOf(*best, *bestBinding, kindOf);
}

}  // namespace fxray::replay::detail
