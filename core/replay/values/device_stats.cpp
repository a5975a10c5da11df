#include "replay/values/device_stats.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace fxray::replay::detail {

namespace {

// Buffers of StatsBuffers that are gone, for the next one on the same device: every pass of a replay makes a
// StatsBuffer, and a fresh one cost a zero-filled [rows, 5] tensor (on CUDA a fill kernel each for the rows and the
// tickets; mapped rows a cudaHostAlloc). A few per device are kept; the pool is never destroyed (freeing CUDA memory
// in the exit's static destructors can meet a runtime already torn down).
struct PooledRows {
    c10::Device device;
    at::Tensor rows, counters;
    double* host = nullptr;
};
constexpr std::size_t kPooled = 8;
std::mutex g_poolMutex;
std::vector<PooledRows>& pool()
{
    static auto* kept = new std::vector<PooledRows>();
    return *kept;
}

}  // namespace

StatsBuffer::StatsBuffer(std::size_t rowsPerDevice, std::size_t firstRows)
    : m_capacity(rowsPerDevice == 0 ? 1 : rowsPerDevice),
      m_firstRows(std::max<std::size_t>(1, firstRows == 0 ? m_capacity : std::min(firstRows, m_capacity)))
{
}

StatsBuffer::~StatsBuffer()
{
    if (!m_unlaunched.empty())
        return;  // rows a launch still points at: dropped with the buffer
    const std::lock_guard<std::mutex> lock(g_poolMutex);
    for (PerDevice& d : m_devices) {
        // Only rows read back (all zeros again, nothing in flight on them) go to another owner.
        if (!d.rows.defined() || d.used != 0 || !d.quiet)
            continue;
        if (pool().size() >= kPooled)
            pool().erase(pool().begin());
        pool().push_back({d.device, std::move(d.rows), std::move(d.counters), d.host});
    }
}

bool StatsBuffer::hasStats(const at::Tensor& t)
{
    // A ZeroTensor (aten._efficientzerotensor: the gradient of sgn, of an unused output) is zeros by its dispatch
    // key and has no data: its null pointer read was a segfault on the CPU, an illegal memory access on CUDA.
    return t.defined() && t.numel() > 0 && t.scalar_type() != at::kBool && !t.is_complex() && !t.is_meta() &&
           !t._is_zerotensor() && storageHoldsElements(t);
}

bool StatsBuffer::storageHoldsElements(const at::Tensor& t)
{
    if (!t.has_storage() || t.layout() != at::kStrided)
        return true;  // nothing of its own to read past (wrappers, sparse): their reader checks
    // Sizes and strides read as arrays (one virtual call each, not two per dimension): this runs on every tensor a
    // checked pass reads or queues.
    const c10::IntArrayRef sizes = t.sizes(), strides = t.strides();
    std::int64_t last = t.storage_offset();
    for (std::size_t d = 0; d < sizes.size(); ++d)
        last += (sizes[d] - 1) * std::max<std::int64_t>(strides[d], 0);
    return static_cast<std::uint64_t>((last + 1) * static_cast<std::int64_t>(t.element_size())) <= t.storage().nbytes();
}

StatsBuffer::PerDevice& StatsBuffer::slotFor(const c10::Device& device, std::size_t& index)
{
    for (index = 0; index < m_devices.size(); ++index)
        if (m_devices[index].device == device)
            return m_devices[index];
    // Allocated once, zeroed: integer tensors leave their NaN/Inf columns untouched. Taken from the pool when a
    // buffer there is large enough for the first rows (a repeated pass gets its predecessor's).
    m_devices.push_back({device, at::Tensor(), at::Tensor(), 0});
    {
        const std::lock_guard<std::mutex> lock(g_poolMutex);
        auto& kept = pool();
        for (auto it = kept.begin(); it != kept.end(); ++it)
            if (it->device == device && it->rows.size(0) >= static_cast<std::int64_t>(m_firstRows)) {
                PerDevice& d = m_devices.back();
                d.rows = std::move(it->rows);
                d.counters = std::move(it->counters);
                d.host = it->host;
                kept.erase(it);
                return d;
            }
    }
    resize(m_devices.back(), static_cast<std::int64_t>(m_firstRows));
    return m_devices.back();
}

