#include "replay/ops/torch_level_natives.h"

#include "graph/printer.h"
#include "replay/plan/plan_builders.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/TensorIndexing.h>

#include <optional>
#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// One element of a Python index, reading its values from operands [first, first + count).
struct IndexPart {
    enum class Kind { Value, Slice, Ellipsis, List };
    Kind kind = Kind::Value;
    std::size_t first = 0;
    std::size_t count = 0;
};

// Flattens the index into parts and their operands (appended to `args`).
std::vector<IndexPart> indexParts(const graph::Graph& g, const Arg& index, const c10::Device& device,
                                  std::vector<ArgPlan>& args)
{
    const std::vector<Arg> items = index.kind == Arg::Kind::Tuple ? index.items : std::vector<Arg>{index};
    std::vector<IndexPart> parts;
    for (const Arg& item : items) {
        IndexPart part;
        part.first = args.size();
        if (item.kind == Arg::Kind::Ellipsis) {
            part.kind = IndexPart::Kind::Ellipsis;
        } else if (item.kind == Arg::Kind::Slice || item.kind == Arg::Kind::List) {
            part.kind = item.kind == Arg::Kind::Slice ? IndexPart::Kind::Slice : IndexPart::Kind::List;
            for (const Arg& sub : item.items) {
                if (sub.kind != Arg::Kind::Int && sub.kind != Arg::Kind::Bool && sub.kind != Arg::Kind::None &&
                    sub.kind != Arg::Kind::Node)
                    throw std::invalid_argument("unsupported index " + graph::formatArg(g, item));
                args.push_back(operandArg(g, sub, device));
            }
        } else if (item.kind == Arg::Kind::Int || item.kind == Arg::Kind::Bool || item.kind == Arg::Kind::None ||
                   item.kind == Arg::Kind::Node) {
            args.push_back(operandArg(g, item, device));
        } else {
            throw std::invalid_argument("unsupported index " + graph::formatArg(g, item) + " (Python indexing takes ints, "
                                        "slices, None, Ellipsis, bools, tensors and int lists)");
        }
        part.count = args.size() - part.first;
        parts.push_back(part);
    }
    return parts;
}

std::optional<c10::SymInt> sliceBound(const c10::IValue& v)
{
    if (v.isNone())
        return std::nullopt;
    return c10::SymInt(v.toInt());
}

// A list index is one advanced index: ints become a long tensor, bools a mask (as torch's Python binding does).
at::Tensor listIndex(const std::vector<c10::IValue>& values, const at::Tensor& base)
{
    bool allBool = !values.empty();
    for (const auto& v : values)
        allBool = allBool && v.isBool();
    if (allBool) {
        std::vector<uint8_t> mask;
        for (const auto& v : values)
            mask.push_back(v.toBool());
        return at::tensor(mask, at::kBool).to(base.device());
    }
    std::vector<std::int64_t> ints;
    for (const auto& v : values)
        ints.push_back(v.toInt());
    return at::tensor(ints, at::kLong).to(base.device());
}

at::indexing::TensorIndex tensorIndex(const IndexPart& part, const std::vector<c10::IValue>& v, const at::Tensor& base)
{
    switch (part.kind) {
    case IndexPart::Kind::Ellipsis: return at::indexing::Ellipsis;
    case IndexPart::Kind::Slice:
        return at::indexing::Slice(sliceBound(v[part.first]), sliceBound(v[part.first + 1]), sliceBound(v[part.first + 2]));
    case IndexPart::Kind::List:
        return listIndex({v.begin() + static_cast<std::ptrdiff_t>(part.first),
                          v.begin() + static_cast<std::ptrdiff_t>(part.first + part.count)},
                         base);
    case IndexPart::Kind::Value: break;
    }
    const c10::IValue& x = v[part.first];
    if (x.isNone())
        return at::indexing::None;
    if (x.isBool())
        return at::indexing::TensorIndex(x.toBool());
    if (x.isInt())
        return at::indexing::TensorIndex(x.toInt());
    if (x.isTensor())
        return at::indexing::TensorIndex(x.toTensor());
    throw std::invalid_argument("cannot index a tensor with " + describeValue(x));
}

std::vector<at::indexing::TensorIndex> tensorIndices(const std::vector<IndexPart>& parts,
                                                     const std::vector<c10::IValue>& v, const at::Tensor& base)
{
    std::vector<at::indexing::TensorIndex> out;
    out.reserve(parts.size());
    for (const IndexPart& part : parts)
        out.push_back(tensorIndex(part, v, base));
    return out;
}

