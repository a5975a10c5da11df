#include "replay/ops/numpy_random_ops.h"

#include "graph/dynamo_numpy.h"
#include "graph/printer.h"
#include "replay/plan/plan_builders.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

struct Params {
    std::vector<std::string_view> names;  // positional order, as torch._numpy.random declares them
    std::vector<const Arg*> values;       // nullptr: not passed
};

// Binds a call's arguments to the function's parameters (keywords by name, the rest by position).
Params bind(const graph::Graph& g, const graph::Node& n, const std::string& f, std::vector<std::string_view> names)
{
    Params p{std::move(names), {}};
    p.values.assign(p.names.size(), nullptr);
    if (n.args.size() > p.names.size())
        throw std::invalid_argument("np.random." + f + " takes at most " + std::to_string(p.names.size()) + " arguments, got " +
                                    std::to_string(n.args.size()));
    for (std::size_t k = 0; k < n.args.size(); ++k)
        p.values[k] = &n.args[k];
    for (const auto& [key, value] : n.kwargs) {
        std::size_t k = 0;
        while (k < p.names.size() && p.names[k] != key)
            ++k;
        if (k == p.names.size() || p.values[k])
            throw std::invalid_argument("np.random." + f + " got an unexpected or repeated argument '" + key + "' in " +
                                        graph::formatNodeExpr(g, n));
        p.values[k] = &value;
    }
    return p;
}

ArgPlan intItem(const graph::Graph& g, const Arg& a)
{
    if (a.kind == Arg::Kind::Int)
        return constantArg(a.i);
    if (a.kind == Arg::Kind::Node)
        return valueArg(a.node);
    throw std::invalid_argument("np.random size must be ints, got " + graph::formatArg(g, a));
}

// A numpy size: None (a Python scalar comes back), an int, or a tuple/list of ints; as an IntList or None.
ArgPlan sizePlan(const graph::Graph& g, const Arg* a)
{
    ArgPlan p;
    if (!a || a->kind == Arg::Kind::None)
        return constantArg(c10::IValue());
    p.kind = ArgPlan::Kind::IntList;
    if (a->kind == Arg::Kind::List || a->kind == Arg::Kind::Tuple)
        for (const Arg& item : a->items)
            p.items.push_back(intItem(g, item));
    else
        p.items.push_back(intItem(g, *a));
    return p;
}

ArgPlan numberPlan(const graph::Graph& g, const Arg* a, double fallback, const c10::Device& device)
{
    return a ? operandArg(g, *a, device) : constantArg(fallback);
}

double number(const c10::IValue& v)
{
    if (v.isDouble())
        return v.toDouble();
    if (v.isInt())
        return static_cast<double>(v.toInt());
    if (v.isBool())
        return v.toBool() ? 1.0 : 0.0;
    if (v.isTensor())
        return v.toTensor().item<double>();
    throw std::invalid_argument("np.random: expected a number, got " + v.tagKind());
}

enum class Draw { Uniform, Normal, Randint };

struct DrawSpec {
    Draw draw = Draw::Uniform;
    c10::ScalarType dtype = c10::kDouble;  // torch._numpy's default float (config.numpy_default_float) or int64
    c10::Device device{c10::kCPU};         // torch.empty's default device
};

// One draw as torch._numpy.random makes it (natural), or aligned draw number `k`. `a`, `b`: low/high, loc/scale.
c10::IValue draw(const DrawSpec& s, const c10::IValue& size, double a, double b, const RngPlan* aligned, std::int64_t k)
{
    const bool scalar = size.isNone();  // array_or_scalar(..., return_scalar=True): a Python number
    const std::vector<std::int64_t> sizes = scalar ? std::vector<std::int64_t>{} : size.toIntVector();
    const auto opts = at::TensorOptions().dtype(s.draw == Draw::Randint ? c10::kLong : s.dtype).device(s.device);
    at::Tensor t;
    if (aligned) {
        if (s.draw == Draw::Randint)
            t = at::randint(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), sizes,
                            alignedGenerator(aligned->seed, k), at::TensorOptions().dtype(at::kLong)).to(opts);
        else if (s.draw == Draw::Normal)
            t = alignedDraw(aligned->seed, k, sizes, true, s.device).to(s.dtype) * b + a;
        else  // the expression aten::uniform's aligned plan computes (random_ops.cpp), so the two agree bit for bit
            t = alignedDraw(aligned->seed, k, sizes, false, s.device).to(s.dtype) * (b - a) + a;
    } else if (s.draw == Draw::Randint) {
        t = at::randint(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), sizes, opts);
    } else if (s.draw == Draw::Normal) {
        t = at::empty(sizes, opts).normal_(a, b);
    } else {
        t = at::empty(sizes, opts).uniform_(a, b);
    }
    if (!scalar)
        return t;
    return s.draw == Draw::Randint ? c10::IValue(t.item<std::int64_t>()) : c10::IValue(t.item<double>());
}

}  // namespace

