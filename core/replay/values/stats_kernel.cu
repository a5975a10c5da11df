// The one-pass output statistics on CUDA: one launch reduces up to kStatsMaxJobs tensors (the outputs of consecutive
// nodes), each read once, each into its row of the statistics buffer. Replaces five ATen reductions per output (isnan+sum,
// isinf+sum, aminmax, a copy, sum): the launches, not the bytes, were the cost (bench/README, issue 24).
// The launch's grid is flat: each job gets its blocks one after the other (no idle blocks of a 2-D grid sized by the
// largest job). A thread loads kStatsUnroll elements at once before reducing them: these kernels are short and bound
// by memory latency, not bandwidth. A job of one block writes its row itself; a job of several blocks leaves
// per-block partials in the launch's scratch and the last block to finish (an atomic ticket per row) merges them in
// block order, so the sum is deterministic.
// No host sync, no allocation: the launch can be captured into a CUDA graph. After a captured graph's first replay,
// statsGraphToPresence may swap each captured launch for nanPresenceKernel (same parameters): NaN/Inf presence only.
#include "replay/values/stats_kernel.h"

#include <atomic>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace fxray::replay::detail {
namespace {

constexpr int kThreads = kStatsThreads;
constexpr unsigned kFullMask = 0xffffffffu;

// A job as the kernel reads it (StatsJob without its geometry, which only strided jobs have): 48 bytes.
struct DeviceJob {
    const void* data;
    long long numel;
    double* row;
    unsigned int* counter;
    int blocks;
    int firstBlock;  // its first block in the launch's flat grid
    int scratchOffset;
    short dtype;     // StatsDType
    short geometry;  // -1: dense; else its index in Params::geometry
};
static_assert(sizeof(DeviceJob) == 48, "the jobs travel as kernel parameters: keep them small");

template <int J>
struct Params {
    DeviceJob j[J];
    StatsGeometry geometry[kStatsMaxStrided];
    int n;
};
static_assert(sizeof(Params<kStatsMaxJobs>) <= 4000, "kernel parameters are limited to 4 KiB");

// Element type T as stored, and M, the type its min and max are compared in (exact for every element): float for
// float, half and bfloat16, double for double, the integer widened to long long / unsigned long long for integers (bool
// is read as uint8). Floating elements are summed as double.
template <StatsDType D>
struct Elem;
template <>
struct Elem<StatsDType::F32> {
    using T = float;
    using M = float;
    __device__ static M value(T v) { return v; }
};
template <>
struct Elem<StatsDType::F64> {
    using T = double;
    using M = double;
    __device__ static M value(T v) { return v; }
};
template <>
struct Elem<StatsDType::F16> {
    using T = unsigned short;
    using M = float;
    __device__ static M value(T v) { return __half2float(__ushort_as_half(v)); }
};
template <>
struct Elem<StatsDType::BF16> {
    using T = unsigned short;
    using M = float;
    __device__ static M value(T v) { return __uint_as_float(static_cast<unsigned>(v) << 16); }  // float's upper half
};
#define FXRAY_INT_ELEM(D, Stored, Compared)                                                                           \
    template <>                                                                                                       \
    struct Elem<StatsDType::D> {                                                                                      \
        using T = Stored;                                                                                             \
        using M = Compared;                                                                                           \
        __device__ static M value(T v) { return static_cast<M>(v); }                                                  \
    };
FXRAY_INT_ELEM(I8, signed char, long long)
FXRAY_INT_ELEM(U8, unsigned char, unsigned long long)
FXRAY_INT_ELEM(I16, short, long long)
FXRAY_INT_ELEM(U16, unsigned short, unsigned long long)
FXRAY_INT_ELEM(I32, int, long long)
FXRAY_INT_ELEM(U32, unsigned int, unsigned long long)
FXRAY_INT_ELEM(I64, long long, long long)
FXRAY_INT_ELEM(U64, unsigned long long, unsigned long long)
#undef FXRAY_INT_ELEM

// Running statistics of a thread, a warp, a block (counts C = unsigned: a block reads fewer than 2^32 elements) or a
// whole job (C = unsigned long long). No "any element seen" flag and no branches: min and max start at the identity of
// fmin/fmax (+inf, -inf; NaN is skipped by them and counted instead) or of the integer type, so a block that read
// nothing merges as a no-op; a row's min/max are NaN when a NaN was counted, as aminmax gives.
template <typename M>
__device__ constexpr M minIdentity()
{
    if constexpr (std::is_floating_point_v<M>)
        return std::numeric_limits<M>::infinity();
    else
        return std::numeric_limits<M>::max();
}
template <typename M>
__device__ constexpr M maxIdentity()
{
    if constexpr (std::is_floating_point_v<M>)
        return -std::numeric_limits<M>::infinity();
    else
        return std::numeric_limits<M>::lowest();
}
template <typename M, typename C>
struct Acc {
    C nan = 0, inf = 0;
    M mn = minIdentity<M>(), mx = maxIdentity<M>();
    double sum = 0;
};
__device__ float lesser(float a, float b) { return fminf(a, b); }
__device__ float greater(float a, float b) { return fmaxf(a, b); }
__device__ double lesser(double a, double b) { return fmin(a, b); }
__device__ double greater(double a, double b) { return fmax(a, b); }
__device__ long long lesser(long long a, long long b) { return min(a, b); }
__device__ long long greater(long long a, long long b) { return max(a, b); }
__device__ unsigned long long lesser(unsigned long long a, unsigned long long b) { return min(a, b); }
__device__ unsigned long long greater(unsigned long long a, unsigned long long b) { return max(a, b); }

template <typename M, typename C>
__device__ void add(Acc<M, C>& a, M v)
{
    a.sum += static_cast<double>(v);
    if constexpr (std::is_floating_point_v<M>) {
        a.nan += v != v ? 1 : 0;
        a.inf += (v - v != v - v && v == v) ? 1 : 0;  // inf - inf is NaN; no <cmath> isinf on the device
    }
    a.mn = lesser(a.mn, v), a.mx = greater(a.mx, v);
}
template <typename M, typename C>
__device__ void merge(Acc<M, C>& a, const Acc<M, C>& b)
{
    a.nan += b.nan, a.inf += b.inf, a.sum += b.sum;
    a.mn = lesser(a.mn, b.mn), a.mx = greater(a.mx, b.mx);
}

// An Acc as five 8-byte words (in shared memory between warps, in global memory between blocks).
__device__ unsigned long long bitsOf(float v) { return __float_as_uint(v); }
__device__ unsigned long long bitsOf(double v) { return static_cast<unsigned long long>(__double_as_longlong(v)); }
__device__ unsigned long long bitsOf(long long v) { return static_cast<unsigned long long>(v); }
__device__ unsigned long long bitsOf(unsigned long long v) { return v; }
template <typename M>
__device__ M fromBits(unsigned long long b)
{
    if constexpr (std::is_same_v<M, float>)
        return __uint_as_float(static_cast<unsigned>(b));
    else if constexpr (std::is_same_v<M, double>)
        return __longlong_as_double(static_cast<long long>(b));
    else
        return static_cast<M>(b);
}
template <typename M, typename C>
__device__ void storeWords(unsigned long long* w, const Acc<M, C>& a)
{
    w[0] = a.nan, w[1] = a.inf, w[2] = bitsOf(a.mn), w[3] = bitsOf(a.mx), w[4] = bitsOf(a.sum);
}
// Global: another block's partial, read with __ldcg (ld.global.cg: past L1). Shared: a warp's, in the block's shared
// memory, which ld.global cannot address (on the H100: cudaErrorInvalidAddressSpace).
template <typename M, typename C, bool Global>
__device__ Acc<M, C> loadWords(const unsigned long long* w)
{
    auto load = [](const unsigned long long* p) {
        if constexpr (Global)
            return __ldcg(p);
        else
            return *p;
    };
    Acc<M, C> a;
    a.nan = static_cast<C>(load(w)), a.inf = static_cast<C>(load(w + 1));
    a.mn = fromBits<M>(load(w + 2)), a.mx = fromBits<M>(load(w + 3));
    a.sum = fromBits<double>(load(w + 4));
    return a;
}
constexpr int kWords = kStatsPartialWords;

template <typename M, typename C>
__device__ Acc<M, C> shuffleDown(const Acc<M, C>& a, int delta)
{
    Acc<M, C> b;
    b.nan = __shfl_down_sync(kFullMask, a.nan, delta);
    b.inf = __shfl_down_sync(kFullMask, a.inf, delta);
    b.mn = __shfl_down_sync(kFullMask, a.mn, delta);
    b.mx = __shfl_down_sync(kFullMask, a.mx, delta);
    b.sum = __shfl_down_sync(kFullMask, a.sum, delta);
    return b;
}

// The warps' partials in shared memory: one array for every instantiation of blockReduce (a __shared__ variable of a
// template would be one per instantiation, all allocated at once).
__device__ __forceinline__ unsigned long long (&warpWords())[kThreads / 32][kWords]
{
    __shared__ unsigned long long words[kThreads / 32][kWords];
    return words;
}

// The block's statistics, in thread 0 (merged in a fixed order: deterministic).
template <typename M, typename C>
__device__ Acc<M, C> blockReduce(Acc<M, C> a)
{
    auto& warps = warpWords();
    for (int d = 16; d > 0; d >>= 1)
        merge(a, shuffleDown(a, d));
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        storeWords(warps[warp], a);
    __syncthreads();
    if (warp == 0) {
        a = lane < kThreads / 32 ? loadWords<M, C, false>(warps[lane]) : Acc<M, C>{};
        for (int d = 16; d > 0; d >>= 1)
            merge(a, shuffleDown(a, d));
    }
    __syncthreads();  // warps[] may be reused by the next blockReduce
    return a;
}

// The row: {nan, inf, min, max, sum}.
template <typename M, typename C>
__device__ void writeRow(const Acc<M, C>& a, double* row)
{
    row[0] = static_cast<double>(a.nan);
    row[1] = static_cast<double>(a.inf);
    row[2] = a.nan > 0 ? __longlong_as_double(0x7ff8000000000000LL) : static_cast<double>(a.mn);
    row[3] = a.nan > 0 ? __longlong_as_double(0x7ff8000000000000LL) : static_cast<double>(a.mx);
    row[4] = a.sum;
}

// Whether this block is the last of its job to finish (one for every dtype's reduceJob, as warpWords()).
__device__ __forceinline__ bool& lastBlock()
{
    __shared__ bool last;
    return last;
}

// A strided element's offset: one copy of the 64-bit divisions for every dtype, as strided jobs are the rare ones.
__device__ __noinline__ long long stridedAt(const StatsGeometry& g, long long i) { return stridedOffset(g, i); }

// Block `block` (of job.blocks) of one job. Rounds of kThreads * kStatsUnroll elements: each thread first loads its
// kStatsUnroll elements (coalesced across the warp, all in flight together), then adds them up.
template <StatsDType D>
__device__ void reduceJob(const DeviceJob& job, const StatsGeometry* geometry, int block, double* scratch)
{
    using E = Elem<D>;
    using T = typename E::T;
    using M = typename E::M;
    const T* p = static_cast<const T*>(job.data);
    Acc<M, unsigned> acc;
    const long long n = job.numel;
    const long long round = static_cast<long long>(kThreads) * kStatsUnroll;
    const long long step = round * job.blocks;
    for (long long base = static_cast<long long>(block) * round + threadIdx.x; base < n; base += step) {
        T raw[kStatsUnroll];
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k) {
            const long long i = base + static_cast<long long>(k) * kThreads;
            raw[k] = i < n ? p[geometry == nullptr ? i : stridedAt(*geometry, i)] : T{};
        }
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k)
            if (base + static_cast<long long>(k) * kThreads < n)
                add(acc, E::value(raw[k]));
    }
    acc = blockReduce(acc);
    if (job.blocks == 1) {
        if (threadIdx.x == 0)
            writeRow(acc, job.row);
        return;
    }
    // Several blocks: publish this block's partial; the last block to arrive merges them all.
    auto* partials = reinterpret_cast<unsigned long long*>(scratch) + static_cast<long long>(kWords) * job.scratchOffset;
    bool& last = lastBlock();
    if (threadIdx.x == 0) {
        storeWords(partials + kWords * block, acc);
        __threadfence();
        last = atomicAdd(job.counter, 1u) == static_cast<unsigned>(job.blocks - 1);
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    Acc<M, unsigned long long> all;
    for (int b = threadIdx.x; b < job.blocks; b += blockDim.x)
        merge(all, loadWords<M, unsigned long long, true>(partials + kWords * b));
    all = blockReduce(all);
    if (threadIdx.x == 0) {
        writeRow(all, job.row);
        *job.counter = 0;  // ready for the next launch on this row (a CUDA graph's next replay)
    }
}

