#pragma once
// Graph utilities later stages build on: hashing, users, ordering, dead-code elimination, subgraphs.
#include "graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxray::graph {

// Equal up to renaming (and order of independent nodes) => equal hash. Covers targets, literal arguments,
// data flow, and recorded metadata; ignores names, stack comments and source lines.
std::uint64_t structuralHash(const Graph& g);

// users[i] = nodes that read node i, in program order.
std::vector<std::vector<int>> computeUsers(const Graph& g);

// A topological order of node indices (output last). Throws fxray::Error naming a node on a cycle.
std::vector<int> topologicalOrder(const Graph& g);

// Removes call nodes whose values nobody uses (in-place ops and ops with side effects are kept).
// Returns the number of nodes removed. Recomputes frees.
int eliminateDeadCode(Graph& g);

// The subgraph that computes `outputs` from the nodes in `keep` (indices into g). Values used by kept nodes
// but produced outside `keep` become placeholders carrying the producer's recorded metadata.
Graph extractSubgraph(const Graph& g, const std::vector<int>& keep, const std::vector<int>& outputs);

// Recomputes Node::frees from last uses (what FX codegen prints as "; a = b = None").
void recomputeFrees(Graph& g);

// Rebuilds a graph without the nodes in `removed`, remapping references. References to removed nodes throw.
Graph removeNodes(const Graph& g, const std::vector<int>& removed);

// Exact equality, names included. On difference, `why` (if given) says where.
bool graphsEqual(const Graph& a, const Graph& b, std::string* why = nullptr);

}  // namespace fxray::graph
