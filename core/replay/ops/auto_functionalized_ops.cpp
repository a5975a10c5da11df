#include "replay/ops/auto_functionalized_ops.h"

#include "graph/printer.h"
#include "replay/plan/op_plan.h"
#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <map>
#include <set>
#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// How one mutated argument is regenerated from the cloned bases (auto_functionalize.py's ViewInfo classes).
struct ViewInfo {
    enum class Kind { None, NotView, Alias, AsStrided, Slice };
    Kind kind = Kind::None;
    std::int64_t base = -1;
    std::vector<std::int64_t> size, stride;
    std::int64_t offset = 0, dim = 0, start = 0, end = 0;

    at::Tensor regenerate(const std::vector<at::Tensor>& bases) const
    {
        const at::Tensor& b = bases.at(static_cast<std::size_t>(base));
        switch (kind) {
        case Kind::Alias: return at::alias(b);
        case Kind::AsStrided: return at::as_strided(b, size, stride, offset);
        case Kind::Slice: return at::slice(b, dim, start, end);
        default: return b;
        }
    }
};

struct MutableArg {
    std::size_t position = 0;  // in the schema's arguments
    bool list = false;
    std::vector<ViewInfo> views;  // one, or one per element; a list with no views at all is None
    bool none = false;
};

class Kwargs {
public:
    explicit Kwargs(const graph::Node& n)
    {
        for (const auto& [k, v] : n.kwargs)
            m_map.emplace(k, &v);
    }
    const Arg* find(const std::string& k) const
    {
        auto it = m_map.find(k);
        return it == m_map.end() ? nullptr : it->second;
    }
    std::optional<std::int64_t> integer(const std::string& k) const
    {
        const Arg* a = find(k);
        if (!a || a->kind == Arg::Kind::None)
            return std::nullopt;
        if (a->kind != Arg::Kind::Int)
            throw std::invalid_argument("auto_functionalized_v2's " + k + " is not a constant int");
        return a->i;
    }
    std::vector<std::int64_t> ints(const std::string& k) const
    {
        const Arg* a = find(k);
        std::vector<std::int64_t> out;
        if (!a || (a->kind != Arg::Kind::Tuple && a->kind != Arg::Kind::List))
            throw std::invalid_argument("auto_functionalized_v2's " + k + " is not a list of ints");
        for (const Arg& item : a->items) {
            if (item.kind != Arg::Kind::Int)
                throw std::invalid_argument("auto_functionalized_v2's " + k + " holds a value that is not a constant int");
            out.push_back(item.i);
        }
        return out;
    }

private:
    std::map<std::string, const Arg*> m_map;
};

// read_single_view(prefix) of auto_functionalize.py.
ViewInfo readView(const Kwargs& kw, const std::string& prefix)
{
    ViewInfo v;
    const auto base = kw.integer(prefix + "_base_index");
    if (!base)
        return v;
    v.base = *base;
    if (kw.find(prefix + "_alias")) {
        v.kind = ViewInfo::Kind::Alias;
    } else if (kw.find(prefix + "_storage_offset")) {
        v.kind = ViewInfo::Kind::AsStrided;
        v.size = kw.ints(prefix + "_size");
        v.stride = kw.ints(prefix + "_stride");
        v.offset = kw.integer(prefix + "_storage_offset").value_or(0);
    } else if (kw.find(prefix + "_slice_dim")) {
        v.kind = ViewInfo::Kind::Slice;
        v.dim = kw.integer(prefix + "_slice_dim").value_or(0);
        v.start = kw.integer(prefix + "_slice_start").value_or(0);
        v.end = kw.integer(prefix + "_slice_end").value_or(INT64_MAX);
    } else {
        v.kind = ViewInfo::Kind::NotView;
    }
    return v;
}

// clone_preserve_strides: the whole span the view covers, copied, viewed again alike.
at::Tensor clonePreservingStrides(const at::Tensor& x)
{
    std::int64_t needed = x.numel() > 0 ? x.storage_offset() + 1 : 0;
    for (std::int64_t d = 0; x.numel() > 0 && d < x.dim(); ++d)
        needed += (x.size(d) - 1) * x.stride(d);
    at::Tensor buffer = at::as_strided(x, {needed}, {1}, 0).clone();
    return at::as_strided(buffer, x.sizes(), x.strides(), x.storage_offset());
}