// The job block b belongs to: the last one whose first block is <= b (the grid is flat, jobs one after the other).
// fusedStatsKernel writes the same search out itself: calling this from there reschedules that kernel's code (same
// instructions, other order and registers, compared with nvdisasm), and its code is kept as it ran and was measured
// on the H100 (session 23) until a GPU run measures another.
template <int J>
__device__ const DeviceJob& jobOfBlock(const Params<J>& params, int b)
{
    int lo = 0, hi = params.n - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (params.j[mid].firstBlock <= b)
            lo = mid;
        else
            hi = mid - 1;
    }
    return params.j[lo];
}

// One launch: block b belongs to the last job whose first block is <= b. __grid_constant__: the jobs are read where
// the parameters are, never copied per thread.
template <int J>
__global__ void __launch_bounds__(kThreads) fusedStatsKernel(const __grid_constant__ Params<J> params, double* scratch)
{
    const int b = static_cast<int>(blockIdx.x);
    int lo = 0, hi = params.n - 1;  // jobOfBlock, written out (see there)
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (params.j[mid].firstBlock <= b)
            lo = mid;
        else
            hi = mid - 1;
    }
    const DeviceJob& job = params.j[lo];
    const StatsGeometry* geometry = job.geometry < 0 ? nullptr : &params.geometry[job.geometry];
    const int block = b - job.firstBlock;
    switch (static_cast<StatsDType>(job.dtype)) {
    case StatsDType::F32: reduceJob<StatsDType::F32>(job, geometry, block, scratch); break;
    case StatsDType::F64: reduceJob<StatsDType::F64>(job, geometry, block, scratch); break;
    case StatsDType::F16: reduceJob<StatsDType::F16>(job, geometry, block, scratch); break;
    case StatsDType::BF16: reduceJob<StatsDType::BF16>(job, geometry, block, scratch); break;
    case StatsDType::I8: reduceJob<StatsDType::I8>(job, geometry, block, scratch); break;
    case StatsDType::U8: reduceJob<StatsDType::U8>(job, geometry, block, scratch); break;
    case StatsDType::I16: reduceJob<StatsDType::I16>(job, geometry, block, scratch); break;
    case StatsDType::U16: reduceJob<StatsDType::U16>(job, geometry, block, scratch); break;
    case StatsDType::I32: reduceJob<StatsDType::I32>(job, geometry, block, scratch); break;
    case StatsDType::U32: reduceJob<StatsDType::U32>(job, geometry, block, scratch); break;
    case StatsDType::I64: reduceJob<StatsDType::I64>(job, geometry, block, scratch); break;
    case StatsDType::U64: reduceJob<StatsDType::U64>(job, geometry, block, scratch); break;
    case StatsDType::Bool: reduceJob<StatsDType::U8>(job, geometry, block, scratch); break;  // bytes of 0 and 1
    }
}

