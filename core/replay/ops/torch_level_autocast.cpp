#include "replay/ops/torch_level_autocast.h"

#include "replay/values/torch_types.h"

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

bool isMatmulLike(const graph::Node& n)
{
    static const char* const kCalls[] = {"torch._C._nn.linear", "torch.nn.functional.linear", "torch.matmul", "torch.mm",
                                         "torch.bmm", "torch.addmm", "torch.baddbmm", "torch.conv1d", "torch.conv2d",
                                         "torch.conv3d", "torch.einsum"};
    if (n.kind == graph::NodeKind::CallMethod)
        return n.target.op == "matmul" || n.target.op == "mm" || n.target.op == "bmm";
    if (n.target.kind == graph::Target::Kind::Operator)
        return n.target.op == "matmul";
    if (n.target.kind != graph::Target::Kind::Python)
        return false;
    for (const char* c : kCalls)
        if (n.target.op == c)
            return true;
    return false;
}

std::optional<graph::DType> recordedDtype(const graph::Graph& g, const graph::Arg& a)
{
    if (a.kind != graph::Arg::Kind::Node)
        return std::nullopt;
    const graph::Node& n = g.nodes[static_cast<std::size_t>(a.node)];
    if (!n.meta || !n.meta->isTensor())
        return std::nullopt;
    return n.meta->tensor.dtype;
}

}  // namespace

std::optional<AutocastRegion> ambientAutocast(const graph::Graph& g, const c10::Device& replayDevice)
{
    int depth = 0;
    for (const graph::Node& n : g.nodes) {
        if (n.kind == graph::NodeKind::CallFunction && n.target.kind == graph::Target::Kind::Python)
            depth += n.target.op == "torch.amp.autocast_mode._enter_autocast" ? 1 : n.target.op == "torch.amp.autocast_mode._exit_autocast" ? -1 : 0;
        if (depth != 0 || !isMatmulLike(n) || !n.meta || !n.meta->isTensor() || !n.meta->tensor.device)
            continue;
        const graph::DType out = n.meta->tensor.dtype;
        if (out != graph::DType::BFloat16 && out != graph::DType::Float16)
            continue;
        bool f32Operand = false;
        for (const graph::Arg& a : n.args)
            f32Operand = f32Operand || recordedDtype(g, a) == graph::DType::Float32;
        if (!f32Operand)
            continue;
        AutocastRegion r;
        r.device = mapDevice(*n.meta->tensor.device, replayDevice).type();
        r.dtype = toScalarType(out);
        r.ambient = true;
        return r;
    }
    return std::nullopt;
}

AutocastRegion autocastRegionOf(const graph::Node& enter, const c10::Device& replayDevice, const AutocastRegion* outer)
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
    else if ((!dtype || dtype->kind == graph::Arg::Kind::None) && outer && outer->device == r.device)
        r.dtype = outer->dtype;  // Python reads the current autocast dtype: the enclosing region's
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
                     c10::toString(region.dtype) + (region.enabled ? "" : ", disabled") + ")" +
                     (region.ambient ? " (entered outside the graph: its recorded dtypes show it)" : "");
    wrapped.native = [p, region](const std::vector<c10::IValue>& values) -> c10::IValue {
        AutocastGuard guard(region);
        return runPlanned(p, values);
    };
    return wrapped;
}

}  // namespace fxray::replay::detail
