#include "diff/merged_graph.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

namespace fxray::diff {

MergedGraph mergeGraphs(const graph::Graph& a, const graph::Graph& b, const DiffResult& result)
{
    MergedGraph m;
    graph::Graph& g = m.graph;
    g.className = b.className;
    g.outputForm = b.outputForm;
    g.pytreeInputs = b.pytreeInputs;
    g.stacks = b.stacks;
    g.stacks.insert(g.stacks.end(), a.stacks.begin(), a.stacks.end());
    const int stackOffsetA = static_cast<int>(b.stacks.size());

    const std::size_t n = result.nodes.size();
    std::vector<int> mergedOfA(a.nodes.size(), -1), mergedOfB(b.nodes.size(), -1);
    for (std::size_t k = 0; k < n; ++k) {
        const NodeDiff& d = result.nodes[k];
        if (d.b >= 0)
            mergedOfB[static_cast<std::size_t>(d.b)] = static_cast<int>(k);
        if (d.a >= 0)
            mergedOfA[static_cast<std::size_t>(d.a)] = static_cast<int>(k);
    }

    std::unordered_set<std::string> names;
    for (const graph::Node& node : b.nodes)
        names.insert(node.name);
    const std::function<void(graph::Arg&, const std::vector<int>&)> remap = [&](graph::Arg& arg, const std::vector<int>& to) {
        if (arg.kind == graph::Arg::Kind::Node)
            arg.node = to[static_cast<std::size_t>(arg.node)];
        for (graph::Arg& item : arg.items)
            remap(item, to);
    };
    g.nodes.reserve(n);
    for (const NodeDiff& d : result.nodes) {
        const bool fromB = d.b >= 0;
        graph::Node node = fromB ? b.nodes[static_cast<std::size_t>(d.b)] : a.nodes[static_cast<std::size_t>(d.a)];
        const std::vector<int>& to = fromB ? mergedOfB : mergedOfA;
        for (graph::Arg& arg : node.args)
            remap(arg, to);
        for (auto& kv : node.kwargs)
            remap(kv.second, to);
        node.frees.clear();  // a drawing, not code to run
        if (!fromB) {
            if (node.stack >= 0)
                node.stack += stackOffsetA;
            while (!names.insert(node.name).second)
                node.name += "~a";
        }
        g.nodes.push_back(std::move(node));
    }

    // A's edges, in merged indices, that the merged node (B's version for matched users) does not have.
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        if (result.aToB[i] < 0)
            continue;  // removed users are A's own nodes: their edges are in the graph
        const int user = mergedOfA[i];
        std::vector<int> has;
        graph::forEachNodeRef(g.nodes[static_cast<std::size_t>(user)], [&](int r) { has.push_back(r); });
        std::vector<int> seen;
        graph::forEachNodeRef(a.nodes[i], [&](int r) {
            const int producer = mergedOfA[static_cast<std::size_t>(r)];
            if (std::find(has.begin(), has.end(), producer) == has.end() &&
                std::find(seen.begin(), seen.end(), producer) == seen.end()) {
                seen.push_back(producer);
                m.removedEdges.emplace_back(producer, user);
            }
        });
    }
    return m;
}

}  // namespace fxray::diff
