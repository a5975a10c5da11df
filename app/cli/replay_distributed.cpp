#include "replay_distributed.h"

#include "base/json.h"
#include "graph/collective_check.h"
#include "replay/api/report_format.h"
#include "self_exe.h"
#include "graph/dtensor_layout.h"
#include "worker/distributed_job.h"
#include "worker/dtensor_reference.h"
#include "worker/rank_job_check.h"
#include "worker/rank_set.h"
#include "worker/temp_dir.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

namespace fxray::cli {
namespace {

struct RankSet {
    std::vector<std::vector<io::LoadedGraph>> graphs;  // by rank, run order
    std::vector<std::string> loadErrors;
};

double seconds(const ArgParser& p, const char* name, double fallback)
{
    auto v = p.value(name);
    if (!v)
        return fallback;
    double s = 0;
    try {
        s = std::stod(*v);
    } catch (const std::exception&) {
    }
    if (!(s > 0))
        throw Error(std::string(name) + " wants a positive number of seconds, got '" + *v + "'");
    return s;
}

// Loads every graph, by rank. --ranks N: the graphs of one rank, N times (a rank-symmetric, SPMD recording).
RankSet loadRanks(const ArgParser& p, const io::Discovery& d, int ranksFlag)
{
    // Each rank's graphs in the order the run executed them (worker/rank_set.h).
    std::map<int, std::vector<const io::GraphEntry*>> byRank = worker::entriesByRank(d);
    if (ranksFlag > 0) {
        if (byRank.size() > 1)
            throw Error("--ranks replays one rank's graphs on N ranks, but " + p.positionals()[0] + " holds " +
                        std::to_string(byRank.size()) + " ranks' graphs: leave --ranks out");
        const auto only = byRank.begin()->second;
        byRank.clear();
        for (int r = 0; r < ranksFlag; ++r)
            byRank[r] = only;
    }
    RankSet out;
    int expect = 0;
    for (const auto& [rank, entries] : byRank) {
        if (rank != expect)
            throw Error(p.positionals()[0] + ": ranks must be 0.." + std::to_string(byRank.size() - 1) + ", found rank " +
                        std::to_string(rank) + (rank < 0 ? " (graphs with no rank in their log or folder name)" : ""));
        ++expect;
        auto& list = out.graphs.emplace_back();
        for (const io::GraphEntry* e : entries) {
            try {
                list.push_back(io::loadGraph(*e));
            } catch (const Error& err) {
                out.loadErrors.push_back("rank " + std::to_string(rank) + ": " + err.what());
            }
        }
    }
    return out;
}

std::pair<int, int> collectivesRun(const replay::ReplayReport& r)
{
    int run = 0, total = 0;
    for (const auto& n : r.nodes) {
        if (!worker::isCollectiveTarget(n.target) || n.target.find(".wait_tensor") != std::string::npos)
            continue;
        ++total;
        run += n.status == replay::NodeStatus::Passed ? 1 : 0;
    }
    return {run, total};
}

std::string cell(const replay::ReplayReport& r)
{
    if (r.fatal.starts_with("skipped on every rank"))
        return "skipped";
    if (!r.fatal.empty() && r.nodes.empty())
        return "not run";
    auto [run, total] = collectivesRun(r);
    std::string s = r.verdict() + " " + std::to_string(r.count(replay::NodeStatus::Passed)) + "/" + std::to_string(r.nodes.size());
    if (total)
        s += " c" + std::to_string(run) + "/" + std::to_string(total);
    if (const std::string mark = worker::referenceMark(r); !mark.empty())
        s += " " + mark;
    return s;
}

// The single-rank references run before the job, and what was left out.
void printReferences(const worker::DtensorReferences& refs)
{
    for (const auto& ref : refs.references)
        std::printf("single-rank reference of compile %s (dynamo graph, unsharded, on the global inputs): %s %d/%zu%s\n",
                    ref.compile.c_str(), ref.report.verdict().c_str(), ref.report.count(replay::NodeStatus::Passed),
                    ref.report.nodes.size(),
                    ref.unchecked ? (", " + std::to_string(ref.unchecked) + " rank-local annotation(s) unchecked").c_str() : "");
    if (refs.rankGraphs)
        std::printf("inputs: every rank's AOT forward (and its post-grad / runnable graphs) cut from the reference's global inputs by their placements "
                    "(%d rank graph(s)); =ref: its outputs equal the reference's, cut alike\n", refs.rankGraphs);
    if (refs.unshardedGraphs)
        std::printf("dynamo level: every rank's dynamo and pre-grad graphs replayed as the unsharded computation on the "
                    "reference's global inputs (%d rank graph(s)); =ref: its outputs equal the reference's\n",
                    refs.unshardedGraphs);
    for (const auto& n : refs.notes)
        std::printf("note: %s\n", n.c_str());
}

// The groups the job builds, with their members, and the check's notes.
void printGroupsAndNotes(const graph::CollectiveCheck& check)
{
    for (const auto& [name, members] : check.groups) {
        std::string m;
        for (int r : members)
            m += (m.empty() ? "" : ",") + std::to_string(r);
        std::printf("group '%s': ranks %s\n", name.c_str(), m.c_str());
    }
    for (const auto& n : check.notes)
        std::printf("note: %s\n", n.c_str());
}

void printText(const RankSet& set, const worker::RankJobCheck& job, const worker::DistributedOutcome& o,
               const std::string& backend, const worker::DtensorReferences& refs)
{
    const graph::CollectiveCheck& check = job.check;
    std::printf("distributed replay: %zu ranks over %s, %.1f s\n", o.ranks.size(), backend.c_str(), o.seconds);
    printGroupsAndNotes(check);
    for (const auto& s : job.skipped)
        std::printf("skipped on every rank: %s: %s\n", s.label.c_str(), s.reason.c_str());
    printReferences(refs);
    std::printf("%-34s", "graph");
    for (const auto& r : o.ranks)
        std::printf(" %-22s", ("rank " + std::to_string(r.rank)).c_str());
    std::printf("\n");
    std::size_t rows = 0;
    for (const auto& r : o.ranks)
        rows = std::max(rows, r.reports.size());
    for (std::size_t k = 0; k < rows; ++k) {
        const auto& first = set.graphs.front();
        std::printf("%-34s", k < first.size() ? worker::rankRowLabel(first[k].entry).c_str() : "");
        for (const auto& r : o.ranks)
            std::printf(" %-22s", k < r.reports.size() ? cell(r.reports[k]).c_str() : "");
        std::printf("\n");
    }
    std::printf("collectives run:");
    for (const auto& r : o.ranks) {
        int run = 0, total = 0;
        for (const auto& rep : r.reports) {
            auto [a, b] = collectivesRun(rep);
            run += a;
            total += b;
        }
        std::printf(" rank %d %d/%d", r.rank, run, total);
    }
    std::printf("\n");
    for (const auto& r : o.ranks)
        for (const auto& rep : r.reports)
            if (!rep.passed() && !rep.nodes.empty())
                std::cout << "\nrank " << r.rank << ": " << replay::formatReport(rep, false);
            else if (!rep.fatal.empty() && !rep.fatal.starts_with("skipped on every rank"))  // what happened to it
                std::cout << "\nrank " << r.rank << ": " << rep.address << ": " << rep.fatal << "\n";
    if (o.stoppedEarly) {
        std::printf("\njob stopped (a hang, a broken group or a rank that failed): %s\n", o.why.c_str());
        for (const auto& r : o.ranks)
            std::printf("  rank %d pending: %s\n", r.rank, r.pending.c_str());
    }
    for (const auto& ref : refs.references)
        if (!ref.report.passed())
            std::cout << "\nsingle-rank reference: " << replay::formatReport(ref.report, false);
    for (const auto& e : set.loadErrors)
        std::cout << "error: " << e << "\n";
}

// --check-only: what the static check saw, without running anything.
void printCheck(const worker::RankJobCheck& job, const RankSet& set)
{
    const graph::CollectiveCheck& check = job.check;
    std::printf("collective check of %zu ranks:", set.graphs.size());
    for (const auto& [rank, calls] : check.callsPerRank)
        std::printf(" rank %d %zu graph(s) %zu collective(s);", rank, set.graphs[static_cast<std::size_t>(rank)].size(), calls);
    std::printf("\n");
    printGroupsAndNotes(check);
    for (const auto& s : job.skipped)
        std::printf("skipped on every rank: %s: %s\n", s.label.c_str(), s.reason.c_str());
    for (const auto& m : check.mismatches)
        std::printf("mismatch: %s\n", m.c_str());
    if (check.ok())
        std::printf("every rank of every group calls the same collectives in the same order\n");
    for (const auto& e : set.loadErrors)
        std::cout << "error: " << e << "\n";
}

json::Value referencesJson(const worker::DtensorReferences& refs)
{
    json::Value list = json::Array{};
    for (const auto& ref : refs.references)
        list.push_back(json::Object{{"compile", ref.compile}, {"saved", ref.saved}, {"unchecked", ref.unchecked},
                                    {"report", replay::reportToJson(ref.report)}});
    json::Value notes = json::Array{};
    for (const auto& n : refs.notes)
        notes.push_back(n);
    return json::Object{{"graphs", std::move(list)}, {"rank_graphs", refs.rankGraphs},
                        {"unsharded_graphs", refs.unshardedGraphs}, {"notes", std::move(notes)}};
}

json::Value toJson(const worker::RankJobCheck& job, const worker::DistributedOutcome& o, const std::string& backend,
                   const worker::DtensorReferences& refs)
{
    const graph::CollectiveCheck& check = job.check;
    json::Value skipped = json::Array{};
    for (const auto& s : job.skipped)
        skipped.push_back(json::Object{{"graph", s.label}, {"rank", s.rank}, {"reason", s.reason}});
    json::Value groups = json::Object{};
    for (const auto& [name, members] : check.groups) {
        json::Value m = json::Array{};
        for (int r : members)
            m.push_back(r);
        groups[name] = std::move(m);
    }
    json::Value checkJson = json::Object{{"ok", check.ok()}, {"groups", std::move(groups)}};
    checkJson["mismatches"] = json::Array{};
    for (const auto& s : check.mismatches)
        checkJson["mismatches"].push_back(s);
    checkJson["notes"] = json::Array{};
    for (const auto& s : check.notes)
        checkJson["notes"].push_back(s);
    json::Value ranks = json::Array{};
    for (const auto& r : o.ranks) {
        int run = 0, total = 0;
        json::Value reports = json::Array{};
        for (const auto& rep : r.reports) {
            auto [a, b] = collectivesRun(rep);
            run += a;
            total += b;
            reports.push_back(replay::reportToJson(rep));
        }
        ranks.push_back(json::Object{{"rank", r.rank}, {"pending", r.pending}, {"collectives_run", run},
                                     {"collectives_total", total}, {"reports", std::move(reports)}});
    }
    // "reports" as the ordinary replay writes it (every rank's, rank by rank): tools that read replays read these.
    json::Value all = json::Array{};
    for (const auto& r : o.ranks)
        for (const auto& rep : r.reports)
            all.push_back(replay::reportToJson(rep));
    return json::Object{{"reports", std::move(all)},
                        {"distributed", json::Object{{"world", static_cast<std::int64_t>(o.ranks.size())},
                                                     {"backend", backend},
                                                     {"seconds", o.seconds},
                                                     {"stopped_early", o.stoppedEarly},
                                                     {"why", o.why},
                                                     {"check", std::move(checkJson)},
                                                     {"skipped", std::move(skipped)},
                                                     {"references", referencesJson(refs)},
                                                     {"ranks", std::move(ranks)}}}};
}

// The job's settings from the flags: groups (the check's, --group over them), timeouts, backend.
worker::DistributedJobConfig jobConfig(const ArgParser& p, const replay::ReplayOptions& options, const graph::CollectiveCheck& check,
                                       const std::map<std::string, std::vector<int>>& given, std::size_t ranks)
{
    worker::DistributedJobConfig config;
    config.program = worker::ReplayWorker::locateProgram(selfExe());
    config.groups = check.groups;
    for (const auto& [name, members] : given)
        config.groups[name] = members;
    if (config.groups.empty()) {  // no collective at all: the world group still exists, as in the run
        for (std::size_t r = 0; r < ranks; ++r)
            config.groups["0"].push_back(static_cast<int>(r));
    }
    config.collectiveTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds(p, "--collective-timeout", 30) * 1000));
    if (p.value("--timeout"))  // per graph, as in the ordinary replay; none by default
        config.graphTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds(p, "--timeout", 0) * 1000));
    config.backend = p.value("--backend").value_or(options.device.rfind("cuda", 0) == 0 ? "nccl" : "gloo");
    if (config.backend != "gloo" && config.backend != "nccl")
        throw Error("--backend is gloo or nccl, got '" + config.backend + "'");
    return config;
}

}  // namespace

