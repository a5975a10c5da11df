#include "replay/values/value_digest.h"

#include "replay/values/value_checks.h"

#include <ATen/ATen.h>

#include <cstdio>

namespace fxray::replay::detail {
namespace {

// The tensor's bits as int64 values, one per element (complex: per real component).
at::Tensor bitsOf(const at::Tensor& raw)
{
    at::Tensor t = raw.is_complex() ? at::view_as_real(raw.resolve_conj()) : raw.resolve_conj().resolve_neg();
    t = t.contiguous().reshape({-1});
    if (t.scalar_type() == at::kBool)
        return t.to(at::kByte).to(at::kLong);
    if (!t.is_floating_point())
        return t.to(at::kLong);
    switch (t.element_size()) {
    case 1: return t.view(at::kByte).to(at::kLong);  // float8 kinds
    case 2: return t.view(at::kShort).to(at::kLong);
    case 4: return t.view(at::kInt).to(at::kLong);
    default: return t.view(at::kLong);
    }
}

}  // namespace

std::string digestOf(const at::Tensor& t)
{
    if (!t.defined() || t.is_quantized() || t.is_sparse() || t.is_meta() || t.layout() != at::kStrided)
        return "";
    if (c10::isBarebonesUnsignedType(t.scalar_type()))
        return digestOf(t.to(at::kDouble));  // uint16/32/64 have few kernels; their values fit a double exactly
    const at::Tensor bits = bitsOf(t);
    const std::int64_t n = bits.numel();
    // Integer sums wrap around on overflow: still a function of the bits.
    const at::Tensor position = at::arange(1, n + 1, bits.options());
    const at::Tensor sums = at::stack({bits.sum(), (bits * position).sum()}).cpu();
    const auto* p = sums.const_data_ptr<std::int64_t>();
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(p[0]), static_cast<unsigned long long>(p[1]));
    return buf;
}

void addDigests(const c10::IValue& value, std::vector<OutputStats>& stats)
{
    const std::vector<at::Tensor> tensors = flattenTensors(value);
    for (std::size_t k = 0; k < tensors.size(); ++k) {
        if (k >= stats.size())
            stats.push_back(statsOf(c10::IValue(tensors[k]), false));
        stats[k].digest = digestOf(tensors[k]);
    }
}

}  // namespace fxray::replay::detail
