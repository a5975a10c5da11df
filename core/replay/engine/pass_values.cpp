// A pass's values copied and measured: exact copies of inputs for the passes after the first (timed repeats, the
// reference device, CUDA-graph capture), inputs moved to another device, and the device memory they take.
#include "replay/engine/replay_pass.h"

#include <ATen/ATen.h>

namespace fxray::replay::engine {
namespace {

// A copy with the very same geometry (sizes, strides, storage offset — expanded and overlapping ones too):
// the whole storage is copied and viewed again.
at::Tensor cloneExactly(const at::Tensor& t)
{
    const auto itemsize = static_cast<std::int64_t>(t.element_size());
    const std::int64_t storageElems = static_cast<std::int64_t>(t.storage().nbytes()) / itemsize;
    at::Tensor whole = at::empty({0}, t.options()).set_(t.storage(), 0, {storageElems}, {1});
    return whole.clone().as_strided(t.sizes(), t.strides(), t.storage_offset());
}

}  // namespace

#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
c10::CachingDeviceAllocator::Stat allocatedBytes(const c10::Device& device)
{
    return c10::cuda::CUDACachingAllocator::getDeviceStats(device.index())
        .allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)];
}
#endif

// Bytes of the storages behind the tensors on `device` (each storage once).
std::int64_t deviceBytes(const std::vector<c10::IValue>& values, const c10::Device& device)
{
    std::set<const void*> seen;
    std::int64_t total = 0;
    for (const auto& v : values)
        if (v.isTensor() && v.toTensor().defined() && v.toTensor().device() == device &&
            seen.insert(v.toTensor().storage().data()).second)
            total += static_cast<std::int64_t>(v.toTensor().storage().nbytes());
    return total;
}

std::vector<c10::IValue> cloneValues(const std::vector<c10::IValue>& values)
{
    std::vector<c10::IValue> out;
    out.reserve(values.size());
    for (const auto& v : values)
        out.push_back(v.isTensor() && v.toTensor().defined() ? c10::IValue(cloneExactly(v.toTensor())) : v);
    return out;
}

std::vector<c10::IValue> moveTo(const std::vector<c10::IValue>& values, const c10::Device& from, const c10::Device& to)
{
    std::vector<c10::IValue> out;
    for (const auto& v : values) {
        // Tensors on the replay device move; CPU scalars stay where they were.
        if (v.isTensor() && v.toTensor().defined() && v.toTensor().device() == from)
            out.emplace_back(v.toTensor().to(to));
        else
            out.push_back(v);
    }
    return out;
}

}  // namespace fxray::replay::engine