std::optional<int> runDistributedReplay(const ArgParser& p, const replay::ReplayOptions& options, const io::Discovery& d)
{
    int ranksFlag = 0;
    if (auto v = p.value("--ranks")) {
        try {
            ranksFlag = std::stoi(*v);
        } catch (const std::exception&) {
        }
        if (ranksFlag < 1)
            throw Error("--ranks wants a positive number of ranks, got '" + *v + "'");
    }
    // Only a folder of ranks and nothing else is a job: graphs without a rank beside them (a corpus folder of many
    // models) keep the ordinary one-by-one replay.
    if (ranksFlag == 0 && !worker::isRankJob(d))
        return std::nullopt;

    const RankSet set = loadRanks(p, d, ranksFlag);
    std::map<std::string, std::vector<int>> given;
    for (const std::string& g : p.values("--group"))
        given.insert(replay::parseGroupSpec(g));
    for (const auto& [name, members] : given)
        for (int r : members)
            if (r >= static_cast<int>(set.graphs.size()))
                throw Error("group '" + name + "' names rank " + std::to_string(r) + " but the job has " +
                            std::to_string(set.graphs.size()) + " ranks");
    std::vector<std::vector<const io::LoadedGraph*>> perRank;
    for (const auto& list : set.graphs) {
        auto& ptrs = perRank.emplace_back();
        for (const auto& g : list)
            ptrs.push_back(&g);
    }
    // Members of the groups no --group names: from the DeviceMeshes the logs record (worker/rank_job_check.h).
    // Graphs with collectives that a rank cannot start are skipped on every rank, before the check (rank_job_check.h).
    worker::RankJobCheck job = worker::checkRankJob(perRank, given, options.inputs == replay::ReplayOptions::Inputs::Random);
    const graph::CollectiveCheck& check = job.check;
    const auto& meshes = job.meshes;
    const auto& membership = job.membership;
    if (p.flag("--check-only")) {
        printCheck(job, set);
        return check.ok() && set.loadErrors.empty() ? 0 : 1;
    }
    if (!check.ok() && !p.flag("--no-collective-check")) {
        std::cout << "collective check failed before anything ran (the ranks would hang or pair wrong buffers):\n";
        for (const auto& m : check.mismatches)
            std::cout << "  " << m << "\n";
        std::cout << "(--no-collective-check runs them anyway)\n";
        return 1;
    }

    worker::DistributedJobConfig config = jobConfig(p, options, check, membership, set.graphs.size());
    config.skip = job.skip;
    // Consistent inputs and the single-rank reference of DTensor compiles (worker/dtensor_reference.h).
    worker::TempDir referenceDir("fxray-reference-");
    worker::DtensorReferences refs;
    if (!p.flag("--no-reference")) {
        refs = worker::prepareDtensorReferences(perRank, meshes, options, config.program, referenceDir.path);
        config.stages = refs.stages;
        config.unsharded = refs.unsharded;
    }
    const worker::DistributedOutcome o = worker::runDistributedJob(perRank, options, config);

    if (p.flag("--json"))
        std::cout << toJson(job, o, config.backend, refs).dump(json::Style::Pretty) << "\n";
    else
        printText(set, job, o, config.backend, refs);
    bool ok = !o.stoppedEarly && set.loadErrors.empty() && d.errors.empty();
    for (const auto& r : o.ranks)
        for (const auto& rep : r.reports)
            ok = ok && rep.passed();
    for (const auto& ref : refs.references)
        ok = ok && ref.saved;
    return ok ? 0 : 1;
}

}  // namespace fxray::cli
