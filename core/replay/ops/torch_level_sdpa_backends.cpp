#include "replay/ops/torch_level_sdpa_backends.h"

#include "graph/printer.h"

#include <ATen/Context.h>
#include <ATen/SDPBackend.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// SDPBackend's Python names (torch.nn.attention.SDPBackend), indexed by LibTorch's numbers (at::SDPBackend).
constexpr std::array<const char*, at::num_sdp_backends> kBackendNames = {"MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION",
                                                                         "CUDNN_ATTENTION", "OVERRIDEABLE"};
static_assert(static_cast<int>(at::SDPBackend::cudnn_attention) == 3 && static_cast<int>(at::SDPBackend::overrideable) == 4);

std::optional<std::int64_t> backendNumber(const std::string& name)
{
    for (std::size_t b = 0; b < kBackendNames.size(); ++b)
        if (name == kBackendNames[b])
            return static_cast<std::int64_t>(b);
    return std::nullopt;
}

bool allows(const SdpaBackends& r, at::SDPBackend b)
{
    return std::find(r.allowed.begin(), r.allowed.end(), static_cast<std::int64_t>(b)) != r.allowed.end();
}

// LibTorch's SDPA flags and priority as a region sets them, the previous ones put back on leaving.
class SdpaBackendGuard {
public:
    explicit SdpaBackendGuard(const SdpaBackends& r)
        : m_flash(m_ctx.userEnabledFlashSDP()), m_efficient(m_ctx.userEnabledMemEfficientSDP()),
          m_math(m_ctx.userEnabledMathSDP()), m_cudnn(m_ctx.userEnabledCuDNNSDP()),
          m_overrideable(m_ctx.userEnabledOverrideableSDP()), m_priority(m_ctx.sDPPriorityOrder())
    {
        m_ctx.setSDPUseFlash(allows(r, at::SDPBackend::flash_attention));
        m_ctx.setSDPUseMemEfficient(allows(r, at::SDPBackend::efficient_attention));
        m_ctx.setSDPUseMath(allows(r, at::SDPBackend::math));
        m_ctx.setSDPUseCuDNN(allows(r, at::SDPBackend::cudnn_attention));
        m_ctx.setSDPUseOverrideable(allows(r, at::SDPBackend::overrideable));
        if (r.setPriority) {
            // As _sdpa_kernel(set_priority=True): the user's order first, the rest in their previous order.
            std::vector<std::int64_t> order = r.allowed;
            for (const at::SDPBackend b : m_priority)
                if (std::find(order.begin(), order.end(), static_cast<std::int64_t>(b)) == order.end())
                    order.push_back(static_cast<std::int64_t>(b));
            m_ctx.setSDPPriorityOrder(order);
        }
    }
    ~SdpaBackendGuard()
    {
        m_ctx.setSDPUseFlash(m_flash);
        m_ctx.setSDPUseMemEfficient(m_efficient);
        m_ctx.setSDPUseMath(m_math);
        m_ctx.setSDPUseCuDNN(m_cudnn);
        m_ctx.setSDPUseOverrideable(m_overrideable);
        std::vector<std::int64_t> order;
        for (const at::SDPBackend b : m_priority)
            order.push_back(static_cast<std::int64_t>(b));
        m_ctx.setSDPPriorityOrder(order);
    }
    SdpaBackendGuard(const SdpaBackendGuard&) = delete;
    SdpaBackendGuard& operator=(const SdpaBackendGuard&) = delete;

private:
    at::Context& m_ctx = at::globalContext();
    bool m_flash, m_efficient, m_math, m_cudnn, m_overrideable;
    std::array<at::SDPBackend, at::num_sdp_backends> m_priority;
};

}  // namespace

bool isBackendFromString(const graph::Node& n) { return n.target.op == "torch.nn.attention._backend_from_string"; }
bool isSdpaKernelCall(const graph::Node& n) { return n.target.op == "torch.nn.attention._sdpa_kernel"; }

std::optional<SdpaBackends> sdpaBackendsOf(const graph::Graph& g, const graph::Node& call)
{
    if (call.args.empty() || call.args[0].kind != Arg::Kind::List)
        throw std::invalid_argument("_sdpa_kernel without a literal list of backends");
    SdpaBackends r;
    for (const Arg& a : call.args[0].items) {
        const graph::Node* from = a.kind == Arg::Kind::Node ? &g.nodes[static_cast<std::size_t>(a.node)] : nullptr;
        if (!from || !isBackendFromString(*from) || from->args.empty() || from->args[0].kind != Arg::Kind::String)
            throw std::invalid_argument("_sdpa_kernel's backend " + graph::formatArg(g, a) +
                                        " is not _backend_from_string('NAME') of a literal name");
        const auto number = backendNumber(from->args[0].s);
        if (!number)
            throw std::invalid_argument("unknown SDPA backend '" + from->args[0].s + "'");
        r.allowed.push_back(*number);
    }
    const Arg* priority = call.args.size() > 1 ? &call.args[1] : nullptr;
    for (const auto& [name, value] : call.kwargs)
        if (name == "set_priority")
            priority = &value;
    r.setPriority = priority && priority->kind == Arg::Kind::Bool && priority->b;
    if (r.allowed.size() == static_cast<std::size_t>(at::num_sdp_backends) && !r.setPriority)
        return std::nullopt;
    return r;
}

NodePlan underSdpaBackends(NodePlan p, const SdpaBackends& region, const c10::Device& device)
{
    std::string names;
    for (const std::int64_t b : region.allowed)
        names += (names.empty() ? "" : ", ") + std::string(kBackendNames[static_cast<std::size_t>(b)]);
    const std::string what = p.op ? c10::toString(p.op->schema()) : p.schema;
    // On the CPU only flash and math kernels exist: a region that allows neither would leave SDPA no kernel at all.
    const bool apply = device.is_cuda() || allows(region, at::SDPBackend::math) || allows(region, at::SDPBackend::flash_attention);
    NodePlan wrapped = p;
    wrapped.kind = NodePlan::Kind::Native;
    wrapped.op.reset();
    wrapped.schema = what + "  [under sdpa_kernel(" + names + (region.setPriority ? ", set_priority" : "") + ")" +
                     (apply ? "]" : ": CUDA backends only, the CPU picks its own kernel]");
    wrapped.native = [p, region, apply](const std::vector<c10::IValue>& values) -> c10::IValue {
        if (!apply)
            return runPlanned(p, values);
        const SdpaBackendGuard guard(region);
        return runPlanned(p, values);
    };
    return wrapped;
}

}  // namespace fxray::replay::detail
