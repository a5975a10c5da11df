#pragma once
// Internal to core/replay (includes LibTorch): output statistics (NaN count, Inf count, min, max, sum) computed by
// tensor ops that stay on the tensor's device and write into one preallocated [rows, 5] double buffer per device.
// The host reads a buffer back when it is full or when the replay asks: one device sync per read-back instead of
// one per node output. Queuing never waits for the device, so the same ops can be captured into a CUDA graph.
// The numbers come from the one-pass statistics (fused_stats.h: a CPU loop, a CUDA kernel per node) where they
// handle the tensor, else from ATen's reductions (float8, complex, CUDA without the kernel, FXRAY_FUSED_STATS=0).
#include "replay/values/fused_stats.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace fxray::replay::detail {

// One output's numbers as read back. `sum` is the double sum of all elements (mean = sum / numel, divided on the
// host: the same double division the device did before).
struct StatsRow {
    double nanCount = 0, infCount = 0, min = 0, max = 0, sum = 0;
};

class StatsBuffer {
public:
    // `rowsPerDevice`: rows queued before full() says a read-back is due (bounds the buffer's memory: 40 bytes a row).
    // `firstRows`: rows allocated at first (0: rowsPerDevice), grown by doubling as the pass queues more: a small
    // graph's pass then allocates a small buffer (a 4,096-row one is 160 KiB: on the CPU a fresh mmap whose pages
    // fault in on every pass).
    explicit StatsBuffer(std::size_t rowsPerDevice = 4096, std::size_t firstRows = 0);
    // Hands its buffers, read back and with no work pending on them, to the next StatsBuffer of the process (a replay
    // makes one per pass; `--repeat N`, N of them): no allocation, zero fill or host mapping per pass.
    ~StatsBuffer();
    StatsBuffer(const StatsBuffer&) = delete;
    StatsBuffer& operator=(const StatsBuffer&) = delete;

    // Whether a tensor has statistics: defined, not empty, not bool, complex or meta (what statsOf always skipped),
    // and its storage holds its elements.
    static bool hasStats(const at::Tensor& t);
    // False for a tensor whose storage was shrunk under it (FSDP2 frees an unsharded parameter after the forward with
    // inductor.resize_storage_bytes_(p, 0) and keeps the tensor): reading its elements would go past the storage.
    static bool storageHoldsElements(const at::Tensor& t);

    // Queues t's statistics into the next free row of its device's buffer, under `tag` (handed back by readBack);
    // returns the queue entry, which share() can name. Never waits for the device. A CPU tensor's row is computed now; a CUDA tensor's waits for flush() (or the next
    // read-back), which reduces everything queued since in one kernel launch. The ATen path launches a handful of
    // kernels now, and throws c10::Error when one refuses the dtype (float8 has no min): nothing is queued then.
    std::size_t queue(const at::Tensor& t, std::size_t tag);
    // Hands the row of queue entry `entry` out again under `tag`: the same tensor, unchanged since (no row, no work).
    void share(std::size_t tag, std::size_t entry);
    // Launches the one-pass kernel for the CUDA rows queued since the last flush (up to kStatsMaxJobs per launch:
    // queue() flushes when a batch is full, or holds 256 MiB of tensors). The tensors are held until then, so the caching allocator cannot hand
    // their memory to a later node; the caller flushes before anything may write to them (an in-place op).
    // Throws c10::Error ("CUDA error: ...") when the launch fails; those rows are then lost.
    void flush();
    bool unlaunched() const { return !m_unlaunched.empty(); }

    bool full() const;
    bool empty() const { return m_order.empty(); }

    // Allocates `device`'s buffer now with room for `rows`, and keeps it that size: queue() then refuses a row past
    // it instead of growing the buffer. For a CUDA-graph capture, where the rows' addresses must not move and no
    // buffer may be allocated from the graph's private pool.
    void reserveFixed(const c10::Device& device, std::size_t rows);
    // Forgets what was queued without reading it back (the buffers stay, zeroed where rows were used).
    void discard();

    // Reads every device's rows back (one copy to the host per device used; flushes first) and hands them out in
    // queue order, then empties the buffers. A device error of a kernel queued earlier surfaces here, as a c10::Error.
    void readBack(const std::function<void(std::size_t tag, const StatsRow& row)>& take);

    // Reads the rows queued so far without emptying the buffers: a captured CUDA graph rewrites the same rows on
    // every replay, and each replay's numbers are read from them. Flushes first. `deviceSynced`: the caller has just
    // waited for the whole device (a synchronised replay): mapped rows are read without another stream sync.
    void peek(const std::function<void(std::size_t tag, const StatsRow& row)>& take, bool deviceSynced = false);

    // After the first replay of a CUDA graph that captured this buffer's launches (`cudaGraph`, `cudaGraphExec`: the
    // raw handles, on the current device): its statistics launches report NaN/Inf presence only from then on
    // (fusedStatsToPresence), and the rows' NaN and Inf columns are zeroed now; peek() then hands out rows whose
    // counts are non-zero exactly where NaN/Inf was present (1 from the presence kernel, a count from ATen's path),
    // and zeroes what it read as non-zero. Min, max and sum are not written any more. Returns the launches turned
    // (0: nothing changed). Throws c10::Error when CUDA refuses one (those turned before stay so, and are read so).
    int presenceOnly(void* cudaGraph, void* cudaGraphExec);
    bool presence() const { return m_presence; }

private:
    struct PerDevice {
        c10::Device device;
        at::Tensor rows;  // [capacity, 5] double, zeros where nothing was written (integer tensors' NaN/Inf counts)
        at::Tensor counters;  // CUDA only: [capacity] int32 zeros, the one-pass kernel's block ticket per row
        std::size_t used = 0;
        // CUDA rows in mapped host memory (statsRows): read here after statsWait, no copy; null: read with a copy.
        double* host = nullptr;
        // No device work queued on the rows since the last read-back waited for it: they may go to another owner.
        bool quiet = true;
    };
    struct Queued {
        std::size_t tag, slot, row;
    };
    PerDevice& slotFor(const c10::Device& device, std::size_t& index);
    void queueAten(PerDevice& d, const at::Tensor& t);
    void cpuSum(const at::Tensor& t, at::Tensor out);
    void resize(PerDevice& d, std::int64_t rows);
    void zeroColumns(PerDevice& d, std::int64_t first, std::int64_t count);
    void zeroUsed(PerDevice& d);
    void zeroCounts(PerDevice& d);

    std::size_t m_capacity;
    std::size_t m_firstRows;
    bool m_fixed = false;
    bool m_presence = false;  // presenceOnly() turned the captured launches
    std::vector<PerDevice> m_devices;
    std::vector<Queued> m_order;
    std::vector<CudaStatsItem> m_unlaunched;  // CUDA rows queued since the last flush (their rows, one device)
    std::int64_t m_unlaunchedBytes = 0;       // the bytes of their tensors
    static constexpr std::int64_t kMaxUnlaunchedBytes = std::int64_t{256} << 20;
};

}  // namespace fxray::replay::detail
