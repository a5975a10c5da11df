#include "replay/plan/inductor_prims.h"

#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>

#include <optional>
#include <stdexcept>

namespace fxray::replay::detail {

using graph::Arg;

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
        return nativePlan({operandArg(g, n.args[0], cpu)},
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
        return nativePlan({operandArg(g, n.args[0], cpu)},
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
        return nativePlan({operandArg(g, n.args[0], cpu), operandArg(g, n.args[1], cpu), operandArg(g, n.args[2], cpu)},
                      "prims.fma(a, b, c) = a * b + c (inductor's eager definition)",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return v[0].toTensor() * v[1].toTensor() + v[2].toTensor();
                      });
    if (n.target.op == "prepare_softmax_online" && n.args.size() == 2 && n.args[1].kind == Arg::Kind::Int && n.kwargs.empty()) {
        const std::int64_t dim = n.args[1].i;
        return nativePlan({operandArg(g, n.args[0], cpu)},
                      "prims.prepare_softmax_online(x, dim) = (amax(x, dim, keepdim=True), sum(exp(x - amax), dim, keepdim=True))",
                      [dim](const std::vector<c10::IValue>& v) -> c10::IValue {
                          const at::Tensor& x = v[0].toTensor();
                          at::Tensor amax = at::amax(x, {dim}, true);
                          at::Tensor sum = at::sum(at::exp(x - amax), {dim}, true);
                          return c10::ivalue::Tuple::create(std::move(amax), std::move(sum));
                      });
    }
    // Autograd's version counters (FSDP2 keeps a parameter's version across its storage swap). The replay runs under
    // InferenceMode: its tensors track no versions, and no value depends on them.
    if (n.target.op == "_tensor_version" && n.args.size() == 1)
        return nativePlan({operandArg(g, n.args[0], cpu)},
                          "prims._tensor_version: the tensor's autograd version (0: the replay runs under InferenceMode, "
                          "whose tensors track none)",
                          [](const std::vector<c10::IValue>& v) -> c10::IValue {
                              const at::Tensor& t = v[0].toTensor();
                              return t.is_inference() ? std::int64_t{0} : static_cast<std::int64_t>(t._version());
                          });
    if (n.target.op == "_unsafe_set_version_counter")
        return nativePlan({}, "prims._unsafe_set_version_counter: autograd bookkeeping, no effect on values (the replay "
                              "runs under InferenceMode, whose tensors track no versions)",
                          [](const std::vector<c10::IValue>&) { return c10::IValue(); });
    throw std::invalid_argument("prims." + n.target.op + " exists only in Python and fxray has no lowering for it");
}

}  // namespace fxray::replay::detail
