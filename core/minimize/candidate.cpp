#include "minimize/candidate.h"

#include "graph/algorithms.h"

#include <algorithm>

namespace fxray::minimize {

using graph::Node;
using graph::NodeKind;

namespace {

bool isGetitemOfCall(const graph::Graph& g, const Node& n)
{
    if (n.kind != NodeKind::CallFunction || n.target.kind != graph::Target::Kind::Getitem || n.args.empty() ||
        n.args[0].kind != graph::Arg::Kind::Node)
        return false;
    const Node& src = g.nodes[static_cast<std::size_t>(n.args[0].node)];
    return src.kind != NodeKind::Placeholder;
}

}  // namespace

CandidateBuilder::CandidateBuilder(const io::LoadedGraph& original) : m_original(original)
{
    graph::Graph& g = m_original.graph;
    const auto placeholders = g.placeholders();
    for (std::size_t k = 0; k < placeholders.size() && k < m_original.inputs.size(); ++k) {
        Node& ph = g.nodes[static_cast<std::size_t>(placeholders[k])];
        if (!ph.meta && m_original.inputs[k].meta)
            ph.meta = m_original.inputs[k].meta;
    }
    m_users = graph::computeUsers(g);
    m_getitems.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder || n.kind == NodeKind::Output)
            continue;
        if (isGetitemOfCall(g, n))
            m_getitems[static_cast<std::size_t>(n.args[0].node)].push_back(static_cast<int>(i));
        else
            m_units.push_back(static_cast<int>(i));
    }
}

std::vector<int> CandidateBuilder::ancestorUnits(int node) const
{
    const graph::Graph& g = m_original.graph;
    std::vector<bool> seen(g.nodes.size(), false);
    std::vector<int> stack{node};
    while (!stack.empty()) {
        int v = stack.back();
        stack.pop_back();
        if (seen[static_cast<std::size_t>(v)])
            continue;
        seen[static_cast<std::size_t>(v)] = true;
        graph::forEachNodeRef(g.nodes[static_cast<std::size_t>(v)], [&](int ref) { stack.push_back(ref); });
    }
    std::vector<int> out;
    for (int u : m_units)
        if (seen[static_cast<std::size_t>(u)])
            out.push_back(u);
    return out;
}

int CandidateBuilder::computeNodes(const std::vector<int>& keptUnits) const
{
    std::size_t n = 0;
    for (int u : keptUnits)
        n += 1 + m_getitems[static_cast<std::size_t>(u)].size();
    return static_cast<int>(n);
}

io::LoadedGraph CandidateBuilder::build(const std::vector<int>& keptUnits, int mustOutput) const
{
    const graph::Graph& g = m_original.graph;
    std::vector<bool> kept(g.nodes.size(), false);
    std::vector<int> keep;
    for (int u : keptUnits) {
        kept[static_cast<std::size_t>(u)] = true;
        for (int gi : m_getitems[static_cast<std::size_t>(u)])
            kept[static_cast<std::size_t>(gi)] = true;
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (kept[i])
            keep.push_back(static_cast<int>(i));
    // Outputs: kept values no kept node reads. A multi-output op read only through its getitems is not one.
    std::vector<int> outputs;
    for (int i : keep) {
        bool read = false;
        for (int u : m_users[static_cast<std::size_t>(i)])
            read = read || kept[static_cast<std::size_t>(u)];
        const bool unpacked = !m_getitems[static_cast<std::size_t>(i)].empty();
        if ((!read && !unpacked) || i == mustOutput)
            outputs.push_back(i);
    }
    io::LoadedGraph c;
    c.entry = m_original.entry;
    c.stateDictPath = m_original.stateDictPath;  // get_attr constants stay real; inputs are made fresh
    c.graph = graph::extractSubgraph(g, keep, outputs);
    for (int ph : c.graph.placeholders()) {
        const Node& n = c.graph.nodes[static_cast<std::size_t>(ph)];
        c.inputs.push_back(io::InputSpec{n.name, n.meta, n.meta ? io::MetaSource::Annotation : io::MetaSource::None});
    }
    return c;
}

}  // namespace fxray::minimize
