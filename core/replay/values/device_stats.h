#pragma once
// Internal to core/replay (includes LibTorch): output statistics (NaN count, Inf count, min, max, sum) computed by
// tensor ops that stay on the tensor's device and write into one preallocated [rows, 5] double buffer per device.
// The host reads a buffer back when it is full or when the replay asks: one device sync per read-back instead of
// one per node output. Queuing never waits for the device, so the same ops can be captured into a CUDA graph.
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
    explicit StatsBuffer(std::size_t rowsPerDevice = 4096);

    // Whether a tensor has statistics: defined, not empty, not bool, complex or meta (what statsOf always skipped).
    static bool hasStats(const at::Tensor& t);

    // Queues t's statistics into the next free row of its device's buffer, under `tag` (handed back by readBack).
    // Launches a handful of kernels and never waits for the device. Throws c10::Error when a kernel refuses the dtype
    // (float8 has no min): nothing is queued then.
    void queue(const at::Tensor& t, std::size_t tag);

    bool full() const;
    bool empty() const { return m_order.empty(); }

    // Allocates `device`'s buffer now with room for `rows`, and keeps it that size: queue() then refuses a row past
    // it instead of growing the buffer. For a CUDA-graph capture, where the rows' addresses must not move and no
    // buffer may be allocated from the graph's private pool.
    void reserveFixed(const c10::Device& device, std::size_t rows);
    // Forgets what was queued without reading it back (the buffers stay, zeroed where rows were used).
    void discard();

    // Reads every device's rows back (one copy to the host per device used) and hands them out in queue order, then
    // empties the buffers. A device error of a kernel queued earlier surfaces here, as a c10::Error.
    void readBack(const std::function<void(std::size_t tag, const StatsRow& row)>& take);

    // Reads the rows queued so far without emptying the buffers: a captured CUDA graph rewrites the same rows on
    // every replay, and each replay's numbers are read from them.
    void peek(const std::function<void(std::size_t tag, const StatsRow& row)>& take) const;

private:
    struct PerDevice {
        c10::Device device;
        at::Tensor rows;  // [capacity, 5] double, zeros where nothing was written (integer tensors' NaN/Inf counts)
        std::size_t used = 0;
    };
    struct Queued {
        std::size_t tag, slot, row;
    };
    PerDevice& slotFor(const c10::Device& device, std::size_t& index);

    std::size_t m_capacity;
    bool m_fixed = false;
    std::vector<PerDevice> m_devices;
    std::vector<Queued> m_order;
};

}  // namespace fxray::replay::detail