// Rows [0, used) kept, the rest zeros; a CUDA buffer's kernel tickets beside it, all 0 (no kernel is in flight on
// them: pending launches are flushed before a resize).
void StatsBuffer::resize(PerDevice& d, std::int64_t rows)
{
    const at::TensorOptions options = at::TensorOptions().device(d.device);
    double* host = nullptr;
    at::Tensor fresh = statsRows(d.device, rows, &host);
    if (d.used > 0) {
        const auto used = static_cast<std::int64_t>(d.used);
        if (host && d.host) {
            // Mapped to mapped: on the host once the kernels writing the old rows are done (the old rows are freed
            // below, which no queued copy may still read).
            statsWait(d.device);
            std::memcpy(host, d.host, static_cast<std::size_t>(used) * 5 * sizeof(double));
        } else {
            fresh.narrow(0, 0, used).copy_(d.rows.narrow(0, 0, used));
            if (d.host)
                statsWait(d.device);
        }
    }
    d.rows = fresh;
    d.host = host;
    if (d.device.is_cuda() && (!d.counters.defined() || d.counters.size(0) < rows))
        d.counters = at::zeros({rows}, options.dtype(at::kInt));  // all 0 between launches: no copy needed
}

// Columns [first, first + count) of rows [0, used) back to zeros. Mapped rows on the host when the device is done
// with them (a read-back waited for it); else by a kernel, after those that wrote them.
void StatsBuffer::zeroColumns(PerDevice& d, std::int64_t first, std::int64_t count)
{
    if (d.used == 0)
        return;
    if (d.host && d.quiet) {
        if (first == 0 && count == 5) {
            std::memset(d.host, 0, d.used * 5 * sizeof(double));
            return;
        }
        for (std::size_t r = 0; r < d.used; ++r)
            std::fill_n(d.host + 5 * r + first, count, 0.0);
        return;
    }
    d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)).narrow(1, first, count).zero_();
    d.quiet = d.device.is_cpu();  // a fill kernel in flight on a device
}

// Whole rows (a row an integer tensor takes next must read 0 NaN, 0 Inf).
void StatsBuffer::zeroUsed(PerDevice& d)
{
    zeroColumns(d, 0, 5);
}

std::size_t StatsBuffer::queue(const at::Tensor& t, std::size_t tag)
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
    d.quiet = d.quiet && d.device.is_cpu();  // CPU rows are written now; device rows by kernels still to run
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
        m_unlaunchedBytes += t.numel() * static_cast<std::int64_t>(t.element_size());
        // A launch takes kStatsMaxJobs; the bytes cap bounds the memory held back from the caching allocator by
        // tensors the graph has freed meanwhile (a big model's activations).
        if (m_unlaunched.size() == static_cast<std::size_t>(kStatsMaxJobs) || m_unlaunchedBytes >= kMaxUnlaunchedBytes)
            flush();
    }
    m_order.push_back({tag, slot, d.used});
    ++d.used;
    return m_order.size() - 1;
}

void StatsBuffer::share(std::size_t tag, std::size_t entry)
{
    TORCH_CHECK(entry < m_order.size(), "statistics: no queue entry ", entry);
    const Queued q = m_order[entry];
    m_order.push_back({tag, q.slot, q.row});
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
    m_unlaunchedBytes = 0;
    fusedStatsCuda(items);
}

