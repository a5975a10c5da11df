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

// A literal or a node's value, as an operand of a native step.
ArgPlan operand(const graph::Graph& g, const Arg& a, const c10::Device& device)
{
    switch (a.kind) {
    case Arg::Kind::Node: {
        ArgPlan p;
        p.kind = ArgPlan::Kind::Value;
        p.node = a.node;
        return p;
    }
    case Arg::Kind::None: return constantArg(c10::IValue());
    case Arg::Kind::Int: return constantArg(a.i);
    case Arg::Kind::Float: return constantArg(a.f);
    case Arg::Kind::Bool: return constantArg(a.b);
    case Arg::Kind::DType: return constantArg(toScalarType(a.dtype));
    case Arg::Kind::Device: return constantArg(mapDevice(a.device, device));
    default: throw std::invalid_argument("cannot use " + graph::formatArg(g, a) + " here");
    }
}

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
                args.push_back(operand(g, sub, device));
            }
        } else if (item.kind == Arg::Kind::Int || item.kind == Arg::Kind::Bool || item.kind == Arg::Kind::None ||
                   item.kind == Arg::Kind::Node) {
            args.push_back(operand(g, item, device));
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
    std::vector<ArgPlan> args{operand(g, base, device)};
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
    std::vector<ArgPlan> args{operand(g, base, device), operand(g, value, device)};
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
    std::vector<ArgPlan> args{operand(g, self, c10::Device(c10::kCPU))};
    if (dim) {
        if (dim->kind != Arg::Kind::Int && dim->kind != Arg::Kind::Node)
            throw std::invalid_argument(query + "(dim) needs an int dim");
        args.push_back(operand(g, *dim, c10::Device(c10::kCPU)));
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
    return nativePlan({operand(g, value, c10::Device(c10::kCPU))}, std::move(what),
                  [](const std::vector<c10::IValue>& v) { return v[0]; });
}

NodePlan planNoOp(std::string what)
{
    return nativePlan({}, std::move(what), [](const std::vector<c10::IValue>&) { return c10::IValue(); });
}

namespace {

// The numbers of a nested literal list in row-major order, and its shape (Python's torch.tensor rules: ragged
// lists are refused).
void flattenLiteral(const graph::Graph& g, const Arg& a, std::size_t depth, std::vector<std::int64_t>& shape,
                    std::vector<c10::Scalar>& values)
{
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        const auto n = static_cast<std::int64_t>(a.items.size());
        if (shape.size() == depth)
            shape.push_back(n);
        else if (shape.size() < depth || shape[depth] != n)
            throw std::invalid_argument("ragged data in torch.tensor(" + graph::formatArg(g, a) + ")");
        for (const Arg& item : a.items)
            flattenLiteral(g, item, depth + 1, shape, values);
        return;
    }
    if (shape.size() != depth)
        throw std::invalid_argument("ragged data in torch.tensor");
    switch (a.kind) {
    case Arg::Kind::Bool: values.emplace_back(a.b); break;
    case Arg::Kind::Int: values.emplace_back(a.i); break;
    case Arg::Kind::Float: values.emplace_back(a.f); break;
    default: throw std::invalid_argument("torch.tensor of " + graph::formatArg(g, a) + " (literal numbers only)");
    }
}

}  // namespace

NodePlan planTensorLiteral(const graph::Graph& g, const Arg& data, const Arg* dtype, const Arg* device, const Arg* like,
                           const c10::Device& replayDevice)
{
    std::vector<std::int64_t> shape;
    std::vector<c10::Scalar> values;
    flattenLiteral(g, data, 0, shape, values);
    // Python's inference: all bools -> bool, any float -> the default float32, else int64.
    c10::ScalarType inferred = values.empty() ? c10::kFloat : c10::kBool;
    for (const c10::Scalar& v : values)
        inferred = v.isFloatingPoint() ? c10::kFloat : v.isIntegral(false) && inferred != c10::kFloat ? c10::kLong : inferred;
    std::vector<ArgPlan> args{like ? operand(g, *like, replayDevice) : constantArg(c10::IValue()),
                              dtype ? operand(g, *dtype, replayDevice) : constantArg(c10::IValue()),
                              device ? operand(g, *device, replayDevice) : constantArg(c10::IValue())};
    const bool isLike = like != nullptr;
    return nativePlan(std::move(args), "torch.tensor(" + graph::formatArg(g, data) + ") from literal data",
                  [shape, values, inferred, isLike](const std::vector<c10::IValue>& v) -> c10::IValue {
                      c10::ScalarType type = inferred;
                      c10::Device where(c10::kCPU);
                      if (isLike) {
                          type = v[0].toTensor().scalar_type();
                          where = v[0].toTensor().device();
                      }
                      if (!v[1].isNone())
                          type = static_cast<c10::ScalarType>(v[1].toInt());
                      if (!v[2].isNone())
                          where = v[2].toDevice();
                      at::Tensor t = at::empty({static_cast<std::int64_t>(values.size())}, at::TensorOptions().dtype(type));
                      for (std::size_t k = 0; k < values.size(); ++k)
                          t[static_cast<std::int64_t>(k)].fill_(values[k]);
                      return t.view(shape).to(where);
                  });
}

