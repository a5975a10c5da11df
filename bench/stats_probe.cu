// Where a captured statistics launch spends its time (issue 24: embed_ce forward's checked CUDA graph at 1.45x its
// unchecked one, goal 1.3x). A stand-alone probe, built by nvcc alone on the GPU machine (scripts/stats-ncu-device.sh):
// it includes the real kernel's translation unit, so the variants below are that kernel with one thing changed.
//
// Each variant is a CUDA graph: a stand-in for embed_ce forward's compute (kernels writing its four activations),
// then one launch reducing embed_ce forward's ten statistics jobs (the shapes its checked pass queues), timed as a
// replay + sync (median) and as replays back to back (mean); printed as the time added to the compute-only graph.
// The last variant is what a checked CUDA graph's timed replays run since session 24: the real launch captured, then
// swapped in the executable graph for the NaN/Inf presence kernel.
//
//   stats_probe [ROUNDS [REPLAYS]]
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Icore bench/stats_probe.cu -o stats_probe
#include "replay/values/stats_kernel.cu"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace fxray::replay::detail;

// Named, not anonymous: the included kernel's anonymous namespace would make nvcc's stub names ambiguous.
namespace stats_probe {

#define CHECK(x)                                                                                                      \
    do {                                                                                                              \
        cudaError_t e_ = (x);                                                                                         \
        if (e_ != cudaSuccess) {                                                                                      \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                 \
            std::exit(1);                                                                                             \
        }                                                                                                             \
    } while (0)

__global__ void fillKernel(float* p, long long n, float v)
{
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
        p[i] = v + static_cast<float>(i & 1023) * 1e-3f;
}

// One round of the kernel's element loop: each thread's kStatsUnroll loads, all in flight together.
__device__ __forceinline__ void loadRound(const float* p, long long base, long long n, float (&raw)[kStatsUnroll])
{
#pragma unroll
    for (int k = 0; k < kStatsUnroll; ++k) {
        const long long i = base + static_cast<long long>(k) * kThreads;
        raw[k] = i < n ? p[i] : 0.f;
    }
}

__global__ void emptyKernel() {}

// An empty kernel that takes the real kernel's 3.2 KB parameter block.
template <int J>
__global__ void emptyBigParams(const __grid_constant__ Params<J> params, double* scratch)
{
    if (params.n < 0 && scratch)
        scratch[0] = 0;
}

// The real kernel, with its 13-way dtype switch cut to float only (the code a float job runs is the same).
template <int J>
__global__ void __launch_bounds__(kThreads) f32OnlyKernel(const __grid_constant__ Params<J> params, double* scratch)
{
    const int b = static_cast<int>(blockIdx.x);
    const DeviceJob& job = jobOfBlock(params, b);
    reduceJob<StatsDType::F32>(job, nullptr, b - job.firstBlock, scratch);
}

// The float-only kernel without the cross-block merge: each block reduces its share and stores its partial, and no
// block waits for the others (the rows stay unwritten: timing only).
template <int J>
__global__ void __launch_bounds__(kThreads) noMergeKernel(const __grid_constant__ Params<J> params, double* scratch)
{
    const int b = static_cast<int>(blockIdx.x);
    const DeviceJob& job = jobOfBlock(params, b);
    const int block = b - job.firstBlock;
    const float* p = static_cast<const float*>(job.data);
    Acc<float, unsigned> acc;
    const long long round = static_cast<long long>(kThreads) * kStatsUnroll, n = job.numel;
    for (long long base = static_cast<long long>(block) * round + threadIdx.x; base < n; base += round * job.blocks) {
        float raw[kStatsUnroll];
        loadRound(p, base, n, raw);
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k)
            if (base + static_cast<long long>(k) * kThreads < n)
                add(acc, raw[k]);
    }
    acc = blockReduce(acc);
    if (threadIdx.x == 0)
        storeWords(reinterpret_cast<unsigned long long*>(scratch) + kWords * (job.scratchOffset + block), acc);
}

