#include "worker/rank_set.h"

#include <algorithm>
#include <regex>

namespace fxray::worker {

int graphRank(const io::GraphEntry& e)
{
    if (e.trace)
        return e.trace->rank;
    static const std::regex rank(R"((?:^|[^A-Za-z])rank_?(\d+)(?:$|[^0-9]))");
    std::smatch m;
    return std::regex_search(e.path, m, rank) ? std::stoi(m[1].str()) : -1;
}

bool isRankJob(const io::Discovery& d)
{
    std::map<int, int> seen;
    for (const io::GraphEntry& e : d.graphs)
        ++seen[graphRank(e)];
    return seen.size() >= 2 && !seen.contains(-1);
}

std::map<int, std::vector<const io::GraphEntry*>> entriesByRank(const io::Discovery& d)
{
    std::map<int, std::vector<const io::GraphEntry*>> byRank;
    for (const io::GraphEntry& e : d.graphs)
        byRank[graphRank(e)].push_back(&e);
    auto runOrder = [](const io::GraphEntry* e) {
        const int kind = e->kind == io::GraphKind::Forward || e->kind == io::GraphKind::Inference ? 0
                         : e->kind == io::GraphKind::Backward                                      ? 1
                                                                                                   : 2;
        return e->format == io::SourceFormat::SeedDump ? std::pair{e->index, kind} : std::pair{0, 0};
    };
    for (auto& [rank, entries] : byRank)
        std::stable_sort(entries.begin(), entries.end(),
                         [&](const io::GraphEntry* a, const io::GraphEntry* b) { return runOrder(a) < runOrder(b); });
    return byRank;
}

std::string rankRowLabel(const io::GraphEntry& e)
{
    if (!e.trace) {
        static const std::regex rankPart(R"(_?rank_?\d+)");
        return std::regex_replace(e.title, rankPart, "");
    }
    static const std::regex rankPart(R"(r\d+:)");
    return std::regex_replace(e.trace->compileId(), rankPart, "") + " " + e.trace->record;
}

}  // namespace fxray::worker