// Python's slice of a list (x.size()[1:], shape[:-1]): bounds clamped, negative ones from the end.
c10::IValue sliceList(const c10::IValue& list, const std::vector<c10::IValue>& bounds)
{
    const auto elements = list.toListRef();
    const auto n = static_cast<std::int64_t>(elements.size());
    const std::int64_t step = bounds[2].isNone() ? 1 : bounds[2].toInt();
    if (step == 0)
        throw std::invalid_argument("slice step cannot be zero");
    auto clamp = [&](const c10::IValue& b, std::int64_t fallback) {
        if (b.isNone())
            return fallback;
        std::int64_t i = b.toInt();
        if (i < 0)
            i += n;
        return step > 0 ? std::clamp<std::int64_t>(i, 0, n) : std::clamp<std::int64_t>(i, -1, n - 1);
    };
    const std::int64_t start = clamp(bounds[0], step > 0 ? 0 : n - 1), stop = clamp(bounds[1], step > 0 ? n : -1);
    c10::impl::GenericList out(list.toList().elementType());
    for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        out.push_back(elements[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace

NodePlan planIndexing(const graph::Graph& g, const Arg& base, const Arg& index, const c10::Device& device)
{
    std::vector<ArgPlan> args{operandArg(g, base, device)};
    std::vector<IndexPart> parts = indexParts(g, index, device, args);
    const bool oneSlice = parts.size() == 1 && parts[0].kind == IndexPart::Kind::Slice && index.kind != Arg::Kind::Tuple;
    return nativePlan(std::move(args), "Python indexing base[" + graph::formatArg(g, index) + "] (at::indexing)",
                  [parts, oneSlice](const std::vector<c10::IValue>& v) -> c10::IValue {
                      if (v[0].isList() && oneSlice)
                          return sliceList(v[0], {v[1], v[2], v[3]});
                      const at::Tensor& self = v[0].toTensor();
                      return self.index(tensorIndices(parts, v, self));
                  });
}

NodePlan planSetItem(const graph::Graph& g, const Arg& base, const Arg& index, const Arg& value, const c10::Device& device)
{
    std::vector<ArgPlan> args{operandArg(g, base, device), operandArg(g, value, device)};
    std::vector<IndexPart> parts = indexParts(g, index, device, args);
    return nativePlan(std::move(args), "Python item assignment base[" + graph::formatArg(g, index) + "] = value (at::indexing)",
                  [parts](const std::vector<c10::IValue>& v) -> c10::IValue {
                      at::Tensor self = v[0].toTensor();
                      const auto indices = tensorIndices(parts, v, self);
                      if (v[1].isTensor())
                          self.index_put_(indices, v[1].toTensor());
                      else
                          self.index_put_(indices, v[1].toScalar());
                      return self;
                  });
}

NodePlan planTensorQuery(const graph::Graph& g, const std::string& query, const Arg& self, const Arg* dim)
{
    if (self.kind != Arg::Kind::Node)
        throw std::invalid_argument(query + "() of a value that is not a graph tensor");
    std::vector<ArgPlan> args{operandArg(g, self, c10::Device(c10::kCPU))};
    if (dim) {
        if (dim->kind != Arg::Kind::Int && dim->kind != Arg::Kind::Node)
            throw std::invalid_argument(query + "(dim) needs an int dim");
        args.push_back(operandArg(g, *dim, c10::Device(c10::kCPU)));
    }
    const std::string schema = "Tensor." + query + (dim ? "(int dim) -> int" : query == "size" || query == "stride" ? "() -> int[]" : "() -> int");
    return nativePlan(std::move(args), schema, [query](const std::vector<c10::IValue>& v) -> c10::IValue {
        const at::Tensor& t = v[0].toTensor();
        if (query == "dim")
            return t.dim();
        if (query == "numel")
            return t.numel();
        const bool stride = query == "stride";
        if (v.size() == 2)
            return stride ? t.stride(v[1].toInt()) : t.size(v[1].toInt());
        return stride ? t.strides().vec() : t.sizes().vec();
    });
}

NodePlan planIdentity(const graph::Graph& g, const Arg& value, std::string what)
{
    return nativePlan({operandArg(g, value, c10::Device(c10::kCPU))}, std::move(what),
                  [](const std::vector<c10::IValue>& v) { return v[0]; });
}

NodePlan planNoOp(std::string what)
{
    return nativePlan({}, std::move(what), [](const std::vector<c10::IValue>&) { return c10::IValue(); });
}

NodePlan planNormalize(const graph::Graph& g, const Arg& input, double p, std::int64_t dim, double eps)
{
    return nativePlan({operandArg(g, input, c10::Device(c10::kCPU))},
                  "torch.nn.functional.normalize: input / norm(input, p, dim, keepdim=True).clamp_min(eps)",
                  [p, dim, eps](const std::vector<c10::IValue>& v) -> c10::IValue {
                      const at::Tensor& x = v[0].toTensor();
                      return x / at::norm(x, p, {dim}, true).clamp_min(eps).expand_as(x);
                  });
}

}  // namespace fxray::replay::detail