// The least a NaN/Inf check can be: each block counts its elements' NaNs and Infs and adds them to the job's two
// counters with one atomic each (no min/max/sum, no merge, no reset).
template <int J>
__global__ void __launch_bounds__(kThreads) nanCountKernel(const __grid_constant__ Params<J> params)
{
    const int b = static_cast<int>(blockIdx.x);
    const DeviceJob& job = jobOfBlock(params, b);
    const float* p = static_cast<const float*>(job.data);
    unsigned nan = 0, inf = 0;
    const long long stride = static_cast<long long>(job.blocks) * kThreads;
    for (long long i = static_cast<long long>(b - job.firstBlock) * kThreads + threadIdx.x; i < job.numel; i += stride) {
        const float v = p[i];
        nan += v != v;
        inf += (v - v != v - v) && v == v;
    }
    nan = __reduce_add_sync(kFullMask, nan);
    inf = __reduce_add_sync(kFullMask, inf);
    if (threadIdx.x % 32 == 0 && (nan | inf)) {
        atomicAdd(reinterpret_cast<unsigned long long*>(job.row), static_cast<unsigned long long>(nan));
        atomicAdd(reinterpret_cast<unsigned long long*>(job.row) + 1, static_cast<unsigned long long>(inf));
    }
}

// Flags only: a warp that sees a NaN or Inf stores 1 into the job's row (every such store writes the same value: no
// atomics, no merge, and a clean replay writes nothing at all).
template <int J>
__global__ void __launch_bounds__(kThreads) nanFlagKernel(const __grid_constant__ Params<J> params)
{
    const int b = static_cast<int>(blockIdx.x);
    const DeviceJob& job = jobOfBlock(params, b);
    const float* p = static_cast<const float*>(job.data);
    const long long round = static_cast<long long>(kThreads) * kStatsUnroll, n = job.numel;
    bool nan = false, inf = false;
    for (long long base = static_cast<long long>(b - job.firstBlock) * round + threadIdx.x; base < n;
         base += round * job.blocks) {
        float raw[kStatsUnroll];
        loadRound(p, base, n, raw);
#pragma unroll
        for (int k = 0; k < kStatsUnroll; ++k) {
            nan |= raw[k] != raw[k];
            inf |= (raw[k] - raw[k] != raw[k] - raw[k]) && raw[k] == raw[k];
        }
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

struct Tensor {
    float* data;
    long long numel;
};

struct Setup {
    std::vector<Tensor> inputs, activations;
    double* deviceRows = nullptr;
    double* mappedRows = nullptr;  // device address of page-locked mapped host memory
    unsigned* counters = nullptr;
    double* scratch = nullptr;
    double* mappedScratch = nullptr;  // per-block partials in mapped host memory (the host would merge them)
};

float* deviceFloats(long long n)
{
    float* p = nullptr;
    CHECK(cudaMalloc(&p, n * sizeof(float)));
    CHECK(cudaMemset(p, 0, n * sizeof(float)));
    return p;
}

// embed_ce forward_0: inputs primals_1..5 (two [1000, 64] tables, two [8, 32] id tensors (int64: 2 floats each
// here), a [1000] bias), activations embedding [8, 32, 64], addmm and _log_softmax [256, 1000], and two scalars.
Setup makeSetup()
{
    Setup s;
    for (long long n : {64000LL, 512LL, 64000LL, 1000LL, 512LL})
        s.inputs.push_back({deviceFloats(n), n});
    for (long long n : {16384LL, 256000LL, 256000LL, 1LL, 1LL})
        s.activations.push_back({deviceFloats(n), n});
    CHECK(cudaMalloc(&s.deviceRows, 64 * 5 * sizeof(double)));
    CHECK(cudaMemset(s.deviceRows, 0, 64 * 5 * sizeof(double)));
    void* host = nullptr;
    CHECK(cudaHostAlloc(&host, 64 * 5 * sizeof(double), cudaHostAllocMapped | cudaHostAllocPortable));
    CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.mappedRows), host, 0));
    CHECK(cudaMalloc(&s.counters, 64 * sizeof(unsigned)));
    CHECK(cudaMemset(s.counters, 0, 64 * sizeof(unsigned)));
    CHECK(cudaMalloc(&s.scratch, 4096 * 6 * sizeof(double)));
    void* partials = nullptr;
    CHECK(cudaHostAlloc(&partials, 4096 * 6 * sizeof(double), cudaHostAllocMapped | cudaHostAllocPortable));
    CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.mappedScratch), partials, 0));
    return s;
}

