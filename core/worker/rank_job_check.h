#pragma once
// The static side of a distributed job, shared by the CLI (app/cli/replay_distributed.cpp) and the GUI's Ranks tab:
// the DeviceMeshes the ranks' logs record, the members of each group the graphs call (--group's, else the mesh's
// sub-group: graph/dtensor_layout.h, else every rank), the graphs skipped on every rank because one rank cannot
// start them, and the collective check under that membership, over the graphs that run. Plain C++.
#include "graph/collective_check.h"
#include "graph/dtensor_layout.h"
#include "io/graph_source.h"

#include <map>
#include <string>
#include <vector>

namespace fxray::worker {

// A graph no rank runs: some rank cannot start it (an input it cannot build, io/graph_inputs.h) and it calls
// collectives, so that rank's peers would wait in them; skipped on every rank that has it, decided before anything runs.
struct SkippedGraph {
    std::string label;   // its row label (worker/rank_set.h: "[0/0] aot_forward_graph")
    int rank = 0;        // the first rank that cannot start it
    std::string reason;  // why, naming the rank and the input; the rank's report says "skipped on every rank: <reason>"
};

struct RankJobCheck {
    std::vector<graph::DeviceMeshInfo> meshes;        // recorded in the logs
    std::map<std::string, std::vector<int>> membership;  // given, then derived from the meshes
    graph::CollectiveCheck check;                     // its notes name the meshes and how members were found
    std::vector<SkippedGraph> skipped;
    std::vector<std::vector<std::string>> skip;       // [rank][graph]: the skip reason, empty where the graph runs
};

// perRank[r]: rank r's graphs in run order. `given`: --group NAME=RANKS (wins over the mesh). `generatedInputs`:
// the job builds inputs from the recorded metadata (random inputs), so a graph whose input has none cannot start.
RankJobCheck checkRankJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                          const std::map<std::string, std::vector<int>>& given = {}, bool generatedInputs = true);

}  // namespace fxray::worker
