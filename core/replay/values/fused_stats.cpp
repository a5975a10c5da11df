// The one-pass statistics for ATen tensors: the CPU loop, and the CUDA kernel's jobs built from tensors.
#include "replay/values/fused_stats.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#ifdef FXRAY_HAVE_CUDA_KERNELS
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

namespace fxray::replay::detail {

namespace {

bool fusedEnabled()
{
    static const bool on = [] {
        const char* env = std::getenv("FXRAY_FUSED_STATS");
        return !(env && std::strcmp(env, "0") == 0);
    }();
    return on;
}

// t's dimensions without those of size 1, adjacent ones merged where memory makes them one: what a strided job reads.
void collapsedGeometry(const at::Tensor& t, std::vector<std::int64_t>& sizes, std::vector<std::int64_t>& strides)
{
    sizes.clear();
    strides.clear();
    for (std::int64_t d = 0; d < t.dim(); ++d) {
        if (t.size(d) == 1)
            continue;
        if (!sizes.empty() && strides.back() == t.stride(d) * t.size(d)) {
            sizes.back() *= t.size(d);
            strides.back() = t.stride(d);
        } else {
            sizes.push_back(t.size(d));
            strides.push_back(t.stride(d));
        }
    }
}

// ---- the CPU loop ----------------------------------------------------------------------------------------------

template <typename T>
double asDouble(T v)
{
    return static_cast<double>(v);
}
template <>
double asDouble(c10::Half v)
{
    return static_cast<float>(v);
}
template <>
double asDouble(c10::BFloat16 v)
{
    return static_cast<float>(v);
}

// Elements [0, n) of a contiguous range (n <= kChunk: the per-lane counters are 32-bit), in kLanes independent
// lanes of branch-free selects that the compiler turns into SIMD min/max/compare at -O2 (3x the one-lane loop here).
// Floating values are compared in float where that is exact (half, bfloat16, float), else in double; a NaN compares
// false and leaves min/max alone (statsWrite makes them NaN from the count).
constexpr int kLanes = 8;
constexpr std::int64_t kChunk = 1 << 16;

template <bool Sum, typename T>
StatsAcc<double> floatRange(const T* p, std::int64_t n)
{
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    constexpr C inf = std::numeric_limits<C>::infinity();
    C mn[kLanes], mx[kLanes];
    std::int32_t nan[kLanes] = {}, infs[kLanes] = {};
    double sum[kLanes] = {};
    for (int k = 0; k < kLanes; ++k)
        mn[k] = inf, mx[k] = -inf;
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        for (int k = 0; k < kLanes; ++k) {
            const C v = static_cast<C>(p[i + k]);
            nan[k] += v != v;
            infs[k] += (v < 0 ? -v : v) == inf;
            mn[k] = v < mn[k] ? v : mn[k];
            mx[k] = v > mx[k] ? v : mx[k];
            if constexpr (Sum)
                sum[k] += static_cast<double>(v);
        }
    }
    for (int k = 0; i < n; ++i, ++k) {  // the tail, one element per lane
        const C v = static_cast<C>(p[i]);
        nan[k] += v != v;
        infs[k] += (v < 0 ? -v : v) == inf;
        mn[k] = v < mn[k] ? v : mn[k];
        mx[k] = v > mx[k] ? v : mx[k];
        if constexpr (Sum)
            sum[k] += static_cast<double>(v);
    }
    StatsAcc<double> a;
    a.mn = inf, a.mx = -inf;
    for (int k = 0; k < kLanes; ++k) {
        a.nan += static_cast<unsigned long long>(nan[k]);
        a.inf += static_cast<unsigned long long>(infs[k]);
        a.mn = mn[k] < a.mn ? mn[k] : a.mn;
        a.mx = mx[k] > a.mx ? mx[k] : a.mx;
        a.sum += sum[k];
    }
    a.any = static_cast<unsigned long long>(n) > a.nan;
    return a;
}

template <bool Sum, typename T, typename M>
StatsAcc<M> intRange(const T* p, std::int64_t n)
{
    M mn[kLanes], mx[kLanes];
    double sum[kLanes] = {};
    for (int k = 0; k < kLanes; ++k)
        mn[k] = std::numeric_limits<M>::max(), mx[k] = std::numeric_limits<M>::lowest();
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        for (int k = 0; k < kLanes; ++k) {
            const M v = static_cast<M>(p[i + k]);
            mn[k] = v < mn[k] ? v : mn[k];
            mx[k] = v > mx[k] ? v : mx[k];
            if constexpr (Sum)
                sum[k] += static_cast<double>(v);
        }
    }
    for (int k = 0; i < n; ++i, ++k) {
        const M v = static_cast<M>(p[i]);
        mn[k] = v < mn[k] ? v : mn[k];
        mx[k] = v > mx[k] ? v : mx[k];
        if constexpr (Sum)
            sum[k] += static_cast<double>(v);
    }
    StatsAcc<M> a;
    a.mn = std::numeric_limits<M>::max(), a.mx = std::numeric_limits<M>::lowest();
    for (int k = 0; k < kLanes; ++k) {
        a.mn = mn[k] < a.mn ? mn[k] : a.mn;
        a.mx = mx[k] > a.mx ? mx[k] : a.mx;
        a.sum += sum[k];
    }
    a.any = n > 0;
    return a;
}

