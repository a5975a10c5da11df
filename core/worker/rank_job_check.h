#pragma once
// The static side of a distributed job, shared by the CLI (app/cli/replay_distributed.cpp) and the GUI's Ranks tab:
// the DeviceMeshes the ranks' logs record, the members of each group the graphs call (--group's, else the mesh's
// sub-group: graph/dtensor_layout.h, else every rank), and the collective check under that membership. Plain C++.
#include "graph/collective_check.h"
#include "graph/dtensor_layout.h"
#include "io/graph_source.h"

#include <map>
#include <string>
#include <vector>

namespace fxray::worker {

struct RankJobCheck {
    std::vector<graph::DeviceMeshInfo> meshes;        // recorded in the logs
    std::map<std::string, std::vector<int>> membership;  // given, then derived from the meshes
    graph::CollectiveCheck check;                     // its notes name the meshes and how members were found
};

// perRank[r]: rank r's graphs in run order. `given`: --group NAME=RANKS (wins over the mesh).
RankJobCheck checkRankJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                          const std::map<std::string, std::vector<int>>& given = {});

}  // namespace fxray::worker
