#pragma once
// The ranks of a distributed job as discovery finds them: the rank a graph belongs to (a trace log's rank, or
// rank<N> / rank_<N> in a seed dump's path), whether a discovery is a job (two ranks or more and no graph without a
// rank), each rank's graphs in the order the run executed them, and a graph's row label without its rank, so that
// the ranks' graphs line up side by side. Plain C++; the GUI's Dumps tree and Ranks tab and the CLI's distributed
// replay (app/cli/replay_distributed.cpp) use it.
#include "io/graph_source.h"

#include <map>
#include <string>
#include <vector>

namespace fxray::worker {

int graphRank(const io::GraphEntry& e);  // -1: no rank
bool isRankJob(const io::Discovery& d);
// Seed dumps are discovered by name (backward before forward): a rank runs forward k, then backward k; joint graphs
// (never run as such) come last. Trace logs are already in the order the run logged them.
std::map<int, std::vector<const io::GraphEntry*>> entriesByRank(const io::Discovery& d);
// "tp_mlp_forward_0" for "tp_mlp_rank0_forward_0"; "[0/0] aot_forward_graph" for a trace graph of any rank.
std::string rankRowLabel(const io::GraphEntry& e);

}  // namespace fxray::worker