template <bool Sum, typename T, typename M>
StatsAcc<M> denseRange(const T* p, std::int64_t n)
{
    if constexpr (std::is_same_v<M, double>)
        return floatRange<Sum>(p, n);
    else
        return intRange<Sum, T, M>(p, n);
}

// A dense tensor: chunks of a fixed size, reduced in parallel and merged in chunk order (the sum does not depend on
// the number of threads).
template <bool Sum, typename T, typename M>
StatsAcc<M> denseStats(const T* p, std::int64_t n)
{
    if (n <= kChunk)
        return denseRange<Sum, T, M>(p, n);
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<StatsAcc<M>> parts(static_cast<std::size_t>(chunks));
    at::parallel_for(0, chunks, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t c = begin; c < end; ++c)
            parts[static_cast<std::size_t>(c)] = denseRange<Sum, T, M>(p + c * kChunk, std::min(kChunk, n - c * kChunk));
    });
    StatsAcc<M> all = parts[0];
    for (std::size_t c = 1; c < parts.size(); ++c)
        statsMerge(all, parts[c]);
    return all;
}

// A strided view, one innermost run at a time (any number of dimensions).
template <typename T, typename M>
StatsAcc<M> stridedStats(const T* p, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides)
{
    StatsAcc<M> all;
    const std::size_t nd = sizes.size();
    std::vector<std::int64_t> index(nd, 0);
    const std::int64_t inner = sizes[nd - 1], step = strides[nd - 1];
    for (;;) {
        std::int64_t off = 0;
        for (std::size_t d = 0; d + 1 < nd; ++d)
            off += index[d] * strides[d];
        for (std::int64_t i = 0; i < inner; ++i) {
            if constexpr (std::is_same_v<M, double>)
                statsAdd(all, asDouble(p[off + i * step]));
            else
                statsAdd(all, static_cast<M>(p[off + i * step]));
        }
        std::size_t d = nd - 1;
        for (; d > 0; --d) {
            if (++index[d - 1] < sizes[d - 1])
                break;
            index[d - 1] = 0;
        }
        if (d == 0)
            return all;
    }
}

template <typename T, typename M>
void cpuStats(const at::Tensor& t, double* row, bool sum)
{
    const T* p = static_cast<const T*>(t.const_data_ptr());
    StatsAcc<M> a;
    if (t.numel() == 0) {
    } else if (t.is_non_overlapping_and_dense()) {
        // Memory order: the statistics do not depend on the order (but for the sum's rounding).
        a = sum ? denseStats<true, T, M>(p, t.numel()) : denseStats<false, T, M>(p, t.numel());
    } else {
        std::vector<std::int64_t> sizes, strides;
        collapsedGeometry(t, sizes, strides);
        a = stridedStats<T, M>(p, sizes, strides);
    }
    const double keep = row[4];
    statsWrite(a, row);
    if (!sum)
        row[4] = keep;
}

}  // namespace

std::optional<StatsDType> statsDTypeOf(const at::Tensor& t)
{
    switch (t.scalar_type()) {
    case at::kFloat: return StatsDType::F32;
    case at::kDouble: return StatsDType::F64;
    case at::kHalf: return StatsDType::F16;
    case at::kBFloat16: return StatsDType::BF16;
    case at::kChar: return StatsDType::I8;
    case at::kByte: return StatsDType::U8;
    case at::kShort: return StatsDType::I16;
    case at::kUInt16: return StatsDType::U16;
    case at::kInt: return StatsDType::I32;
    case at::kUInt32: return StatsDType::U32;
    case at::kLong: return StatsDType::I64;
    case at::kUInt64: return StatsDType::U64;
    case at::kBool: return StatsDType::Bool;
    default: return std::nullopt;  // float8, complex, quantized, ...
    }
}

bool fusedStatsHaveCudaKernel()
{
#ifdef FXRAY_HAVE_CUDA_KERNELS
    return true;
#else
    return false;
#endif
}