// The jobs of one statistics launch: `withInputs` adds the graph's five inputs, `oneBlock` gives every job one block.
std::vector<StatsJob> jobsOf(const Setup& s, bool mapped, bool withInputs, bool oneBlock, int sms)
{
    std::vector<StatsJob> jobs;
    int scratch = 0;
    auto add = [&](const Tensor& t) {
        StatsJob j;
        j.data = t.data;
        j.numel = t.numel;
        j.dtype = StatsDType::F32;
        j.row = (mapped ? s.mappedRows : s.deviceRows) + 5 * jobs.size();
        j.counter = s.counters + jobs.size();
        j.blocks = oneBlock ? 1 : statsBlocksFor(t.numel, sms);
        j.scratchOffset = scratch;
        scratch += j.blocks > 1 ? j.blocks : 0;
        jobs.push_back(j);
    };
    if (withInputs)
        for (const Tensor& t : s.inputs)
            add(t);
    for (const Tensor& t : s.activations)
        add(t);
    return jobs;
}

template <int J>
Params<J> pack(const std::vector<StatsJob>& jobs, int* blocks)
{
    Params<J> params{};
    *blocks = 0;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
        DeviceJob& out = params.j[k];
        out.data = jobs[k].data;
        out.numel = jobs[k].numel;
        out.row = jobs[k].row;
        out.counter = jobs[k].counter;
        out.blocks = jobs[k].blocks;
        out.firstBlock = *blocks;
        out.scratchOffset = jobs[k].scratchOffset;
        out.dtype = static_cast<short>(jobs[k].dtype);
        out.geometry = -1;
        *blocks += jobs[k].blocks;
    }
    params.n = static_cast<int>(jobs.size());
    return params;
}

enum class Tail { None, Real, RealJ16, F32Only, NoMerge, Empty, EmptyBigParams, NanCount, NanFlag };

void enqueue(const Setup& s, Tail tail, const std::vector<StatsJob>& jobs, bool mapped, cudaStream_t stream)
{
    // The compute stand-in: one kernel per activation, as embed_ce's embedding, addmm, log_softmax and nll_loss.
    for (const Tensor& t : s.activations) {
        const unsigned grid = static_cast<unsigned>(std::min<long long>((t.numel + 255) / 256, 264));
        fillKernel<<<grid, 256, 0, stream>>>(t.data, t.numel, 0.5f);
    }
    int blocks = 0;
    switch (tail) {
    case Tail::None: break;
    case Tail::Real: CHECK(static_cast<cudaError_t>(launchFusedStats(jobs.data(), static_cast<int>(jobs.size()), s.scratch, stream, nullptr))); break;
    case Tail::RealJ16: {
        const Params<16> p = pack<16>(jobs, &blocks);
        fusedStatsKernel<16><<<blocks, kThreads, 0, stream>>>(p, s.scratch);
        break;
    }
    case Tail::F32Only: {
        const Params<kStatsMaxJobs> p = pack<kStatsMaxJobs>(jobs, &blocks);
        f32OnlyKernel<kStatsMaxJobs><<<blocks, kThreads, 0, stream>>>(p, s.scratch);
        break;
    }
    case Tail::NoMerge: {
        const Params<kStatsMaxJobs> p = pack<kStatsMaxJobs>(jobs, &blocks);
        noMergeKernel<kStatsMaxJobs><<<blocks, kThreads, 0, stream>>>(p, mapped ? s.mappedScratch : s.scratch);
        break;
    }
    case Tail::NanFlag: {
        const Params<kStatsMaxJobs> p = pack<kStatsMaxJobs>(jobs, &blocks);
        nanFlagKernel<kStatsMaxJobs><<<blocks, kThreads, 0, stream>>>(p);
        break;
    }
    case Tail::Empty: emptyKernel<<<1, 32, 0, stream>>>(); break;
    case Tail::EmptyBigParams: {
        const Params<kStatsMaxJobs> p = pack<kStatsMaxJobs>(jobs, &blocks);
        emptyBigParams<kStatsMaxJobs><<<1, 32, 0, stream>>>(p, s.scratch);
        break;
    }
    case Tail::NanCount: {
        const Params<kStatsMaxJobs> p = pack<kStatsMaxJobs>(jobs, &blocks);
        nanCountKernel<kStatsMaxJobs><<<blocks, kThreads, 0, stream>>>(p);
        break;
    }
    }
    CHECK(cudaGetLastError());
}

