#include "replay/values/device_stats.h"

#include <ATen/ATen.h>

#include <algorithm>

namespace fxray::replay::detail {

StatsBuffer::StatsBuffer(std::size_t rowsPerDevice, std::size_t firstRows)
    : m_capacity(rowsPerDevice == 0 ? 1 : rowsPerDevice),
      m_firstRows(std::max<std::size_t>(1, firstRows == 0 ? m_capacity : std::min(firstRows, m_capacity)))
{
}

bool StatsBuffer::hasStats(const at::Tensor& t)
{
    return t.defined() && t.numel() > 0 && t.scalar_type() != at::kBool && !t.is_complex() && !t.is_meta();
}

StatsBuffer::PerDevice& StatsBuffer::slotFor(const c10::Device& device, std::size_t& index)
{
    for (index = 0; index < m_devices.size(); ++index)
        if (m_devices[index].device == device)
            return m_devices[index];
    // Allocated once, zeroed: integer tensors leave their NaN/Inf columns untouched.
    m_devices.push_back({device, at::Tensor(), at::Tensor(), 0});
    resize(m_devices.back(), static_cast<std::int64_t>(m_firstRows));
    return m_devices.back();
}

// Rows [0, used) kept, the rest zeros; a CUDA buffer's kernel tickets beside it, all 0 (no kernel is in flight on
// them: pending launches are flushed before a resize).
void StatsBuffer::resize(PerDevice& d, std::int64_t rows)
{
    const at::TensorOptions options = at::TensorOptions().device(d.device);
    at::Tensor fresh = at::zeros({rows, 5}, options.dtype(at::kDouble));
    if (d.used > 0)
        fresh.narrow(0, 0, static_cast<std::int64_t>(d.used)).copy_(d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)));
    d.rows = fresh;
    if (d.device.is_cuda())
        d.counters = at::zeros({rows}, options.dtype(at::kInt));
}

void StatsBuffer::queue(const at::Tensor& t, std::size_t tag)
{
    std::size_t slot = 0;
    PerDevice& d = slotFor(t.device(), slot);
    // A full buffer grows rather than fails: full() tells the caller to read back, which only some can do now
    // (never inside a CUDA-graph capture).
    if (d.used == static_cast<std::size_t>(d.rows.size(0))) {
        TORCH_CHECK(!m_fixed, "the statistics buffer of ", d.rows.size(0), " rows is full");
        flush();  // the rows move: no launch may still point at the old ones
        resize(d, 2 * d.rows.size(0));  // below m_capacity: grown as a pass needs; above: the caller could not read back
    }
    const auto row = static_cast<std::int64_t>(d.used);
    if (!fusedStatsHandle(t)) {
        queueAten(d, t);
    } else if (t.device().is_cpu()) {
        // One pass for the counts, min and max; the sum from ATen's own reduction (its cascade order: the mean
        // stays bit-equal to eager's torch.sum(t, dtype=float64) / numel).
        fusedStatsCpu(t, d.rows.data_ptr<double>() + 5 * row, false);
        cpuSum(t, d.rows.select(0, row).select(0, 4));
    } else {
        if (!m_unlaunched.empty() && m_unlaunched.front().tensor.device() != t.device())
            flush();  // one launch, one device
        m_unlaunched.push_back({t, d.rows.data_ptr<double>() + 5 * row,
                                reinterpret_cast<unsigned int*>(d.counters.data_ptr<std::int32_t>()) + row});
        if (m_unlaunched.size() == static_cast<std::size_t>(kStatsMaxJobs))
            flush();
    }
    m_order.push_back({tag, slot, d.used});
    ++d.used;
}