at::Tensor statsRows(const c10::Device& device, std::int64_t rows, double** host)
{
    *host = nullptr;
    const at::TensorOptions options = at::TensorOptions().dtype(at::kDouble).device(device);
#ifdef FXRAY_HAVE_CUDA_KERNELS
    static const bool mapped = [] {
        const char* env = std::getenv("FXRAY_STATS_MAPPED");
        return !(env && std::strcmp(env, "0") == 0);
    }();
    if (mapped && device.is_cuda() && fusedEnabled()) {
        // The tensor's device needs its index (a replay's device always has one; "cuda" alone means the current).
        const c10::Device on = device.has_index() ? device : c10::Device(c10::kCUDA, c10::cuda::current_device());
        const c10::cuda::CUDAGuard guard(on);
        void* hostPtr = nullptr;
        void* devicePtr = nullptr;
        const char* error = nullptr;
        const std::size_t bytes = static_cast<std::size_t>(rows) * 5 * sizeof(double);
        const int rc = statsHostAlloc(bytes, &hostPtr, &devicePtr, &error);
        TORCH_CHECK(rc == 0, "CUDA error: ", error ? error : "unknown", " (allocating ", bytes,
                    " bytes of mapped host memory for the statistics)");
        *host = static_cast<double*>(hostPtr);
        // A CUDA tensor over the mapped memory: the kernels (ours and ATen's fallback reductions) write it as any.
        return at::from_blob(devicePtr, {rows, 5}, [hostPtr](void*) { statsHostFree(hostPtr); }, options.device(on), on);
    }
#endif
    return at::zeros({rows, 5}, options);
}

void statsWait(const c10::Device& device)
{
#ifdef FXRAY_HAVE_CUDA_KERNELS
    if (device.is_cuda())
        c10::cuda::getCurrentCUDAStream(device.index()).synchronize();
#else
    (void)device;
#endif
}

bool statsCapturing(const c10::Device& device)
{
#ifdef FXRAY_HAVE_CUDA_KERNELS
    if (device.is_cuda()) {
        const c10::cuda::CUDAGuard guard(device);
        return c10::cuda::currentStreamCaptureStatusMayInitCtx() != c10::cuda::CaptureStatus::None;
    }
#else
    (void)device;
#endif
    return false;
}

int fusedStatsToPresence(void* cudaGraph, void* cudaGraphExec, std::string& error)
{
    error.clear();
#ifdef FXRAY_HAVE_CUDA_KERNELS
    int switched = 0;
    const char* why = nullptr;
    if (statsGraphToPresence(cudaGraph, cudaGraphExec, &switched, &why) != 0)
        error = std::string("CUDA error: ") + (why ? why : "unknown") + " (turning the captured statistics into NaN/Inf " +
                "presence checks, after " + std::to_string(switched) + " launch(es))";
    return switched;
#else
    (void)cudaGraph, (void)cudaGraphExec;
    return 0;
#endif
}

bool fusedStatsHandle(const at::Tensor& t)
{
    if (!fusedEnabled() || !t.defined() || t.layout() != at::kStrided || t.is_neg() || t.is_conj() ||
        !statsDTypeOf(t))
        return false;
    if (t.device().is_cpu())
        return true;
    if (!t.device().is_cuda() || !fusedStatsHaveCudaKernel())
        return false;
    if (t.is_non_overlapping_and_dense())
        return true;
    std::vector<std::int64_t> sizes, strides;
    collapsedGeometry(t, sizes, strides);
    return sizes.size() <= static_cast<std::size_t>(kStatsMaxDims);
}

void fusedStatsCpu(const at::Tensor& t, double* row, bool sum)
{
    switch (*statsDTypeOf(t)) {
    case StatsDType::F32: return cpuStats<float, double>(t, row, sum);
    case StatsDType::F64: return cpuStats<double, double>(t, row, sum);
    case StatsDType::F16: return cpuStats<c10::Half, double>(t, row, sum);
    case StatsDType::BF16: return cpuStats<c10::BFloat16, double>(t, row, sum);
    case StatsDType::I8: return cpuStats<std::int8_t, long long>(t, row, sum);
    case StatsDType::U8: return cpuStats<std::uint8_t, unsigned long long>(t, row, sum);
    case StatsDType::I16: return cpuStats<std::int16_t, long long>(t, row, sum);
    case StatsDType::U16: return cpuStats<std::uint16_t, unsigned long long>(t, row, sum);
    case StatsDType::I32: return cpuStats<std::int32_t, long long>(t, row, sum);
    case StatsDType::U32: return cpuStats<std::uint32_t, unsigned long long>(t, row, sum);
    case StatsDType::I64: return cpuStats<std::int64_t, long long>(t, row, sum);
    case StatsDType::U64: return cpuStats<std::uint64_t, unsigned long long>(t, row, sum);
    case StatsDType::Bool: return cpuStats<bool, unsigned long long>(t, row, sum);
    }
}

