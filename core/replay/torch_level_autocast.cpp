#include "replay/torch_level_autocast.h"

#include "replay/torch_types.h"

#include <ATen/autocast_mode.h>
#include <ATen/core/stack.h>

#include <stdexcept>

namespace fxray::replay::detail {
namespace {

// Sets autocast for one device type and puts the previous state back when it goes out of scope.
class AutocastGuard {
public:
    explicit AutocastGuard(const AutocastRegion& r)
        : m_device(r.device), m_enabled(at::autocast::is_autocast_enabled(r.device)),
          m_dtype(at::autocast::get_autocast_dtype(r.device))
    {
        at::autocast::set_autocast_enabled(m_device, r.enabled);
        at::autocast::set_autocast_dtype(m_device, r.dtype);
    }
    ~AutocastGuard()
    {
        at::autocast::set_autocast_enabled(m_device, m_enabled);
        at::autocast::set_autocast_dtype(m_device, m_dtype);
    }
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;

private:
    c10::DeviceType m_device;
    bool m_enabled;
    c10::ScalarType m_dtype;
};

const graph::Arg* argument(const graph::Node& n, std::size_t position, const char* name)
{
    for (const auto& [k, v] : n.kwargs)
        if (k == name)
            return &v;
    return position < n.args.size() ? &n.args[position] : nullptr;
}

}  // namespace

AutocastRegion autocastRegionOf(const graph::Node& enter, const c10::Device& replayDevice)
{
    const graph::Arg* device = argument(enter, 0, "device_type");
    const graph::Arg* dtype = argument(enter, 1, "dtype");
    const graph::Arg* enabled = argument(enter, 2, "enabled");
    if (!device || device->kind != graph::Arg::Kind::String)
        throw std::invalid_argument("_enter_autocast without a literal device type");
    AutocastRegion r;
    r.device = mapDevice(graph::Device{device->s, -1}, replayDevice).type();
    if (dtype && dtype->kind == graph::Arg::Kind::DType)
        r.dtype = toScalarType(dtype->dtype);
    else if (!dtype || dtype->kind == graph::Arg::Kind::None)
        r.dtype = at::autocast::get_autocast_dtype(r.device);  // the device type's default (f16 CUDA, bf16 CPU)
    else
        throw std::invalid_argument("_enter_autocast with a computed dtype");
    if (enabled && enabled->kind != graph::Arg::Kind::Bool && enabled->kind != graph::Arg::Kind::None)
        throw std::invalid_argument("_enter_autocast with a computed enabled flag");
    r.enabled = !enabled || enabled->kind != graph::Arg::Kind::Bool || enabled->b;
    return r;
}

NodePlan underAutocast(NodePlan p, const AutocastRegion& region)
{
    NodePlan wrapped = p;
    wrapped.kind = NodePlan::Kind::Native;
    wrapped.op.reset();
    const std::string what = p.op ? c10::toString(p.op->schema()) : p.schema;
    wrapped.schema = what + " under autocast(" + c10::DeviceTypeName(region.device, true) + ", " +
                     c10::toString(region.dtype) + (region.enabled ? "" : ", disabled") + ")";
    wrapped.native = [p, region](const std::vector<c10::IValue>& values) -> c10::IValue {
        AutocastGuard guard(region);
        if (!p.op)
            return p.native(values);
        torch::jit::Stack stack(values.begin(), values.end());
        p.op->callBoxed(stack);
        if (stack.size() == 1)
            return std::move(stack[0]);
        return stack.empty() ? c10::IValue() : c10::IValue(c10::ivalue::Tuple::create(std::move(stack)));
    };
    return wrapped;
}

}  // namespace fxray::replay::detail
