#include "worker/rank_job_check.h"

#include "io/graph_inputs.h"
#include "worker/dtensor_reference.h"
#include "worker/rank_set.h"

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

// The graphs with collectives that some rank cannot start, skipped on every rank (by row label, so that each rank
// leaves out the same compile's graph and the collective sequences stay paired).
void findSkips(const std::vector<std::vector<const io::LoadedGraph*>>& perRank, RankJobCheck& out)
{
    std::map<std::string, std::size_t> at;  // label -> index in out.skipped
    for (std::size_t r = 0; r < perRank.size(); ++r)
        for (const io::LoadedGraph* g : perRank[r]) {
            const std::string label = rankRowLabel(g->entry);
            if (at.contains(label) || graph::collectiveCalls(g->graph, "").empty())
                continue;
            if (auto why = io::unbuildableInput(*g)) {
                at[label] = out.skipped.size();
                out.skipped.push_back({label, static_cast<int>(r),
                                       "rank " + std::to_string(r) + " cannot start it (" + *why + ") and it calls " +
                                           std::to_string(graph::collectiveCalls(g->graph, "").size()) +
                                           " collective(s) its peers would wait in"});
            }
        }
    out.skip.resize(perRank.size());
    for (std::size_t r = 0; r < perRank.size(); ++r)
        for (const io::LoadedGraph* g : perRank[r]) {
            auto it = at.find(rankRowLabel(g->entry));
            out.skip[r].push_back(it == at.end() ? std::string() : out.skipped[it->second].reason);
        }
}

}  // namespace

RankJobCheck checkRankJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                          const std::map<std::string, std::vector<int>>& given, bool generatedInputs)
{
    RankJobCheck out;
    if (generatedInputs)
        findSkips(perRank, out);
    else
        out.skip.assign(perRank.size(), {});
    std::vector<graph::RankGraphs> rankGraphs;
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        graph::RankGraphs rg;
        rg.rank = static_cast<int>(r);
        for (std::size_t k = 0; k < perRank[r].size(); ++k)
            if (k >= out.skip[r].size() || out.skip[r][k].empty())  // a skipped graph's collectives are made by no rank
                rg.graphs.emplace_back(perRank[r][k]->entry.address, &perRank[r][k]->graph);
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