void fusedStatsCuda(const std::vector<CudaStatsItem>& items)
{
    if (items.empty())
        return;
#ifdef FXRAY_HAVE_CUDA_KERNELS
    const c10::Device device = items.front().tensor.device();
    const c10::cuda::CUDAGuard guard(device);
    const int sms = statsMultiprocessors(device.index());
    void* stream = c10::cuda::getCurrentCUDAStream(device.index()).stream();
    std::vector<std::int64_t> sizes, strides;
    std::vector<StatsJob> jobs;
    jobs.reserve(std::min<std::size_t>(items.size(), kStatsMaxJobs));
    std::int64_t scratchBlocks = 0;
    int strided = 0;
    // FXRAY_STATS_TIMING=1: each launch outside a CUDA-graph capture timed on the GPU by events around it, printed to
    // stderr (a developer's probe of the kernel's own cost: no profiler runs on the GPU machines).
    static const bool timing = [] {
        const char* env = std::getenv("FXRAY_STATS_TIMING");
        return env && std::strcmp(env, "1") == 0;
    }();
    // One launch for what is batched so far; the scratch of its multi-block jobs is freed after it is queued, which
    // the caching allocator keeps stream-ordered.
    auto launch = [&] {
        if (jobs.empty())
            return;
        at::Tensor scratch;
        if (scratchBlocks > 0)
            scratch = at::empty({scratchBlocks * kStatsPartialWords}, at::TensorOptions().dtype(at::kDouble).device(device));
        std::optional<at::cuda::CUDAEvent> before, after;
        if (timing && !statsCapturing(device)) {
            before.emplace(cudaEventDefault), after.emplace(cudaEventDefault);
            before->record(c10::cuda::getCurrentCUDAStream(device.index()));
        }
        const char* error = nullptr;
        const int rc = launchFusedStats(jobs.data(), static_cast<int>(jobs.size()),
                                        scratch.defined() ? scratch.data_ptr<double>() : nullptr, stream, &error);
        if (before && rc == 0) {
            after->record(c10::cuda::getCurrentCUDAStream(device.index()));
            after->synchronize();
            std::int64_t elements = 0, blocks = 0;
            for (const StatsJob& j : jobs)
                elements += j.numel, blocks += j.blocks;
            std::fprintf(stderr, "fxray stats kernel: %zu jobs, %lld blocks, %lld elements: %.2f us\n", jobs.size(),
                         static_cast<long long>(blocks), static_cast<long long>(elements), 1000.0 * before->elapsed_time(*after));
        }
        jobs.clear();
        scratchBlocks = 0;
        strided = 0;
        TORCH_CHECK(rc == 0, "CUDA error: ", error ? error : "unknown", " (launching the fused statistics kernel)");
    };
    for (const CudaStatsItem& item : items) {
        const at::Tensor& t = item.tensor;
        TORCH_CHECK(t.device() == device, "fused statistics: one batch, one device");
        StatsJob j;
        j.data = t.const_data_ptr();
        j.numel = t.numel();
        j.dtype = *statsDTypeOf(t);
        j.row = item.row;
        j.counter = item.counter;
        if (!t.is_non_overlapping_and_dense()) {
            collapsedGeometry(t, sizes, strides);
            TORCH_CHECK(sizes.size() <= static_cast<std::size_t>(kStatsMaxDims), "fused statistics: ", sizes.size(),
                        " strided dimensions");
            j.geometry.ndim = static_cast<std::int32_t>(sizes.size());
            std::copy(sizes.begin(), sizes.end(), j.geometry.sizes);
            std::copy(strides.begin(), strides.end(), j.geometry.strides);
        }
        if (jobs.size() == static_cast<std::size_t>(kStatsMaxJobs) || (j.geometry.ndim > 0 && strided == kStatsMaxStrided))
            launch();
        strided += j.geometry.ndim > 0 ? 1 : 0;
        j.blocks = statsBlocksFor(j.numel, sms);
        if (j.blocks > 1) {
            j.scratchOffset = static_cast<std::int32_t>(scratchBlocks);
            scratchBlocks += j.blocks;
        }
        jobs.push_back(j);
    }
    launch();
#else
    TORCH_CHECK(false, "fused statistics: this build has no CUDA kernel (nvcc was not found)");
#endif
}

}  // namespace fxray::replay::detail
