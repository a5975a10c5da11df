#include "worker/rank_job_check.h"

#include "worker/dtensor_reference.h"

#include <set>

namespace fxray::worker {
namespace {

// Which ranks' graphs call each group name (the mesh tells the members from them).
std::map<std::string, std::set<int>> groupUsers(const std::vector<graph::RankGraphs>& ranks)
{
    std::map<std::string, std::set<int>> users;
    for (const auto& rg : ranks)
        for (const auto& [label, g] : rg.graphs)
            for (const auto& call : graph::collectiveCalls(*g, label))
                if (call.ranks.empty())  // legacy calls name their ranks themselves
                    users[call.group].insert(rg.rank);
    return users;
}

}  // namespace

RankJobCheck checkRankJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                          const std::map<std::string, std::vector<int>>& given)
{
    RankJobCheck out;
    std::vector<graph::RankGraphs> rankGraphs;
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        graph::RankGraphs rg;
        rg.rank = static_cast<int>(r);
        for (const io::LoadedGraph* g : perRank[r])
            rg.graphs.emplace_back(g->entry.address, &g->graph);
        rankGraphs.push_back(std::move(rg));
    }
    out.meshes = recordedMeshes(perRank);
    std::map<std::string, std::set<int>> users = groupUsers(rankGraphs);
    for (const auto& [name, members] : given)
        users.erase(name);  // --group wins
    const graph::DerivedGroups derived = graph::groupsFromMeshes(users, out.meshes, static_cast<int>(perRank.size()));
    out.membership = given;
    for (const auto& [name, members] : derived.groups)
        out.membership.emplace(name, members);
    out.check = graph::checkCollectives(rankGraphs, out.membership);
    for (const auto& m : out.meshes)
        out.check.notes.insert(out.check.notes.begin(), "mesh recorded in the logs: " + m.text);
    out.check.notes.insert(out.check.notes.end(), derived.notes.begin(), derived.notes.end());
    return out;
}

}  // namespace fxray::worker