NodePlan planNormalize(const graph::Graph& g, const Arg& input, double p, std::int64_t dim, double eps)
{
    return nativePlan({operand(g, input, c10::Device(c10::kCPU))},
                  "torch.nn.functional.normalize: input / norm(input, p, dim, keepdim=True).clamp_min(eps)",
                  [p, dim, eps](const std::vector<c10::IValue>& v) -> c10::IValue {
                      const at::Tensor& x = v[0].toTensor();
                      return x / at::norm(x, p, {dim}, true).clamp_min(eps).expand_as(x);
                  });
}

namespace {

// A literal int list argument (kernel sizes, strides): nullopt when it is not one (a SymInt in it, say).
std::optional<std::vector<std::int64_t>> literalInts(const Arg& a)
{
    if (a.kind != Arg::Kind::List && a.kind != Arg::Kind::Tuple)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const Arg& item : a.items) {
        if (item.kind != Arg::Kind::Int)
            return std::nullopt;
        out.push_back(item.i);
    }
    return out;
}

// inductor_prims' helpers: a flat index over the last dims `sizes` split into one index per dim, and back.
std::vector<at::Tensor> flatIndexToNd(at::Tensor index, c10::IntArrayRef sizes)
{
    std::vector<at::Tensor> out(sizes.size());
    for (std::size_t d = sizes.size(); d-- > 0;) {
        out[d] = index.remainder(sizes[d]);
        index = index.div(sizes[d], "floor");
    }
    return out;
}

at::Tensor flattenIndex(const std::vector<at::Tensor>& nd, c10::IntArrayRef sizes)
{
    at::Tensor out = nd[0];
    for (std::size_t d = 1; d < nd.size(); ++d)
        out = out * sizes[d] + nd[d];
    return out;
}

// Each window position's start along dim d of the last `dims` dims: arange(size) * stride - padding, shaped to
// broadcast against a tensor of `ndim` dims.
at::Tensor windowStarts(const at::Tensor& like, std::int64_t ndim, std::size_t dims, std::size_t d, std::int64_t stride,
                        std::int64_t padding)
{
    std::vector<std::int64_t> shape(static_cast<std::size_t>(ndim), 1);
    const std::int64_t axis = ndim - static_cast<std::int64_t>(dims) + static_cast<std::int64_t>(d);
    shape[static_cast<std::size_t>(axis)] = -1;
    return at::arange(like.size(axis), at::TensorOptions().dtype(at::kLong).device(like.device())).view(shape) * stride - padding;
}