std::optional<NodePlan> planNumpyRandomCall(const graph::Graph& g, const graph::Node& n, const c10::Device& device, RngPlan& rng)
{
    const std::string f = graph::dynamoNumpyWrapped(n);
    if (!graph::isNumpyRandomFunction(f))
        return std::nullopt;
    if (f == "choice" || f == "shuffle")
        throw std::invalid_argument("np.random." + f + " through dynamo's wrapper (torch._numpy's multinomial / randperm "
                                    "with numpy's argument rules) is not run natively");
    DrawSpec spec;
    spec.draw = f == "randint" ? Draw::Randint : (f == "randn" || f == "normal") ? Draw::Normal : Draw::Uniform;
    spec.dtype = spec.draw == Draw::Randint ? c10::kLong : c10::kDouble;
    if (n.meta && n.meta->isTensor()) {  // what the capture recorded wins (numpy_default_float may be float32)
        spec.dtype = toScalarType(n.meta->tensor.dtype);
        if (n.meta->tensor.device)
            spec.device = mapDevice(*n.meta->tensor.device, device);
    }
    std::vector<ArgPlan> args;
    std::string what;
    if (f == "rand" || f == "randn") {  // rand(*size): every positional argument is a dimension; none: a scalar
        if (!n.kwargs.empty())
            throw std::invalid_argument("np.random." + f + "(*size) takes no keywords");
        ArgPlan size;
        size.kind = ArgPlan::Kind::IntList;
        for (const Arg& a : n.args)
            size.items.push_back(intItem(g, a));
        args = {n.args.empty() ? constantArg(c10::IValue()) : size, constantArg(0.0), constantArg(1.0)};
        what = f == "rand" ? "torch.empty(size, dtype).uniform_()" : "torch.randn(size, dtype)";
    } else if (f == "random_sample" || f == "sample" || f == "random") {
        const Params p = bind(g, n, f, {"size"});
        args = {sizePlan(g, p.values[0]), constantArg(0.0), constantArg(1.0)};
        what = "torch.empty(size, dtype).uniform_()";
    } else if (f == "uniform" || f == "normal") {
        const bool u = f == "uniform";
        const Params p = bind(g, n, f, u ? std::vector<std::string_view>{"low", "high", "size"} : std::vector<std::string_view>{"loc", "scale", "size"});
        args = {sizePlan(g, p.values[2]), numberPlan(g, p.values[0], 0.0, device), numberPlan(g, p.values[1], 1.0, device)};
        what = u ? "torch.empty(size, dtype).uniform_(low, high)" : "torch.empty(size, dtype).normal_(loc, scale)";
    } else {  // randint(low, high=None, size=None): high None draws from [0, low)
        const Params p = bind(g, n, f, {"low", "high", "size"});
        if (!p.values[0])
            throw std::invalid_argument("np.random.randint needs low");
        const bool noHigh = !p.values[1] || p.values[1]->kind == Arg::Kind::None;
        args = {sizePlan(g, p.values[2]), noHigh ? constantArg(std::int64_t{0}) : operandArg(g, *p.values[0], device),
                operandArg(g, noHigh ? *p.values[0] : *p.values[1], device)};
        what = "torch.randint(low, high, size)";
    }
    const std::string schema = "np.random." + f + " via dynamo's torch._numpy: " + what + " on torch's generator";
    if (rng.aligned) {
        const std::int64_t k = rng.nextOrdinal++;
        const RngPlan aligned = rng;
        return nativePlan(std::move(args), schema + "  [aligned RNG draw " + std::to_string(k) + " (stage compare)]",
                          [spec, aligned, k](const std::vector<c10::IValue>& v) -> c10::IValue {
                              return draw(spec, v[0], number(v[1]), number(v[2]), &aligned, k);
                          });
    }
    return nativePlan(std::move(args), schema + " (eager's own definition: the same draws)",
                      [spec](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return draw(spec, v[0], number(v[1]), number(v[2]), nullptr, 0);
                      });
}

}  // namespace fxray::replay::detail