// NaN/Inf presence only, for the replays of a captured graph after its first (statsGraphToPresence swaps this kernel
// in for fusedStatsKernel, parameters unchanged): naming the first node that made NaN/Inf needs only whether each
// output holds any, and this is the least a check can read (bench/README: ~2.8 us instead of ~8.7 us on embed_ce's
// forward). An element's bits against the dtype's infinity (statsBitsNonFinite), so one loop serves every floating
// dtype. A warp that sees one stores 1 into the row's NaN or Inf column (every such store
// writes the same value: no atomics, no merge, no ticket); a clean output writes nothing, so the host zeroes a row it
// read as non-zero (StatsBuffer::peek). Integer outputs hold neither: their blocks return at once.
template <typename Bits, Bits kInf>
__device__ void presenceOfJob(const DeviceJob& job, const StatsGeometry* geometry, int block)
{
    const Bits* p = static_cast<const Bits*>(job.data);
    const long long n = job.numel;
    const long long round = static_cast<long long>(kThreads) * kStatsUnroll;
    bool nan = false, inf = false;
    for (long long base = static_cast<long long>(block) * round + threadIdx.x; base < n; base += round * job.blocks) {
        Bits raw[kStatsUnroll];
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k) {
            const long long i = base + static_cast<long long>(k) * kThreads;
            raw[k] = i < n ? p[geometry == nullptr ? i : stridedAt(*geometry, i)] : Bits{0};
        }
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k)
            statsBitsNonFinite<Bits, kInf>(raw[k], nan, inf);
    }
    nan = __any_sync(kFullMask, nan);
    inf = __any_sync(kFullMask, inf);
    if (threadIdx.x % 32 == 0) {
        if (nan)
            job.row[0] = 1;
        if (inf)
            job.row[1] = 1;
    }
}