// inductor's prims._low_memory_max_pool_with_offsets / _low_memory_max_pool_offsets_to_indices, with inductor's
// eager definitions (torch/_inductor/inductor_prims.py): max pooling whose indices are stored as the int8 offset
// inside the window. resnet50's AOT graphs under inductor use them for every max pool.
std::optional<NodePlan> planMaxPoolOffsets(const graph::Graph& g, const graph::Node& n)
{
    const c10::Device cpu(c10::kCPU);
    if (n.target.op == "_low_memory_max_pool_with_offsets" && n.args.size() == 6 && n.kwargs.empty() &&
        n.args[5].kind == Arg::Kind::Bool) {
        const auto k = literalInts(n.args[1]), s = literalInts(n.args[2]), p = literalInts(n.args[3]), d = literalInts(n.args[4]);
        if (!k || !s || !p || !d || (k->size() != 2 && k->size() != 3) || s->size() != k->size() || p->size() != k->size() ||
            d->size() != k->size())
            return std::nullopt;
        const bool ceil = n.args[5].b;
        return nativePlan({operand(g, n.args[0], cpu)},
                      "prims._low_memory_max_pool_with_offsets = max_pool*d_with_indices, indices as window offsets (inductor's eager definition)",
                      [k = *k, s = *s, p = *p, d = *d, ceil](const std::vector<c10::IValue>& v) -> c10::IValue {
                          const at::Tensor& x = v[0].toTensor();
                          auto [vals, indices] = k.size() == 2 ? at::max_pool2d_with_indices(x, k, s, p, d, ceil)
                                                               : at::max_pool3d_with_indices(x, k, s, p, d, ceil);
                          const std::size_t dims = k.size();
                          const auto nd = flatIndexToNd(indices, x.sizes().slice(x.dim() - static_cast<std::int64_t>(dims)));
                          std::vector<at::Tensor> inc;
                          for (std::size_t a = 0; a < dims; ++a)
                              inc.push_back((nd[a] - windowStarts(indices, x.dim(), dims, a, s[a], p[a])).div(d[a], "floor"));
                          return c10::ivalue::Tuple::create(vals, flattenIndex(inc, k).to(at::kChar));
                      });
    }
    if (n.target.op == "_low_memory_max_pool_offsets_to_indices" && n.args.size() == 6 && n.kwargs.empty()) {
        const auto k = literalInts(n.args[1]), in = literalInts(n.args[2]), s = literalInts(n.args[3]),
                   p = literalInts(n.args[4]), d = literalInts(n.args[5]);
        if (!k || !in || !s || !p || !d || k->empty() || in->size() != k->size() || s->size() != k->size() ||
            p->size() != k->size() || d->size() != k->size())
            return std::nullopt;
        return nativePlan({operand(g, n.args[0], cpu)},
                      "prims._low_memory_max_pool_offsets_to_indices: window offsets back to flat indices (inductor's eager definition)",
                      [k = *k, in = *in, s = *s, p = *p, d = *d](const std::vector<c10::IValue>& v) -> c10::IValue {
                          const at::Tensor offsets = v[0].toTensor().to(at::kLong);
                          const auto inc = flatIndexToNd(offsets, k);
                          std::vector<at::Tensor> idx;
                          for (std::size_t a = 0; a < k.size(); ++a)
                              idx.push_back(windowStarts(offsets, offsets.dim(), k.size(), a, s[a], p[a]) + inc[a] * d[a]);
                          return flattenIndex(idx, in);
                      });
    }
    return std::nullopt;
}

}  // namespace

NodePlan planInductorPrim(const graph::Graph& g, const graph::Node& n)
{
    if (auto pool = planMaxPoolOffsets(g, n))
        return std::move(*pool);
    const c10::Device cpu(c10::kCPU);  // literals only: no device arguments here
    if (n.target.op == "fma" && n.args.size() == 3 && n.kwargs.empty())
        return nativePlan({operand(g, n.args[0], cpu), operand(g, n.args[1], cpu), operand(g, n.args[2], cpu)},
                      "prims.fma(a, b, c) = a * b + c (inductor's eager definition)",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return v[0].toTensor() * v[1].toTensor() + v[2].toTensor();
                      });
    if (n.target.op == "prepare_softmax_online" && n.args.size() == 2 && n.args[1].kind == Arg::Kind::Int && n.kwargs.empty()) {
        const std::int64_t dim = n.args[1].i;
        return nativePlan({operand(g, n.args[0], cpu)},
                      "prims.prepare_softmax_online(x, dim) = (amax(x, dim, keepdim=True), sum(exp(x - amax), dim, keepdim=True))",
                      [dim](const std::vector<c10::IValue>& v) -> c10::IValue {
                          const at::Tensor& x = v[0].toTensor();
                          at::Tensor amax = at::amax(x, {dim}, true);
                          at::Tensor sum = at::sum(at::exp(x - amax), {dim}, true);
                          return c10::ivalue::Tuple::create(std::move(amax), std::move(sum));
                      });
    }
    throw std::invalid_argument("prims." + n.target.op + " exists only in Python and fxray has no lowering for it");
}

}  // namespace fxray::replay::detail