struct Timing {
    double syncUs, b2bUs;
};

// `presence`: the captured statistics launches swapped for the NaN/Inf presence kernel as fxray does before a checked
// CUDA graph's timed replays (statsGraphToPresence on the instantiated graph).
Timing timeGraph(const Setup& s, Tail tail, const std::vector<StatsJob>& jobs, bool mapped, bool presence,
                 cudaStream_t stream, int replays)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    enqueue(s, tail, jobs, mapped, stream);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    if (presence) {
        int switched = 0;
        const char* error = nullptr;
        CHECK(static_cast<cudaError_t>(statsGraphToPresence(graph, exec, &switched, &error)));
        if (switched != 1) {
            std::fprintf(stderr, "statsGraphToPresence turned %d launches, not 1\n", switched);
            std::exit(1);
        }
    }
    for (int i = 0; i < replays / 4; ++i)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    using Clock = std::chrono::steady_clock;
    std::vector<double> sync;
    for (int i = 0; i < replays; ++i) {
        const auto t0 = Clock::now();
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
        sync.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    std::sort(sync.begin(), sync.end());
    const int n = replays * 5;
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    const double b2b = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n;
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    return {sync[sync.size() / 2], b2b};
}

}  // namespace stats_probe

using namespace stats_probe;

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    const int replays = argc > 2 ? std::atoi(argv[2]) : 400;  // few under ncu, which profiles each launch
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const Setup s = makeSetup();
    struct Variant {
        std::string name;
        Tail tail;
        bool mapped, withInputs, oneBlock;
        bool presence = false;
    };
    const std::vector<Variant> variants = {
        {"compute only", Tail::None, true, true, false},
        {"real kernel, mapped rows (as shipped)", Tail::Real, true, true, false},
        {"real kernel, device rows", Tail::Real, false, true, false},
        {"real kernel, activations only (no input jobs)", Tail::Real, true, false, false},
        {"real kernel, one block a job (no merge)", Tail::Real, true, true, true},
        {"real kernel, 16-job parameter block", Tail::RealJ16, true, true, false},
        {"float-only kernel (no dtype switch)", Tail::F32Only, true, true, false},
        {"float-only, no merge, partials to device memory", Tail::NoMerge, false, true, false},
        {"float-only, no merge, partials to mapped memory", Tail::NoMerge, true, true, false},
        {"empty kernel <<<1,32>>>", Tail::Empty, true, true, false},
        {"empty kernel, 3.2 KB parameter block", Tail::EmptyBigParams, true, true, false},
        {"NaN/Inf counts only, device atomics", Tail::NanCount, false, true, false},
        {"NaN/Inf flags only, mapped rows", Tail::NanFlag, true, true, false},
        {"NaN/Inf flags only, mapped rows, activations only", Tail::NanFlag, true, false, false},
        {"real kernel swapped to presence (as shipped, timed)", Tail::Real, true, true, false, true},
    };
    std::printf("device SMs %d; %zu variants, %d interleaved rounds; us per replay\n", sms, variants.size(), rounds);
    std::vector<std::vector<Timing>> all(variants.size());
    for (int r = 0; r < rounds; ++r)
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const Variant& x = variants[v];
            all[v].push_back(timeGraph(s, x.tail, jobsOf(s, x.mapped, x.withInputs, x.oneBlock, sms), x.mapped,
                                       x.presence, stream, replays));
        }
    auto median = [](std::vector<double> xs) {
        std::sort(xs.begin(), xs.end());
        return xs[xs.size() / 2];
    };
    std::vector<double> base0, base1;
    for (const Timing& t : all[0])
        base0.push_back(t.syncUs), base1.push_back(t.b2bUs);
    const double baseSync = median(base0), baseB2b = median(base1);
    std::printf("%-48s %9s %9s %9s %9s\n", "variant", "sync", "b2b", "+sync", "+b2b");
    for (std::size_t v = 0; v < variants.size(); ++v) {
        std::vector<double> a, b;
        for (const Timing& t : all[v])
            a.push_back(t.syncUs), b.push_back(t.b2bUs);
        const double ms = median(a), mb = median(b);
        std::printf("%-48s %9.2f %9.2f %9.2f %9.2f\n", variants[v].name.c_str(), ms, mb, ms - baseSync, mb - baseB2b);
    }
    return 0;
}
