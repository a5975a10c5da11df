#pragma once
// The static check of a distributed job before anything runs: every rank of a process group must call the same
// collectives in the same order (a rank that calls another collective than its peers hangs the job, or pairs
// wrong buffers). Reads `_c10d_functional` / `_c10d_functional_autograd` / legacy `c10d_functional` calls out of
// each rank's graphs, in the order the ranks will run them, and names the first difference per group.
// Plain C++ over graph::Graph: no LibTorch.
#include "graph/graph.h"

#include <map>
#include <string>
#include <vector>

namespace fxray::graph {

// One collective call of a graph, as the check compares it.
struct CollectiveCall {
    std::string op;        // "all_reduce", "all_gather_into_tensor", ... (namespace and overload dropped)
    std::string group;     // the group name the graph passes ("0"); legacy c10d_functional: "ranks[0, 1]"
    std::string reduceOp;  // "sum", "avg", ... for reducing collectives; empty otherwise
    std::string input;     // the first input's recorded dtype and shape ("f32[4, 16]"), or "?" when unannotated
    bool compareShape = true;  // all_to_all_single: ranks may send different amounts; shapes are not compared
    std::vector<int> ranks;    // legacy c10d_functional only: the group's ranks as the call names them
    int groupSize = -1;        // the size the call passes (all_gather / reduce_scatter, legacy calls); -1 if none
    std::string node;          // node name in its graph ("all_reduce_1")
    std::string graph;         // the graph's label (its address)

    // "all_reduce sum f32[4, 16] on group '0' (node all_reduce_1)"
    std::string describe() const;
    // Same op, group, reduce op and dtype/shape (where compared).
    bool matches(const CollectiveCall& o) const;
};

// True for the namespaces whose ops are collectives or their waits.
bool isCollectiveNamespace(const std::string& ns);
// The collective calls of one graph in program order (wait_tensor is a wait, not a call: left out).
std::vector<CollectiveCall> collectiveCalls(const Graph& g, const std::string& label);
// Where a node waits on a collective: wait_tensor(x) -> the node name of the collective that made x, else "".
std::string waitedCollective(const Graph& g, int nodeIndex);

// The graphs one rank runs, in the order it runs them.
struct RankGraphs {
    int rank = 0;
    std::vector<std::pair<std::string, const Graph*>> graphs;  // (label, graph)
};

struct CollectiveCheck {
    // Group name -> member ranks (given, or every rank of the job when nothing says otherwise).
    std::map<std::string, std::vector<int>> groups;
    std::map<int, std::size_t> callsPerRank;  // collectives each rank will call, all groups together
    std::vector<std::string> mismatches;      // one per group that differs: its first difference, named
    // Per mismatch: the calls it names, with their ranks (the differing pair, or the call with no counterpart;
    // `graph` is the graph's label as given, an address in the CLI and GUI), so a view can link to them.
    std::vector<std::vector<std::pair<int, CollectiveCall>>> mismatchCalls;
    std::vector<std::string> notes;           // groups whose membership was assumed
    bool ok() const { return mismatches.empty(); }
};

// Compares, group by group, the sequence of collectives each member rank will call. `membership` gives groups
// whose ranks are known (--group, the legacy calls' rank lists); any other group is taken as every rank of
// `ranks` (noted).
CollectiveCheck checkCollectives(const std::vector<RankGraphs>& ranks,
                                 const std::map<std::string, std::vector<int>>& membership = {});

}  // namespace fxray::graph
