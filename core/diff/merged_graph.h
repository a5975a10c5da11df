#pragma once
// The union of two diffed graphs as one graph, for drawing: B's version of every matched node, B's added nodes,
// and A's removed nodes wired to what they read. Node i of the merged graph is DiffResult::nodes[i], so its status
// and changes are one lookup away (the CLI colours a DOT drawing with them; the GUI's merged view does the same).
#include "diff/graph_diff.h"
#include "graph/graph.h"

#include <utility>
#include <vector>

namespace fxray::diff {

struct MergedGraph {
    graph::Graph graph;  // a valid graph in topological order; removed nodes whose name B also uses get "~a" appended
    // Data dependencies of A that B no longer has, between merged nodes (producer, user): a removed node's edge to
    // its matched user, or a matched user that stopped reading a matched producer. The graph itself has B's edges.
    std::vector<std::pair<int, int>> removedEdges;
};

MergedGraph mergeGraphs(const graph::Graph& a, const graph::Graph& b, const DiffResult& result);

}  // namespace fxray::diff
