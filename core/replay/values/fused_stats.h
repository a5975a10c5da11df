#pragma once
// Internal to core/replay (includes LibTorch): the one-pass output statistics (stats_kernel.h) for ATen tensors. On
// the CPU a loop that reads each element once; on CUDA one kernel launch per batch of tensors (a node's outputs),
// where the build found nvcc (FXRAY_HAVE_CUDA_KERNELS). StatsBuffer (device_stats.h) takes this path for every
// tensor it handles and keeps the ATen reductions for the rest (float8, complex, a CUDA build without the kernel, a
// strided tensor of more than kStatsMaxDims dimensions), or for all when FXRAY_FUSED_STATS=0 (to compare).
#include "replay/values/stats_kernel.h"

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// The element type the one-pass statistics read t as; none: take the ATen path.
std::optional<StatsDType> statsDTypeOf(const at::Tensor& t);

// Whether the one-pass statistics handle t where it is: a dtype statsDTypeOf knows, dense or at most kStatsMaxDims
// dimensions, on the CPU, or on CUDA in a build with the kernel. False for every tensor when FXRAY_FUSED_STATS=0.
bool fusedStatsHandle(const at::Tensor& t);

// Whether this build has the CUDA kernel (what `fxray --version` and the tests report).
bool fusedStatsHaveCudaKernel();

// t's row {nan, inf, min, max, sum} computed on the CPU into row[0..5). t must be a CPU tensor fusedStatsHandle took.
// Without `sum`, row[4] is left as it was: StatsBuffer takes the CPU sum from at::sum, whose cascade order makes the
// mean bit-equal to torch.sum(t, dtype=torch.float64) / numel, as the CLI tests and users comparing with eager expect.
void fusedStatsCpu(const at::Tensor& t, double* row, bool sum = true);

// One CUDA tensor's row: `row` points into a [rows, 5] double tensor on t's device, `counter` into a zeroed 32-bit int
// tensor beside it (one per row: the kernel's multi-block ticket, left at 0 after each launch).
struct CudaStatsItem {
    at::Tensor tensor;
    double* row = nullptr;
    unsigned int* counter = nullptr;
};

// Queues the rows of `items` (all on one CUDA device, which fusedStatsHandle took) on that device's current stream:
// one kernel launch per kStatsMaxJobs items. Never waits for the device; the scratch of multi-block jobs comes from
// the stream's caching allocator (a CUDA-graph capture's pool while capturing). Throws c10::Error ("CUDA error: ...")
// when a launch fails.
void fusedStatsCuda(const std::vector<CudaStatsItem>& items);

// The statistics launches captured in an instantiated CUDA graph (raw cudaGraph_t and cudaGraphExec_t, on the current
// device) turned into NaN/Inf presence launches (statsGraphToPresence): returns how many were turned, 0 in a build
// without the kernel. `error`: "" or, when CUDA refused one, why ("CUDA error: ..."); launches turned before stay turned.
int fusedStatsToPresence(void* cudaGraph, void* cudaGraphExec, std::string& error);

// Zeroed rows for a statistics buffer on `device`: a [rows, 5] double tensor there. On CUDA, in a build with the kernel,
// in mapped page-locked host memory (`*host` set: the kernels write it over the bus, the host reads it in place after
// statsWait, with no copy and no allocation per read-back; FXRAY_STATS_MAPPED=0 turns it off, to compare), else device
// memory (`*host` null). Throws c10::Error when the allocation fails.
at::Tensor statsRows(const c10::Device& device, std::int64_t rows, double** host);
// Waits for the work queued on `device`'s current stream (the kernels writing mapped rows); nothing on the CPU.
void statsWait(const c10::Device& device);
// Whether `device`'s current stream is capturing a CUDA graph (nothing may wait for the device then).
bool statsCapturing(const c10::Device& device);

}  // namespace fxray::replay::detail
