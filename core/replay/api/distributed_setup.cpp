#include "replay/api/distributed_setup.h"

#include <unistd.h>

#include "base/error.h"

#include <algorithm>
#include <cstdlib>

namespace fxray::replay {
namespace {

int toInt(const std::string& text, const std::string& what)
{
    std::size_t used = 0;
    int v = 0;
    try {
        v = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw Error(what + ": '" + text + "' is not an integer");
    return v;
}

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

std::pair<std::string, std::vector<int>> parseGroupSpec(const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw Error("a group is NAME=RANKS (e.g. 0=0,1), got '" + text + "'");
    std::vector<int> ranks;
    std::size_t pos = eq + 1;
    while (pos <= text.size()) {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        const int r = toInt(text.substr(pos, comma - pos), "group '" + text.substr(0, eq) + "'");
        if (r < 0)
            throw Error("group '" + text.substr(0, eq) + "': rank " + std::to_string(r) + " is negative");
        ranks.push_back(r);
        pos = comma + 1;
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return {text.substr(0, eq), ranks};
}

std::vector<std::pair<std::string, std::string>> distributedEnv(const DistributedSetup& s)
{
    std::string groups;
    for (const auto& [name, ranks] : s.groups) {
        if (!groups.empty())
            groups += ';';
        groups += name + '=';
        for (std::size_t k = 0; k < ranks.size(); ++k)
            groups += (k ? "," : "") + std::to_string(ranks[k]);
    }
    return {{"FXRAY_DIST_RANK", std::to_string(s.rank)},
            {"FXRAY_DIST_WORLD", std::to_string(s.world)},
            {"FXRAY_DIST_STORE", s.store},
            {"FXRAY_DIST_GROUPS", groups},
            {"FXRAY_DIST_TIMEOUT_MS", std::to_string(s.timeout.count())},
            {"FXRAY_DIST_BACKEND", s.backend},
            // The job's fxray: a worker ends itself once it is gone (command_worker's orphan watch), also when it
            // died before the worker started watching.
            {"FXRAY_DIST_PARENT", std::to_string(::getpid())}};
}

std::optional<DistributedSetup> distributedSetupFromEnv()
{
    const std::string rank = env("FXRAY_DIST_RANK");
    if (rank.empty())
        return std::nullopt;
    DistributedSetup s;
    s.rank = toInt(rank, "FXRAY_DIST_RANK");
    s.world = toInt(env("FXRAY_DIST_WORLD"), "FXRAY_DIST_WORLD");
    s.store = env("FXRAY_DIST_STORE");
    if (s.store.empty())
        throw Error("FXRAY_DIST_STORE is not set: the rendezvous needs a store path");
    s.timeout = std::chrono::milliseconds(toInt(env("FXRAY_DIST_TIMEOUT_MS"), "FXRAY_DIST_TIMEOUT_MS"));
    s.backend = env("FXRAY_DIST_BACKEND").empty() ? "gloo" : env("FXRAY_DIST_BACKEND");
    const std::string groups = env("FXRAY_DIST_GROUPS");
    std::size_t pos = 0;
    while (pos < groups.size()) {
        std::size_t semi = groups.find(';', pos);
        if (semi == std::string::npos)
            semi = groups.size();
        s.groups.insert(parseGroupSpec(groups.substr(pos, semi - pos)));
        pos = semi + 1;
    }
    if (s.rank < 0 || s.rank >= s.world)
        throw Error("FXRAY_DIST_RANK " + std::to_string(s.rank) + " is outside the world of " + std::to_string(s.world));
    return s;
}

}  // namespace fxray::replay
