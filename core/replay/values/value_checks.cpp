#include "replay/values/value_checks.h"

#include "replay/values/device_stats.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <c10/util/SmallVector.h>

#include <unordered_map>

namespace fxray::replay::detail {
namespace {

// Parsed expressions, cached: the same few texts recur on every node of a graph.
const graph::SymExpr& parsed(const std::string& text)
{
    thread_local std::unordered_map<std::string, graph::SymExpr> cache;
    auto it = cache.find(text);
    if (it == cache.end())
        it = cache.emplace(text, graph::SymExpr::parse(text)).first;
    return it->second;
}

// Expected value of a size/stride entry; binds a bare free symbol to `actual`. nullopt: cannot tell.
std::optional<std::int64_t> expect(const graph::SymDim& d, std::int64_t actual, graph::SymExpr::Bindings& b)
{
    if (d.isConstant())
        return d.value;
    try {
        const graph::SymExpr& e = parsed(d.expr);
        if (auto v = e.evaluate(b))
            return v;
        std::string sym = e.singleSymbol();
        if (!sym.empty()) {
            b[sym] = actual;
            return actual;
        }
    } catch (const std::exception&) {
        // An expression fxray cannot read is not a mismatch; it is left unchecked.
    }
    return std::nullopt;
}

std::string dims(const std::vector<std::int64_t>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// Expected sizes or strides of one tensor: on the stack for up to 8 dimensions (checked on every node of every pass).
using Expected = c10::SmallVector<std::optional<std::int64_t>, 8>;

std::string dimsExpected(const std::vector<graph::SymDim>& d, const Expected& values)
{
    std::string s = "[";
    for (std::size_t i = 0; i < d.size(); ++i) {
        s += i ? ", " : "";
        s += i < values.size() && values[i] ? std::to_string(*values[i]) : d[i].expr;
        if (i < values.size() && values[i] && !d[i].isConstant())
            s += "=" + d[i].expr;
    }
    return s + "]";
}

void checkTensor(const at::Tensor& t, const graph::TensorMeta& m, const c10::Device& replayDevice, int output,
                 graph::SymExpr::Bindings& b, std::vector<Mismatch>& out)
{
    const c10::ScalarType expectedType = toScalarType(m.dtype);
    if (t.scalar_type() != expectedType) {
        auto actual = fromScalarType(t.scalar_type());
        out.push_back({Mismatch::Kind::DType, output, std::string(graph::dtypeAbbrev(m.dtype)),
                       actual ? std::string(graph::dtypeAbbrev(*actual)) : std::string(c10::toString(t.scalar_type()))});
    }
    const auto sizes = t.sizes();
    Expected expectedSizes;
    bool sizeBad = sizes.size() != m.sizes.size();
    for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        expectedSizes.push_back(expect(m.sizes[i], i < sizes.size() ? sizes[i] : 0, b));
        if (i < sizes.size() && expectedSizes.back() && *expectedSizes.back() != sizes[i])
            sizeBad = true;
    }
    if (sizeBad) {
        out.push_back({Mismatch::Kind::Size, output, dimsExpected(m.sizes, expectedSizes), dims(sizes.vec())});
        return;  // strides of a differently shaped tensor say nothing more
    }
    if (m.strides && t.numel() > 0 && t.layout() == c10::kStrided) {
        const auto strides = t.strides();
        Expected expectedStrides;
        bool strideBad = false;
        for (std::size_t i = 0; i < m.strides->size(); ++i) {
            expectedStrides.push_back(expect((*m.strides)[i], strides[i], b));
            // Only dims of size > 1 have significant strides.
            if (sizes[i] > 1 && expectedStrides.back() && *expectedStrides.back() != strides[i])
                strideBad = true;
        }
        if (strideBad)
            out.push_back({Mismatch::Kind::Stride, output, dimsExpected(*m.strides, expectedStrides), dims(strides.vec())});
    }
    if (m.device) {
        const c10::Device want = mapDevice(*m.device, replayDevice);
        // A 0-dim CPU tensor mixes with tensors of any device in PyTorch (it acts as a scalar): kernels return
        // such tensors where the meta function said the accelerator (efficient attention's philox seed/offset),
        // and a recorded CPU scalar may have been moved to the device (compiled autograd's backend does that).
        const bool cpuScalar = t.dim() == 0 && (t.device().is_cpu() || want.is_cpu());
        if (want.type() != t.device().type() && !cpuScalar)
            out.push_back({Mismatch::Kind::Device, output, c10::DeviceTypeName(want.type(), true),
                           c10::DeviceTypeName(t.device().type(), true)});
    }
}

}  // namespace

std::vector<at::Tensor> flattenTensors(const c10::IValue& value)
{
    std::vector<at::Tensor> out;
    if (value.isTensor()) {
        out.push_back(value.toTensor());
    } else if (value.isTuple()) {
        for (const auto& e : value.toTupleRef().elements())
            for (auto& t : flattenTensors(e))
                out.push_back(std::move(t));
    } else if (value.isList()) {
        for (const auto& e : value.toListRef())
            for (auto& t : flattenTensors(e))
                out.push_back(std::move(t));
    }
    return out;
}

void checkValue(const c10::IValue& value, const graph::ValueMeta& meta, const c10::Device& replayDevice, int output,
                graph::SymExpr::Bindings& bindings, std::vector<Mismatch>& mismatches)
{
    if (meta.isTensor()) {
        if (!value.isTensor() || !value.toTensor().defined()) {
            mismatches.push_back({Mismatch::Kind::DType, output, graph::formatAnnotation(meta), describeValue(value)});
            return;
        }
        checkTensor(value.toTensor(), meta.tensor, replayDevice, output, bindings, mismatches);
        return;
    }
    if (meta.kind == graph::ValueMeta::Kind::SymInt && value.isInt() && !meta.symExpr.empty()) {
        graph::SymDim d = graph::SymDim::symbolic(meta.symExpr);
        try {
            if (auto v = graph::SymExpr::parse(meta.symExpr).evaluate({}))
                d = graph::SymDim::constant(*v);
        } catch (const std::exception&) {
        }
        auto want = expect(d, value.toInt(), bindings);
        if (want && *want != value.toInt())
            mismatches.push_back({Mismatch::Kind::Value, output, meta.symExpr, std::to_string(value.toInt())});
    }
}

OutputStats statsOf(const c10::IValue& value, bool values)
{
    OutputStats s;
    s.meta = describeValue(value);
    if (!values || !value.isTensor() || !StatsBuffer::hasStats(value.toTensor()))
        return s;
    // The same ops as a replay's deferred checks, read back at once.
    StatsBuffer one(1);
    one.queue(value.toTensor(), 0);
    s.numel = value.toTensor().numel();
    one.readBack([&](std::size_t, const StatsRow& row) {
        s.nanCount = static_cast<std::int64_t>(row.nanCount);
        s.infCount = static_cast<std::int64_t>(row.infCount);
        s.min = row.min;
        s.max = row.max;
        s.mean = row.sum / static_cast<double>(s.numel);
        s.hasValues = true;
    });
    return s;
}

OutputComparison compareOutput(const c10::IValue& actual, const c10::IValue& reference, int index, bool exact, bool tf32,
                               const std::string& computedIn)
{
    OutputComparison c;
    c.output = index;
    c.what = describeValue(actual);
    if (actual.isTensor() != reference.isTensor()) {
        c.ok = false;
        c.note = "reference is " + describeValue(reference);
        return c;
    }
    if (!actual.isTensor()) {
        if (actual.isNone() && reference.isNone())
            return c;
        const bool same = (actual.isInt() && reference.isInt() && actual.toInt() == reference.toInt()) ||
                          (actual.isDouble() && reference.isDouble() && actual.toDouble() == reference.toDouble()) ||
                          (actual.isBool() && reference.isBool() && actual.toBool() == reference.toBool());
        if (!same) {
            c.ok = false;
            c.note = "reference is " + describeValue(reference);
        }
        return c;
    }
    at::Tensor a = actual.toTensor().cpu();
    at::Tensor b = reference.toTensor().cpu();
    if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type()) {
        c.ok = false;
        c.note = "reference is " + describeValue(reference);
        return c;
    }
    if (!a.is_floating_point() && !a.is_complex()) {
        c.mismatched = a.ne(b).sum().item<std::int64_t>();
        c.ok = c.mismatched == 0;
        if (a.numel() > 0 && a.scalar_type() != at::kBool)
            c.maxAbs = (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>();
        return c;
    }
    switch (a.scalar_type()) {
    case at::kDouble: c.atol = c.rtol = 1e-7; break;
    case at::kHalf: c.atol = 1e-3; c.rtol = 1e-2; break;
    case at::kBFloat16: c.atol = 1e-2; c.rtol = 2e-2; break;
    default: c.atol = c.rtol = 1e-4; break;
    }
    if (tf32 && (a.scalar_type() == at::kFloat || a.scalar_type() == at::kComplexFloat)) {
        c.atol = c.rtol = 1e-3;
        c.note = "TF32 convolutions upstream: tolerance 1e-3";
    }
    const bool wide = a.scalar_type() == at::kFloat || a.scalar_type() == at::kDouble;
    if (wide && (computedIn == "bfloat16" || computedIn == "float16")) {
        const bool bf16 = computedIn == "bfloat16";
        c.atol = bf16 ? 1e-2 : 1e-3;
        c.rtol = bf16 ? 2e-2 : 1e-2;
        c.note = "computed from " + computedIn + " values: " + computedIn + "'s tolerance";
    }
    if (exact)
        c.atol = c.rtol = 0;
    if (a.numel() == 0)
        return c;
    if (a.is_complex()) {  // real and imaginary parts compared alike
        a = at::view_as_real(a.resolve_conj());
        b = at::view_as_real(b.resolve_conj());
    }
    const at::Tensor x = a.to(at::kDouble), y = b.to(at::kDouble);
    const at::Tensor nanA = at::isnan(x), nanB = at::isnan(y);
    if (!at::equal(nanA, nanB)) {
        c.ok = false;
        c.note = "NaNs in different places";
    }
    const at::Tensor both = at::logical_and(at::isfinite(x), at::isfinite(y));
    const at::Tensor diff = at::where(both, (x - y).abs(), at::zeros_like(x));
    c.maxAbs = diff.max().item<double>();
    c.maxRel = (diff / (y.abs() + 1e-12)).max().item<double>();
    // Absolute tolerance scales with the output's magnitude: elements that cancel to near zero inside a
    // large reduction carry the rounding of the large terms (a different CPU or summation order shows it).
    const double scale = std::max(1.0, at::where(both, y.abs(), at::zeros_like(y)).max().item<double>());
    // Infinities must match exactly (same sign, same place).
    const at::Tensor infBad = at::logical_and(at::logical_not(both), at::logical_not(at::logical_and(nanA, nanB)));
    const at::Tensor infMismatch = at::logical_and(infBad, x.ne(y));
    c.mismatched =
        (diff > (c.atol * scale + c.rtol * y.abs())).sum().item<std::int64_t>() + infMismatch.sum().item<std::int64_t>();
    c.ok = c.ok && c.mismatched == 0;
    return c;
}

}  // namespace fxray::replay::detail