template <int J>
__global__ void __launch_bounds__(kThreads) nanPresenceKernel(const __grid_constant__ Params<J> params, double*)
{
    const int b = static_cast<int>(blockIdx.x);
    const DeviceJob& job = jobOfBlock(params, b);
    const StatsGeometry* geometry = job.geometry < 0 ? nullptr : &params.geometry[job.geometry];
    const int block = b - job.firstBlock;
    switch (static_cast<StatsDType>(job.dtype)) {
    case StatsDType::F32: presenceOfJob<std::uint32_t, kStatsF32InfBits>(job, geometry, block); break;
    case StatsDType::F64: presenceOfJob<std::uint64_t, kStatsF64InfBits>(job, geometry, block); break;
    case StatsDType::F16: presenceOfJob<std::uint16_t, kStatsF16InfBits>(job, geometry, block); break;
    case StatsDType::BF16: presenceOfJob<std::uint16_t, kStatsBF16InfBits>(job, geometry, block); break;
    default: break;  // integers and bool: never NaN or Inf
    }
}

// Packs jobs[0, n) into the parameters of the kernel for up to J jobs and launches it.
template <int J>
cudaError_t launchPacked(const StatsJob* jobs, int n, double* scratch, cudaStream_t stream)
{
    Params<J> params{};
    int blocks = 0, strided = 0;
    for (int k = 0; k < n; ++k) {
        const StatsJob& in = jobs[k];
        DeviceJob& out = params.j[k];
        out.data = in.data;
        out.numel = in.numel;
        out.row = in.row;
        out.counter = in.counter;
        out.blocks = in.blocks;
        out.firstBlock = blocks;
        out.scratchOffset = in.scratchOffset;
        out.dtype = static_cast<short>(in.dtype);
        out.geometry = -1;
        if (in.geometry.ndim > 0) {
            if (strided == kStatsMaxStrided)
                return cudaErrorInvalidValue;  // the caller batches at most kStatsMaxStrided strided jobs
            params.geometry[strided] = in.geometry;
            out.geometry = static_cast<short>(strided++);
        }
        blocks += in.blocks;
    }
    params.n = n;
    fusedStatsKernel<J><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(params, scratch);
    return cudaGetLastError();
}

}  // namespace

