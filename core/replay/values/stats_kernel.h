#pragma once
// Internal to core/replay: the one-pass output statistics (NaN count, Inf count, min, max, double sum) of the CPU loop
// (fused_stats.cpp) and the CUDA kernel (stats_kernel.cu): their jobs, layout and semantics. Plain C++ that nvcc and the host compiler both
// read: no ATen and no CUDA headers, so the .cu stays a quick compile and the CPU-only build never needs nvcc.
//
// Semantics are those of the ATen reductions StatsBuffer used before (device_stats.cpp's fallback):
//   - floating dtypes: NaN and Inf counted; min and max are NaN when any element is NaN (aminmax propagates NaN),
//     else the smallest and largest, infinities included; the sum is the double sum of every element (NaN when a NaN
//     is there, NaN for +Inf and -Inf together), each element converted to double first (sum(t, dtype=double));
//   - integer and bool dtypes: NaN/Inf counts 0; min/max compared in the integer type, then converted to double
//     (aminmax then copy_ into a double row); the sum in double of each element converted to double;
//   - empty: counts 0, sum 0, min and max 0 (StatsBuffer never queues an empty tensor: hasStats).
// Only the sum's rounding may differ from ATen's: elements are added in another order (both in double).
#include <cstddef>
#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define FXRAY_HD __host__ __device__ __forceinline__
#else
#define FXRAY_HD inline
#endif

