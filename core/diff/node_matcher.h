#pragma once
// Pairs the nodes of two graphs (the first half of diffGraphs). Passes, each followed by propagation to a fixpoint:
//  1. names that carry meaning: the output node, get_attr by attribute path, placeholders by position when both
//     graphs take the same number of inputs;
//  2. structural anchors: a Merkle hash per node (its op, literal arguments and recorded metadata, and its inputs'
//     hashes; a matched node hashes as its pair) — a hash that occurs once on each side pairs those two nodes.
//     First strict (everything), then loose (op without overload, no literals, no metadata), so a node whose
//     overload, argument or annotation changed still anchors. Nodes without inputs are not anchored (their hash is
//     only their own shape): their users' propagation pairs them;
//  3. propagation: the inputs of matched nodes are matched position by position when their ops agree, and an
//     unmatched user of a matched node is matched to the one user of its pair with the same op whose matched
//     inputs agree. Newly matched nodes propagate in turn (a worklist), so a match spreads through the graph;
//  4. model-source location: same op at the same file:line (stack-trace comments);
//  5. leftovers: identical nodes paired in program order, then same name and same op.
// Every heuristic pairing (2, 4, 5) is refused when it contradicts a match already made: a matched user on one side
// whose pair reads another node at that position. A pass that finds something restarts from 2 with the new matches
// folded into the hashes. Only nodes running the same op (overload aside) are ever paired, so an op replaced by
// another is a removed and an added node.
#include "diff/graph_diff.h"
#include "graph/graph.h"

#include <vector>

namespace fxray::diff {

struct NodeMatching {
    std::vector<int> aToB, bToA;
    std::vector<MatchReason> reasonA;  // per node of A
};

NodeMatching matchNodes(const graph::Graph& a, const graph::Graph& b);

}  // namespace fxray::diff