// Multiprocessors of a device (blocks per job are capped at twice that), asked once per device.
int statsMultiprocessors(int device)
{
    static std::atomic<int> known[64] = {};  // replays on several threads may ask at once
    if (device < 0 || device >= 64)
        return 1;
    int sms = known[device].load(std::memory_order_relaxed);
    if (sms == 0) {
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0)
            sms = 1, (void)cudaGetLastError();  // not left for the next launch's check to find
        known[device].store(sms, std::memory_order_relaxed);
    }
    return sms;
}

int statsHostAlloc(std::size_t bytes, void** host, void** device, const char** error)
{
    *host = *device = nullptr;
    // Portable: usable from every device; mapped: a device address for it (with unified addressing, the same value).
    cudaError_t e = cudaHostAlloc(host, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess) {
        std::memset(*host, 0, bytes);
        e = cudaHostGetDevicePointer(device, *host, 0);
        if (e != cudaSuccess) {
            (void)cudaFreeHost(*host);
            *host = *device = nullptr;
        }
    }
    if (e != cudaSuccess) {
        (void)cudaGetLastError();  // not left for the next launch's check to find
        if (error)
            *error = cudaGetErrorString(e);
    }
    return static_cast<int>(e);
}

void statsHostFree(void* host)
{
    if (host && cudaFreeHost(host) != cudaSuccess)
        (void)cudaGetLastError();
}