namespace fxray::replay::detail {

// The element types the one-pass statistics read (anything else takes the ATen path).
enum class StatsDType : std::int32_t { F32, F64, F16, BF16, I8, U8, I16, U16, I32, U32, I64, U64, Bool };

// Largest number of dimensions of a strided (not dense) tensor; denser layouts are read as one flat range.
constexpr int kStatsMaxDims = 8;
// Tensors reduced by one kernel launch (the outputs of consecutive nodes, up to the next node that may write to
// them): their compact descriptions travel as the kernel's parameters, under the 4 KiB every architecture takes
// (stats_kernel.cu: 64 x 48 bytes, plus the geometry of at most kStatsMaxStrided strided ones). A launch costs the
// host ~3-5 us and a captured CUDA graph a node of its own: the fewer, the better.
constexpr int kStatsMaxJobs = 64;
// Strided (not dense) tensors per launch: their sizes and strides (136 bytes each) travel beside the jobs.
constexpr int kStatsMaxStrided = 4;

// A strided tensor's dimensions (sizes of 1 dropped, mergeable ones merged), in elements.
struct StatsGeometry {
    std::int32_t ndim = 0;
    std::int64_t sizes[kStatsMaxDims] = {};
    std::int64_t strides[kStatsMaxDims] = {};
};

// One tensor to reduce into one row of 5 doubles: {nan, inf, min, max, sum}.
struct StatsJob {
    const void* data = nullptr;  // first element (storage offset applied)
    std::int64_t numel = 0;
    StatsDType dtype = StatsDType::F32;
    StatsGeometry geometry;            // ndim 0: dense, read data[0, numel) in memory order
    double* row = nullptr;             // where the 5 numbers go
    unsigned int* counter = nullptr;   // blocks done (multi-block jobs only; 0 before, reset to 0 by the last block)
    std::int32_t blocks = 1;           // CUDA blocks reducing this job
    std::int32_t scratchOffset = 0;    // first of this job's per-block partials in the launch's scratch
};

// The element offset of flat index i of a strided tensor (row-major over sizes).
FXRAY_HD std::int64_t stridedOffset(const StatsGeometry& g, std::int64_t i)
{
    std::int64_t off = 0;
    for (int d = g.ndim - 1; d >= 0; --d) {
        const std::int64_t size = g.sizes[d];
        off += (i % size) * g.strides[d];
        i /= size;
    }
    return off;
}

// NaN/Inf of an element from its bits alone (the CUDA presence kernel's test, stats_kernel.cu: nanPresenceKernel; the
// CPU test checks it against std::isnan/isinf): with the sign bit cleared, a magnitude above the dtype's infinity is
// NaN, one equal to it is Inf. `Bits`: the unsigned integer of the element's width; `kInfBits`: +Inf's bits.
template <typename Bits, Bits kInfBits>
FXRAY_HD void statsBitsNonFinite(Bits raw, bool& nan, bool& inf)
{
    constexpr Bits kMagnitude = static_cast<Bits>(~(Bits{1} << (sizeof(Bits) * 8 - 1)));
    const Bits magnitude = static_cast<Bits>(raw & kMagnitude);
    nan |= magnitude > kInfBits;  // no short-circuit: no branch per element on the device
    inf |= magnitude == kInfBits;
}
constexpr std::uint32_t kStatsF32InfBits = 0x7f800000u;
constexpr std::uint64_t kStatsF64InfBits = 0x7ff0000000000000ull;
constexpr std::uint16_t kStatsF16InfBits = 0x7c00;
constexpr std::uint16_t kStatsBF16InfBits = 0x7f80;

// The CPU loop's running statistics over elements whose min/max are compared as M: double for floating dtypes (exact
// for half, bfloat16 and float), int64 for signed integers, uint64 for unsigned integers and bool. The CUDA kernel
// keeps its own, branch-free accumulator with the same results (stats_kernel.cu: Acc), so these are host code.
template <typename M>
struct StatsAcc {
    unsigned long long nan = 0, inf = 0;
    M mn{}, mx{};
    double sum = 0;
    bool any = false;  // an element other than NaN was seen (mn/mx hold one)
};

inline bool statsIsNan(double v) { return v != v; }
inline bool statsIsInf(double v) { return v - v != v - v && v == v; }  // inf - inf is NaN

// One floating element, as double.
inline void statsAdd(StatsAcc<double>& a, double v)
{
    a.sum += v;
    if (statsIsNan(v)) {
        ++a.nan;
        return;
    }
    a.inf += statsIsInf(v) ? 1 : 0;
    if (!a.any || v < a.mn)
        a.mn = v;
    if (!a.any || v > a.mx)
        a.mx = v;
    a.any = true;
}

// One integer element.
template <typename M>
inline void statsAdd(StatsAcc<M>& a, M v)
{
    a.sum += static_cast<double>(v);
    if (!a.any || v < a.mn)
        a.mn = v;
    if (!a.any || v > a.mx)
        a.mx = v;
    a.any = true;
}

// b's elements after a's.
template <typename M>
inline void statsMerge(StatsAcc<M>& a, const StatsAcc<M>& b)
{
    a.nan += b.nan;
    a.inf += b.inf;
    a.sum += b.sum;
    if (b.any) {
        if (!a.any || b.mn < a.mn)
            a.mn = b.mn;
        if (!a.any || b.mx > a.mx)
            a.mx = b.mx;
        a.any = true;
    }
}

// The row: {nan, inf, min, max, sum}. All-NaN and any-NaN alike give NaN min and max.
template <typename M>
inline void statsWrite(const StatsAcc<M>& a, double* row)
{
    const double nanValue = std::numeric_limits<double>::quiet_NaN();
    row[0] = static_cast<double>(a.nan);
    row[1] = static_cast<double>(a.inf);
    row[2] = a.nan > 0 ? nanValue : (a.any ? static_cast<double>(a.mn) : 0.0);
    row[3] = a.nan > 0 ? nanValue : (a.any ? static_cast<double>(a.mx) : 0.0);
    row[4] = a.sum;
}

// Launches one kernel for jobs[0, n) (n <= kStatsMaxJobs, at most kStatsMaxStrided of them strided) on `stream` (a
// cudaStream_t): never synchronizes, never allocates. `scratch`: the per-block partials of the multi-block jobs (sum of their blocks * kStatsPartialWords doubles, from the
// stream's allocator), null when every job has one block. Returns the launch's cudaError_t (0: queued), with its
// text in `error` when not 0. Defined in stats_kernel.cu, built only where nvcc was found.
int launchFusedStats(const StatsJob* jobs, int n, double* scratch, void* stream, const char** error);
// In an instantiated CUDA graph (`graph`: its cudaGraph_t, kept after instantiation; `exec`: its cudaGraphExec_t),
// turns every captured launch of the statistics kernel into one of the NaN/Inf presence kernel, with the same jobs:
// each later replay then writes only 1 into the NaN and Inf columns of the rows of outputs that hold NaN or Inf, and
// nothing else (min, max and sum are left as they were; the host zeroes the columns it read). `*switched`: the
// launches turned. Returns the cudaError_t (0: done), with its text in `error`; launches turned before an error stay
// turned. Also in stats_kernel.cu.
int statsGraphToPresence(void* graph, void* exec, int* switched, const char** error);
// The device's multiprocessor count (cached per device), for statsBlocksFor. Also in stats_kernel.cu.
int statsMultiprocessors(int device);

// Page-locked host memory of `bytes` bytes, zeroed, mapped into the address space of the current device: the one-pass
// kernel (and ATen's kernels) write it through `*device`, the host reads it through `*host` once the stream is done,
// with no copy. Returns the cudaError_t (0: allocated), with its text in `error`. Also in stats_kernel.cu.
int statsHostAlloc(std::size_t bytes, void** host, void** device, const char** error);
// Frees what statsHostAlloc gave (cudaFreeHost, which waits for the device). Also in stats_kernel.cu.
void statsHostFree(void* host);

// Elements a CUDA thread loads at once (independent loads in flight, then reduced), and the fewest a block reduces
// (kStatsThreads * kStatsUnroll per round, a few rounds): a job of up to 8,192 elements is one block, with no
// cross-block merge; the element loop's latency is that of 4 rounds of loads, not of 16 loads one after the other.
constexpr int kStatsThreads = 256;
constexpr int kStatsUnroll = 8;
constexpr std::int64_t kStatsPerBlock = std::int64_t{kStatsThreads} * kStatsUnroll * 4;

// 8-byte words of one block's partial in the launch's scratch: NaN count, Inf count, min, max, sum.
constexpr int kStatsPartialWords = 5;

// How many CUDA blocks a job of `numel` elements gets on a device of `multiprocessors` SMs.
inline std::int32_t statsBlocksFor(std::int64_t numel, int multiprocessors)
{
    std::int64_t blocks = (numel + kStatsPerBlock - 1) / kStatsPerBlock;
    const std::int64_t cap = 2LL * (multiprocessors > 0 ? multiprocessors : 1);
    if (blocks > cap)
        blocks = cap;
    return static_cast<std::int32_t>(blocks < 1 ? 1 : blocks);
}

}  // namespace fxray::replay::detail
