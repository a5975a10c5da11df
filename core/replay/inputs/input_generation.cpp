#include "replay/inputs/input_generation.h"

#include "base/error.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>

namespace fxray::replay::detail {
namespace {

struct Geometry {
    std::vector<std::int64_t> sizes, strides;
    std::int64_t offset = 0;
    std::int64_t baseNumel = 0;  // elements of a flat base that covers every element the strides reach
};

// Sizes come from a file: they are checked before ATen is asked for memory.
Geometry geometryOf(const graph::TensorMeta& t, const graph::Node& n, const InputSymbols& symbols, const graph::Graph& g)
{
    auto bad = [&](const std::string& why) { return Error("input '" + n.name + "': " + why, SourceLocation{g.sourceFile, n.line, 0, n.name}); };
    Geometry geo;
    for (const auto& d : t.sizes)
        geo.sizes.push_back(symbols.resolve(d, n.name));
    if (t.strides) {
        for (const auto& d : *t.strides)
            geo.strides.push_back(symbols.resolve(d, n.name));
    } else {
        auto contiguous = c10::contiguous_strides(geo.sizes);
        geo.strides.assign(contiguous.begin(), contiguous.end());
    }
    geo.offset = t.storageOffset ? symbols.resolve(*t.storageOffset, n.name) : 0;
    if (geo.strides.size() != geo.sizes.size())
        throw bad("stride has " + std::to_string(geo.strides.size()) + " entries for " + std::to_string(geo.sizes.size()) + " sizes");
    if (geo.offset < 0)
        throw bad("negative storage offset");
    std::int64_t extent = 1;
    bool empty = false, overflow = false;
    for (std::size_t d = 0; d < geo.sizes.size(); ++d) {
        if (geo.sizes[d] < 0 || geo.strides[d] < 0)
            throw bad("negative size or stride");
        empty = empty || geo.sizes[d] == 0;
        std::int64_t span = 0;
        overflow = overflow || (geo.sizes[d] > 0 && __builtin_mul_overflow(geo.sizes[d] - 1, geo.strides[d], &span)) ||
                   __builtin_add_overflow(extent, span, &extent);
    }
    geo.baseNumel = geo.offset;
    overflow = overflow || (!empty && __builtin_add_overflow(geo.offset, extent, &geo.baseNumel));
    constexpr std::int64_t kMaxBytes = std::int64_t(1) << 38;  // 256 GiB: more than any GPU here holds (H200: 141 GB)
    if (overflow || geo.baseNumel > kMaxBytes / graph::dtypeItemSize(t.dtype))
        throw bad("needs more than 256 GiB of storage (sizes/strides out of range)");
    return geo;
}

// A valid state of the generator run_with_rng_state will set, `numel` bytes: a CPU generator's (what
// torch.get_rng_state() returns), seeded from the input seed, or a CUDA generator's (seed, offset 0); other sizes
// get random bytes, which set_state then refuses with the sizes named.
at::Tensor generatorState(std::int64_t numel, at::Generator& gen)
{
    const auto u8 = at::TensorOptions().dtype(at::kByte);
    const auto seed = static_cast<std::uint64_t>(at::randint(0, std::numeric_limits<std::int64_t>::max(), {1}, gen,
                                                             at::TensorOptions().dtype(at::kLong))
                                                     .item<std::int64_t>());
    at::Tensor cpu = at::detail::createCPUGenerator(seed).get_state();
    if (cpu.numel() == numel)
        return cpu;
    if (numel == 16) {  // CUDAGeneratorImpl::get_state: seed, then the philox offset
        at::Tensor s = at::zeros({16}, u8);
        std::memcpy(s.data_ptr<std::uint8_t>(), &seed, sizeof seed);
        return s;
    }
    return at::randint(0, 256, {numel}, gen, u8);
}

// Flat CPU values of `dtype` inside `domain`.
at::Tensor fillValues(graph::DType dtype, std::int64_t numel, const graph::ValueDomain& domain, const ReplayOptions& options,
                      at::Generator& gen, const std::string& name)
{
    using K = graph::ValueDomain::Kind;
    const auto cpu = at::TensorOptions().device(c10::kCPU);
    const c10::ScalarType type = toScalarType(dtype);
    if (dtype == graph::DType::Bool)
        return at::randint(0, 2, {numel}, gen, cpu.dtype(at::kLong)).to(at::kBool);
    if (domain.kind == K::GeneratorState && type == at::kByte)
        return generatorState(numel, gen);
    if (graph::dtypeIsIntegral(dtype)) {
        const bool ranged = domain.kind == K::IntRange;
        return at::randint(ranged ? domain.low : options.intLow, ranged ? domain.high : options.intHigh, {numel}, gen,
                           cpu.dtype(at::kLong))
            .to(type);
    }
    if (!graph::dtypeIsFloating(dtype) && !graph::dtypeIsComplex(dtype))
        throw Error("cannot generate values of dtype " + std::string(graph::dtypeTorchName(dtype)) + " for '" + name + "'");
    const auto f32 = cpu.dtype(at::kFloat);
    at::Tensor v;
    if (domain.kind == K::Positive)
        v = at::rand({numel}, gen, f32) * 1.5 + (0.5 + domain.above);  // (above + 0.5, above + 2): off the pole
    else if (domain.kind == K::UnitInterval)
        v = at::rand({numel}, gen, f32) * 0.9 + 0.05;  // inside (0, 1): log(p) and log(1 - p) stay finite
    else if (domain.kind == K::Scaled)  // a weight as models initialise it, in the distribution asked for
        v = (options.floatDist == ReplayOptions::FloatDist::Uniform ? at::rand({numel}, gen, f32) : at::randn({numel}, gen, f32)) *
            domain.scale;
    else if (domain.kind == K::IntRange)
        v = at::randint(domain.low, domain.high, {numel}, gen, f32);  // float indices (rare): same range
    else
        v = options.floatDist == ReplayOptions::FloatDist::Uniform ? at::rand({numel}, gen, f32) : at::randn({numel}, gen, f32);
    return v.to(type);
}

// Sorted rows from 0 to `size` (the last entry is `size` itself when a row has two or more): every segment
// they cut is inside [0, size), as embedding_bag's and segment_reduce's kernels require.
at::Tensor sortedOffsets(at::IntArrayRef sizes, std::int64_t size, at::Generator& gen)
{
    const auto i64 = at::TensorOptions().device(c10::kCPU).dtype(at::kLong);
    at::Tensor o = std::get<0>(at::randint(0, size + 1, sizes, gen, i64).sort(-1));
    if (o.numel() == 0)
        return o;
    o.select(-1, 0).fill_(0);
    if (o.size(-1) >= 2)
        o.select(-1, -1).fill_(size);
    return o;
}

// Values whose structure spans elements (a matrix, a row of offsets), so they are drawn over the logical shape
// rather than element by element; nullopt for element-wise domains.
std::optional<at::Tensor> structuredValues(const graph::ValueDomain& domain, at::IntArrayRef sizes, at::Generator& gen)
{
    using K = graph::ValueDomain::Kind;
    const auto cpu = at::TensorOptions().device(c10::kCPU);
    if (domain.kind == K::PositiveDefinite && sizes.size() >= 2 && sizes.back() == sizes[sizes.size() - 2]) {
        // B Bᵀ / n + I: symmetric, eigenvalues at least 1, so the factorisation is well conditioned.
        const std::int64_t n = sizes.back();
        const at::Tensor b = at::randn(sizes, gen, cpu.dtype(at::kDouble));
        return b.matmul(b.mT()) / static_cast<double>(std::max<std::int64_t>(n, 1)) + at::eye(n, cpu.dtype(at::kDouble));
    }
    if (domain.kind == K::Offsets && !sizes.empty())
        return sortedOffsets(sizes, domain.high, gen);
    if (domain.kind == K::BlockIndices && !sizes.empty())
        return at::arange(sizes.back(), cpu.dtype(at::kLong)).expand(sizes).contiguous();
    if (domain.kind == K::Lengths && !sizes.empty()) {
        std::vector<std::int64_t> cuts(sizes.begin(), sizes.end());
        cuts.back() += 1;
        return sortedOffsets(cuts, domain.high, gen).diff(1, -1);
    }
    return std::nullopt;
}

}  // namespace

c10::IValue InputGenerator::makeScalar(const graph::ValueMeta& m, const graph::Node& n)
{
    if (m.kind == graph::ValueMeta::Kind::Float || m.kind == graph::ValueMeta::Kind::SymFloat) {
        double v = 1.0;  // no hint recorded: a neutral value
        if (!m.symExpr.empty()) {
            auto [ptr, ec] = std::from_chars(m.symExpr.data(), m.symExpr.data() + m.symExpr.size(), v);
            if (ec != std::errc() || ptr != m.symExpr.data() + m.symExpr.size())
                throw Error("float input '" + n.name + "' has hint '" + m.symExpr + "', not a number",
                            SourceLocation{graph.sourceFile, n.line, 0, n.name});
        }
        return v;
    }
    if (m.kind == graph::ValueMeta::Kind::SymBool)
        return m.symExpr != "False";  // a hint of True/False, else True
    std::optional<std::int64_t> v;
    if (!m.symExpr.empty())
        v = graph::SymExpr::parse(m.symExpr).evaluate(symbols.bindings());
    if (!v)
        throw Error("int input '" + n.name + "' has no recorded value or hint", SourceLocation{graph.sourceFile, n.line, 0, n.name});
    return *v;
}

c10::IValue InputGenerator::make(const graph::ValueMeta& m, const graph::Node& n, const graph::ValueDomain& domain, bool onDevice)
{
    if (!m.isTensor())
        return makeScalar(m, n);
    const graph::TensorMeta& t = m.tensor;
    const Geometry geo = geometryOf(t, n, symbols, graph);
    c10::Device dev = t.device && !onDevice ? mapDevice(*t.device, device) : device;
    if (domain.cpuScalar && geo.sizes.empty())
        dev = c10::Device(c10::kCPU);
    // The device storage first: an input that does not fit fails here at once (an OOM naming the input), before
    // minutes of generating host values and host memory that the device could never hold.
    at::Tensor placed;
    if (!dev.is_cpu()) {
        try {
            placed = at::empty({geo.baseNumel}, at::TensorOptions().dtype(toScalarType(t.dtype)).device(dev));
        } catch (const c10::Error& e) {
            const std::string what = e.what_without_backtrace();
            throw Error("input '" + n.name + "' (" + std::to_string(geo.baseNumel * graph::dtypeItemSize(t.dtype)) +
                            " bytes) does not fit on " + dev.str() + ": " + what.substr(0, what.find('\n')),
                        SourceLocation{graph.sourceFile, n.line, 0, n.name});
        }
    }
    // Values are generated on the CPU over the flat base, then viewed: identical across devices for one seed.
    at::Tensor base = fillValues(t.dtype, geo.baseNumel, domain, options, gen, n.name);
    if (auto structured = structuredValues(domain, geo.sizes, gen))
        base.as_strided(geo.sizes, geo.strides, geo.offset).copy_(*structured);
    if (placed.defined())
        placed.copy_(base);
    else
        placed = base;
    return placed.as_strided(geo.sizes, geo.strides, geo.offset);
}

}  // namespace fxray::replay::detail
