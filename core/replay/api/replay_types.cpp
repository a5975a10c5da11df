#include "replay/api/replay_types.h"

#include <algorithm>

namespace fxray::replay {

std::string_view nodeStatusName(NodeStatus s)
{
    switch (s) {
    case NodeStatus::Passed: return "passed";
    case NodeStatus::Mismatch: return "mismatch";
    case NodeStatus::Error: return "error";
    case NodeStatus::Skipped: return "skipped";
    case NodeStatus::Unsupported: return "unsupported";
    case NodeStatus::NotRun: return "not-run";
    }
    return "";
}

std::string_view mismatchKindName(Mismatch::Kind k)
{
    switch (k) {
    case Mismatch::Kind::DType: return "dtype";
    case Mismatch::Kind::Size: return "size";
    case Mismatch::Kind::Stride: return "stride";
    case Mismatch::Kind::Device: return "device";
    case Mismatch::Kind::Value: return "value";
    }
    return "";
}

std::string_view cudaGraphFindingKindName(CudaGraphFinding::Kind k)
{
    switch (k) {
    case CudaGraphFinding::Kind::NotCuda: return "not-cuda";
    case CudaGraphFinding::Kind::MutatesInput: return "mutates-input";
    case CudaGraphFinding::Kind::CpuTensor: return "cpu-tensor";
    case CudaGraphFinding::Kind::CpuScalar: return "cpu-scalar";
    case CudaGraphFinding::Kind::MultipleDevices: return "multiple-devices";
    case CudaGraphFinding::Kind::HostSync: return "host-sync";
    case CudaGraphFinding::Kind::Unsupported: return "unsupported";
    case CudaGraphFinding::Kind::Nondeterministic: return "nondeterministic";
    }
    return "";
}

std::vector<const CudaGraphFinding*> CudaGraphReport::findingsAt(const std::string& node) const
{
    std::vector<const CudaGraphFinding*> out;
    for (const auto& f : findings)
        if (f.node == node)
            out.push_back(&f);
    return out;
}

bool CudaGraphReport::blocks(const std::string& node) const
{
    for (const auto& f : findings)
        if (f.blocking && f.node == node)
            return true;
    return false;
}

bool CudaGraphReport::matchesEager() const
{
    for (const auto& c : vsEager)
        if (!c.ok)
            return false;
    return true;
}

double medianOf(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

double CudaGraphReport::medianReplayUs() const { return medianOf(replayUs); }

int ReplayReport::count(NodeStatus s) const
{
    int n = 0;
    for (const auto& r : nodes)
        n += r.status == s;
    return n;
}

std::string ReplayReport::verdict() const
{
    if (!fatal.empty() || count(NodeStatus::Error) > 0)
        return "error";
    if (count(NodeStatus::Mismatch) > 0)
        return "mismatch";
    if (!unsupported.empty() || count(NodeStatus::Unsupported) > 0)
        return "unsupported";
    if (!firstNanNode.empty())
        return "nan";
    for (const auto& c : comparisons)
        if (!c.ok)
            return "diverged";
    // A captured graph whose replay disagrees with eager on the same inputs is a capture bug worth failing on.
    if (cudaGraph && cudaGraph->captured() && !cudaGraph->matchesEager())
        return "diverged";
    if (cancelled)
        return "cancelled";
    return "pass";
}

bool ReplayReport::passed() const { return verdict() == "pass"; }

}  // namespace fxray::replay
