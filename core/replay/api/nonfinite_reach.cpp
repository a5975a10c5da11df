#include "replay/api/nonfinite_reach.h"

#include <algorithm>
#include <deque>

namespace fxray::replay {
namespace {

void collectNodeRefs(const graph::Arg& a, std::vector<int>& out)
{
    if (a.kind == graph::Arg::Kind::Node)
        out.push_back(a.node);
    for (const graph::Arg& item : a.items)
        collectNodeRefs(item, out);
}

// users[i]: the nodes that read node i's value.
std::vector<std::vector<int>> usersOf(const graph::Graph& g)
{
    std::vector<std::vector<int>> users(g.nodes.size());
    for (std::size_t u = 0; u < g.nodes.size(); ++u) {
        std::vector<int> refs;
        for (const graph::Arg& a : g.nodes[u].args)
            collectNodeRefs(a, refs);
        for (const auto& [key, a] : g.nodes[u].kwargs)
            collectNodeRefs(a, refs);
        for (int r : refs)
            if (r >= 0 && static_cast<std::size_t>(r) < users.size())
                users[static_cast<std::size_t>(r)].push_back(static_cast<int>(u));
    }
    return users;
}

bool holdsNonFinite(const NodeResult& r)
{
    return std::any_of(r.outputs.begin(), r.outputs.end(),
                       [](const OutputStats& s) { return s.nanCount + s.infCount > 0; });
}

// Follows the non-finite values downstream of `origin`: whether one reaches the output node, and the finite nodes
// that read one (where it was absorbed: a cast to an integer, `where`, `min`/`max`, a masked fill).
bool reachesOutput(const graph::Graph& g, const ReplayReport& report, const std::vector<std::vector<int>>& users,
                   std::size_t origin, std::vector<std::string>& absorbedAt)
{
    std::vector<bool> seen(g.nodes.size(), false);
    std::deque<std::size_t> todo{origin};
    seen[origin] = true;
    while (!todo.empty()) {
        const std::size_t v = todo.front();
        todo.pop_front();
        for (int ui : users[v]) {
            const auto u = static_cast<std::size_t>(ui);
            if (seen[u])
                continue;
            seen[u] = true;
            if (g.nodes[u].kind == graph::NodeKind::Output)
                return true;
            if (holdsNonFinite(report.nodes[u]))
                todo.push_back(u);
            else if (report.nodes[u].status == NodeStatus::Passed || report.nodes[u].status == NodeStatus::Mismatch)
                absorbedAt.push_back(g.nodes[u].name);
        }
    }
    return false;
}

}  // namespace

void classifyNonFiniteOrigins(const graph::Graph& g, ReplayReport& report)
{
    if (report.nodes.size() != g.nodes.size() || report.cancelled || report.count(NodeStatus::NotRun) > 0)
        return;
    const auto users = usersOf(g);
    report.firstNanNode.clear();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        NodeResult& r = report.nodes[i];
        if (!r.nanOrigin)
            continue;
        std::vector<std::string> absorbed;
        if (reachesOutput(g, report, users, i, absorbed)) {
            if (report.firstNanNode.empty())
                report.firstNanNode = r.name;
            continue;
        }
        r.nanOrigin = false;
        r.transientNonFinite = true;
        r.absorbedAt = std::move(absorbed);
    }
}

}  // namespace fxray::replay