std::vector<at::Tensor> tensorsOf(const c10::IValue& v)
{
    std::vector<at::Tensor> out;
    for (const c10::IValue& e : v.toListRef())
        out.push_back(e.toTensor());
    return out;
}

// The node's `_all_bases`, each a node reference.
const Arg& basesOf(const Kwargs& kw)
{
    const Arg* bases = kw.find("_all_bases");
    if (!bases || bases->kind != Arg::Kind::List)
        throw std::invalid_argument("auto_functionalized_v2 has no _all_bases list");
    for (const Arg& base : bases->items)
        if (base.kind != Arg::Kind::Node)
            throw std::invalid_argument("auto_functionalized_v2's _all_bases holds a value that is not a node");
    return *bases;
}

// The op's own arguments as the inner node's kwargs, each mutated one planned as its base (the view replaces it at
// run time); returns what each mutated argument is regenerated from.
std::vector<MutableArg> mutatedArgs(const c10::FunctionSchema& schema, const Kwargs& kw, const Arg& bases, graph::Node& inner)
{
    auto baseRef = [&](std::int64_t i) {
        if (i < 0 || i >= static_cast<std::int64_t>(bases.items.size()))
            throw std::invalid_argument("auto_functionalized_v2 names base " + std::to_string(i) + " of " +
                                        std::to_string(bases.items.size()));
        return bases.items[static_cast<std::size_t>(i)];
    };
    std::vector<MutableArg> mutated;
    const auto& schemaArgs = schema.arguments();
    for (std::size_t k = 0; k < schemaArgs.size(); ++k) {
        const c10::Argument& arg = schemaArgs[k];
        if (!(arg.alias_info() && arg.alias_info()->isWrite())) {
            if (const Arg* v = kw.find(arg.name()))
                inner.kwargs.emplace_back(arg.name(), *v);
            continue;
        }
        MutableArg m;
        m.position = k;
        m.list = arg.type()->kind() == c10::TypeKind::ListType;
        const std::string prefix = "_" + arg.name();
        Arg planned;
        if (m.list) {
            const auto length = kw.integer(prefix + "_length");
            m.none = !length;
            planned.kind = m.none ? Arg::Kind::None : Arg::Kind::List;
            for (std::int64_t i = 0; length && i < *length; ++i) {
                m.views.push_back(readView(kw, prefix + "_" + std::to_string(i)));
                if (m.views.back().kind == ViewInfo::Kind::None)
                    throw std::invalid_argument("auto_functionalized_v2: element " + std::to_string(i) + " of " + arg.name() +
                                                " has no base");
                planned.items.push_back(baseRef(m.views.back().base));
            }
        } else {
            m.views.push_back(readView(kw, prefix));
            m.none = m.views.back().kind == ViewInfo::Kind::None;
            planned = m.none ? Arg{} : baseRef(m.views.back().base);
        }
        inner.kwargs.emplace_back(arg.name(), planned);
        mutated.push_back(std::move(m));
    }
    return mutated;
}