// sum(t, dtype=float64) converts t to a fresh double tensor of t's layout, then sums it: the conversion into a
// scratch buffer kept between calls instead (no page faults of a new allocation each time: ~6x faster on a 4M-element
// tensor here) gives the same bits, as the same reduction runs over the same layout. The buffer is the thread's, kept
// across passes (a timed repeat's new StatsBuffer must not fault its pages in again): dense tensors up to 4M elements
// (32 MiB of doubles held); larger ones take sum(dtype=float64) as such.
void StatsBuffer::cpuSum(const at::Tensor& t, at::Tensor out)
{
    constexpr std::int64_t kMaxScratch = 1 << 22;
    thread_local at::Tensor scratch;
    const std::int64_t n = t.numel();
    if (t.scalar_type() == at::kDouble || n > kMaxScratch || !t.is_non_overlapping_and_dense()) {
        at::sum_out(out, c10::isBarebonesUnsignedType(t.scalar_type()) ? t.to(at::kDouble) : t, at::kDouble);
        return;
    }
    if (!scratch.defined() || scratch.numel() < n)
        scratch = at::empty({std::max<std::int64_t>(n, 4096)}, at::TensorOptions().dtype(at::kDouble));
    at::Tensor asDouble = scratch.as_strided(t.sizes(), t.strides(), 0);
    asDouble.copy_(t);
    at::sum_out(out, asDouble);
}

void StatsBuffer::flush()
{
    if (m_unlaunched.empty())
        return;
    std::vector<CudaStatsItem> items;
    items.swap(m_unlaunched);  // launched or lost, never launched twice
    fusedStatsCuda(items);
}

void StatsBuffer::queueAten(PerDevice& d, const at::Tensor& raw)
{
    // uint16/32/64 have no min/max/sum kernels ("min_all not implemented for 'UInt64'"): read them as doubles.
    const at::Tensor t = c10::isBarebonesUnsignedType(raw.scalar_type()) ? raw.to(at::kDouble) : raw;
    at::Tensor row = d.rows.select(0, static_cast<std::int64_t>(d.used));
    // Every op writes straight into the row (reductions with a double out= and dtype): no temporaries to cast, no
    // stack, no read-back. Min and max come from one kernel; aminmax propagates NaN as min()/max() do.
    if (t.is_floating_point()) {
        at::Tensor nanCount = row.select(0, 0), infCount = row.select(0, 1);
        at::sum_out(nanCount, at::isnan(t), at::kDouble);
        at::sum_out(infCount, at::isinf(t), at::kDouble);
    }
    auto [mn, mx] = at::aminmax(t);
    row.narrow(0, 2, 2).copy_(at::stack({mn, mx}));
    at::Tensor sum = row.select(0, 4);
    at::sum_out(sum, t, at::kDouble);
}

void StatsBuffer::reserveFixed(const c10::Device& device, std::size_t rows)
{
    std::size_t slot = 0;
    PerDevice& d = slotFor(device, slot);
    if (static_cast<std::size_t>(d.rows.size(0)) < rows) {
        flush();
        resize(d, static_cast<std::int64_t>(rows));
    }
    m_fixed = true;
}

void StatsBuffer::discard()
{
    m_unlaunched.clear();
    m_order.clear();
    for (PerDevice& d : m_devices) {
        if (d.used > 0)  // a row an integer tensor takes next must read 0 NaN, 0 Inf
            d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)).zero_();
        d.used = 0;
    }
}

bool StatsBuffer::full() const
{
    if (m_fixed)
        return false;  // read back by whoever fixed it
    for (const PerDevice& d : m_devices)
        if (d.used >= m_capacity)
            return true;
    return false;
}

void StatsBuffer::peek(const std::function<void(std::size_t, const StatsRow&)>& take)
{
    flush();
    std::vector<at::Tensor> host;
    for (const PerDevice& d : m_devices)
        host.push_back(d.used == 0 ? at::Tensor() : d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)).cpu());
    for (const Queued& q : m_order) {
        const double* p = host[q.slot].const_data_ptr<double>() + 5 * q.row;
        take(q.tag, StatsRow{p[0], p[1], p[2], p[3], p[4]});
    }
}

void StatsBuffer::readBack(const std::function<void(std::size_t, const StatsRow&)>& take)
{
    if (m_order.empty())
        return;
    // Emptied whatever happens: rows a failed read-back could not deliver are lost, not handed out twice.
    struct Reset {
        StatsBuffer& b;
        ~Reset()
        {
            b.m_order.clear();
            for (PerDevice& d : b.m_devices) {
                try {
                    if (d.used > 0)
                        d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)).zero_();
                } catch (const c10::Error&) {
                    d.rows = at::Tensor();  // a device in error: nothing more can be written there
                }
                d.used = 0;
            }
            std::erase_if(b.m_devices, [](const PerDevice& d) { return !d.rows.defined(); });
        }
    } reset{*this};
    peek(take);
}

}  // namespace fxray::replay::detail
