#include "replay/replay_types.h"

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
    if (cancelled)
        return "cancelled";
    return "pass";
}

bool ReplayReport::passed() const { return verdict() == "pass"; }

}  // namespace fxray::replay