// The dense kernel on the evaluated operands: v[0, nargs) the op's arguments, v[nargs] the bases.
c10::IValue runDense(const c10::OperatorHandle& op, std::size_t nargs, const std::vector<MutableArg>& mutated,
                     const std::set<std::int64_t>& cloned, const std::vector<c10::IValue>& v)
{
    std::vector<at::Tensor> fresh = tensorsOf(v.at(nargs));
    for (std::size_t i = 0; i < fresh.size(); ++i)
        if (cloned.contains(static_cast<std::int64_t>(i)))
            fresh[i] = clonePreservingStrides(fresh[i]);
    std::vector<c10::IValue> stack(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(nargs));
    for (const MutableArg& m : mutated) {
        if (m.none) {
            stack[m.position] = c10::IValue();
        } else if (m.list) {
            c10::List<at::Tensor> views;
            for (const ViewInfo& view : m.views)
                views.push_back(view.regenerate(fresh));
            stack[m.position] = views;
        } else {
            stack[m.position] = m.views.front().regenerate(fresh);
        }
    }
    const std::size_t returns = op.schema().returns().size();
    op.callBoxed(stack);
    // (out, *bases) when the op returns one value or none (Python's None), (*outs, *bases) for several.
    std::vector<c10::IValue> out;
    if (returns == 0)
        out.emplace_back();
    for (std::size_t k = 0; k < returns && k < stack.size(); ++k)
        out.push_back(stack[k]);
    for (at::Tensor& t : fresh)
        out.emplace_back(std::move(t));
    return c10::ivalue::Tuple::create(std::move(out));
}

}  // namespace

bool isAutoFunctionalized(const graph::Node& n)
{
    return n.isOp() && n.target.ns == "higher_order" && n.target.op == "auto_functionalized_v2";
}

NodePlan planAutoFunctionalized(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    if (n.args.empty() || n.args[0].kind != Arg::Kind::Op)
        throw std::invalid_argument("auto_functionalized_v2 takes the op it runs as an operator value");
    const std::string& dotted = n.args[0].s;  // "fsdp.split_with_sizes_copy.default"
    const std::size_t a = dotted.find('.'), b = a == std::string::npos ? a : dotted.find('.', a + 1);
    if (b == std::string::npos)
        throw std::invalid_argument("auto_functionalized_v2 runs " + dotted + ", which names no overload");
    graph::Node inner = n;
    inner.target = graph::Target{graph::Target::Kind::Op, dotted.substr(0, a), dotted.substr(a + 1, b - a - 1), dotted.substr(b + 1)};
    inner.args.assign(n.args.begin() + 1, n.args.end());
    inner.kwargs.clear();
    inner.meta.reset();
    const std::string overload = inner.target.overload == "default" ? "" : inner.target.overload;
    const auto handle = c10::Dispatcher::singleton().findSchema({inner.target.qualifiedName(), overload});
    if (!handle)
        throw std::invalid_argument("auto_functionalized_v2 runs " + dotted + ", which the dispatcher does not know");
    const Kwargs kw(n);
    const Arg& bases = basesOf(kw);
    std::vector<MutableArg> mutated = mutatedArgs(handle->schema(), kw, bases, inner);
    std::set<std::int64_t> cloned;
    const Arg* only = kw.find("_only_clone_these_bases");
    if (only && only->kind != Arg::Kind::None)
        for (std::int64_t i : kw.ints("_only_clone_these_bases"))
            cloned.insert(i);
    else
        for (std::size_t i = 0; i < bases.items.size(); ++i)
            cloned.insert(static_cast<std::int64_t>(i));

    NodePlan innerPlan = planOpNode(g, inner, device);
    if (innerPlan.kind != NodePlan::Kind::Op)
        throw std::invalid_argument("auto_functionalized_v2 runs " + dotted + ": " +
                                    (innerPlan.why.empty() ? "not a dispatcher call" : innerPlan.why));
    const std::size_t nargs = innerPlan.args.size();
    std::vector<ArgPlan> args = innerPlan.args;
    ArgPlan basesPlan;
    basesPlan.kind = ArgPlan::Kind::TensorList;
    for (const Arg& base : bases.items)
        basesPlan.items.push_back(valueArg(base.node));
    args.push_back(std::move(basesPlan));
    const c10::OperatorHandle op = *innerPlan.op;
    NodePlan p = nativePlan(std::move(args),
                            "higher_order.auto_functionalized_v2(op, ...) = (op's returns, *bases): the bases cloned, op's "
                            "mutated arguments regenerated as views of them, with op = " + c10::toString(op.schema()),
                            [op, nargs, mutated = std::move(mutated), cloned](const std::vector<c10::IValue>& v) {
                                return runDense(op, nargs, mutated, cloned, v);
                            });
    p.name = n.target.str();
    return p;
}

}  // namespace fxray::replay::detail