void StatsBuffer::queueAten(PerDevice& d, const at::Tensor& raw)
{
    // uint16/32/64 have no min/max/sum kernels ("min_all not implemented for 'UInt64'"): read them as doubles.
    const at::Tensor t = c10::isBarebonesUnsignedType(raw.scalar_type()) ? raw.to(at::kDouble) : raw;
    // Mapped rows (statsRows) get the row by a kernel at the end: the copy_ below may be a cudaMemcpy, which is not
    // for host memory seen as the device's.
    at::Tensor mappedRow = d.host ? d.rows.select(0, static_cast<std::int64_t>(d.used)) : at::Tensor();
    at::Tensor row = d.host ? at::zeros({5}, d.rows.options()) : d.rows.select(0, static_cast<std::int64_t>(d.used));
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
    if (mappedRow.defined())
        at::mul_out(mappedRow, row, at::scalar_tensor(1.0, at::kDouble));
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

int StatsBuffer::presenceOnly(void* cudaGraph, void* cudaGraphExec)
{
    flush();
    std::string error;
    const int switched = fusedStatsToPresence(cudaGraph, cudaGraphExec, error);
    // Turned launches, even some before an error, never clear what they set: the host must from now on (a launch
    // left as it was rewrites its rows whole, and a count read as "present" is right for it too).
    if (switched > 0) {
        m_presence = true;
        for (PerDevice& d : m_devices)
            zeroCounts(d);
    }
    TORCH_CHECK(error.empty(), error);
    return switched;
}

// The NaN and Inf columns (what the presence kernel sets and never clears), before the next replay.
void StatsBuffer::zeroCounts(PerDevice& d)
{
    zeroColumns(d, 0, 2);
}

void StatsBuffer::discard()
{
    m_unlaunched.clear();
    m_unlaunchedBytes = 0;
    m_order.clear();
    for (PerDevice& d : m_devices) {
        // Inside a CUDA-graph capture (a captured pass restarts the checks it holds) the rows are the ones the pass
        // before wrote for the same tensors, in the same order: not zeroed, so that no fill kernel goes into the graph
        // to run on every replay.
        if (!statsCapturing(d.device))
            zeroUsed(d);
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

void StatsBuffer::peek(const std::function<void(std::size_t, const StatsRow&)>& take, bool deviceSynced)
{
    flush();
    // Per device: mapped rows read in place once its stream is done, others copied (the copy waits for the device).
    std::vector<at::Tensor> copies(m_devices.size());
    std::vector<const double*> rows(m_devices.size(), nullptr);
    for (std::size_t k = 0; k < m_devices.size(); ++k) {
        PerDevice& d = m_devices[k];
        if (d.used == 0)
            continue;
        if (d.host) {
            if (!deviceSynced)
                statsWait(d.device);
            d.quiet = true;
            rows[k] = d.host;
        } else {
            copies[k] = d.rows.narrow(0, 0, static_cast<std::int64_t>(d.used)).cpu();
            d.quiet = true;  // the copy waited for the kernels before it
            rows[k] = copies[k].const_data_ptr<double>();
        }
    }
    for (const Queued& q : m_order) {
        const double* p = rows[q.slot] + 5 * q.row;
        take(q.tag, StatsRow{p[0], p[1], p[2], p[3], p[4]});
    }
    // Presence rows stay set until cleared: the next replay must start from clean ones (a clean replay, the usual
    // one, clears nothing; a pass's read-back, never in presence mode, looks at nothing more).
    if (m_presence)
        for (std::size_t k = 0; k < m_devices.size(); ++k)
            for (std::size_t r = 0; rows[k] && r < m_devices[k].used; ++r)
                if (rows[k][5 * r] != 0 || rows[k][5 * r + 1] != 0) {
                    zeroCounts(m_devices[k]);
                    break;
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
                    b.zeroUsed(d);
                } catch (const c10::Error&) {
                    d.rows = at::Tensor();  // a device in error: nothing more can be written there
                    d.host = nullptr;
                }
                d.used = 0;
            }
            std::erase_if(b.m_devices, [](const PerDevice& d) { return !d.rows.defined(); });
        }
    } reset{*this};
    peek(take);
}

}  // namespace fxray::replay::detail