int statsGraphToPresence(void* graph, void* exec, int* switched, const char** error)
{
    *switched = 0;
    auto failed = [&](cudaError_t e) {
        (void)cudaGetLastError();  // not left for the next launch's check to find
        if (error)
            *error = cudaGetErrorString(e);
        return static_cast<int>(e);
    };
    const auto g = static_cast<cudaGraph_t>(graph);
    std::size_t count = 0;
    if (const cudaError_t e = cudaGraphGetNodes(g, nullptr, &count); e != cudaSuccess)
        return failed(e);
    std::vector<cudaGraphNode_t> nodes(count);
    if (const cudaError_t e = cudaGraphGetNodes(g, nodes.data(), &count); e != cudaSuccess)
        return failed(e);
    const void* full = reinterpret_cast<const void*>(&fusedStatsKernel<kStatsMaxJobs>);
    const void* presence = reinterpret_cast<const void*>(&nanPresenceKernel<kStatsMaxJobs>);
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type{};
        if (cudaGraphNodeGetType(node, &type) != cudaSuccess || type != cudaGraphNodeTypeKernel) {
            (void)cudaGetLastError();
            continue;
        }
        cudaKernelNodeParams params{};
        // Other libraries' kernels (cuBLAS's, launched through the driver) may not be described to the runtime:
        // they are not ours either way.
        if (cudaGraphKernelNodeGetParams(node, &params) != cudaSuccess) {
            (void)cudaGetLastError();
            continue;
        }
        if (params.func != full)
            continue;
        params.func = const_cast<void*>(presence);  // same parameters: the jobs, their rows, the scratch pointer
        if (const cudaError_t e = cudaGraphExecKernelNodeSetParams(static_cast<cudaGraphExec_t>(exec), node, &params);
            e != cudaSuccess)
            return failed(e);
        ++*switched;
    }
    return 0;
}

int launchFusedStats(const StatsJob* jobs, int n, double* scratch, void* stream, const char** error)
{
    if (n <= 0)
        return 0;
    if (n > kStatsMaxJobs) {
        if (error)
            *error = "more jobs than one launch takes";
        return static_cast<int>(cudaErrorInvalidValue);
    }
    const cudaError_t e = launchPacked<kStatsMaxJobs>(jobs, n, scratch, static_cast<cudaStream_t>(stream));
    if (e != cudaSuccess && error)
        *error = cudaGetErrorString(e);
    return static_cast<int>(e);
}

}  // namespace fxray::replay::detail
