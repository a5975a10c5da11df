#include "worker/distributed_job.h"

#include "base/error.h"
#include "graph/collective_check.h"
#include "worker/rank_set.h"
#include "worker/temp_dir.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <signal.h>

namespace fxray::worker {
namespace {

using Clock = std::chrono::steady_clock;

// The node where a report's replay stopped on a collective: an error at a collective or wait node.
int failedCollective(const replay::ReplayReport& r)
{
    for (std::size_t k = 0; k < r.nodes.size(); ++k)
        if (r.nodes[k].status == replay::NodeStatus::Error && isCollectiveTarget(r.nodes[k].target))
            return static_cast<int>(k);
    return -1;
}

// The first node a cancelled or killed replay had not finished; -1 when none had started (the worker never came up).
int firstUnfinished(const replay::ReplayReport& r)
{
    const bool started = std::any_of(r.nodes.begin(), r.nodes.end(),
                                     [](const replay::NodeResult& n) { return n.status != replay::NodeStatus::NotRun; });
    for (std::size_t k = 0; started && k < r.nodes.size(); ++k)
        if (r.nodes[k].status == replay::NodeStatus::NotRun)
            return static_cast<int>(k);
    return -1;
}

std::string describeNode(const io::LoadedGraph& g, int index)
{
    const graph::Node& n = g.graph.nodes[static_cast<std::size_t>(index)];
    std::string s = g.entry.address + ": node " + n.name + " (" + n.target.str();
    const std::string waited = graph::waitedCollective(g.graph, index);
    if (!waited.empty()) {
        const int w = g.graph.findNode(waited);
        s += ", waiting on " + waited + (w >= 0 ? " " + g.graph.nodes[static_cast<std::size_t>(w)].target.str() : "");
    }
    return s + ")";
}

struct Shared {
    std::mutex mutex;
    std::atomic<bool> stop{false};
    bool trouble = false;
    Clock::time_point troubleAt;
    std::string why;
    // Per graph (its key: row label and occurrence), how many ranks run it, and per rank that ran it whether it
    // could not start.
    std::map<std::string, int> holders;
    std::map<std::string, std::map<int, bool>> notStarted;

    void raise(const std::string& what)
    {
        std::lock_guard lock(mutex);
        if (trouble)
            return;
        trouble = true;
        troubleAt = Clock::now();
        why = what;
    }

    void record(const std::string& label, int rank, bool couldNotStart)
    {
        std::lock_guard lock(mutex);
        notStarted[label][rank] = couldNotStart;
    }

    // Waits until every rank that has `label` ran it: true when none could start it (so none entered its
    // collectives and every rank may go on), false when one did or the job stopped meanwhile.
    bool noneStarted(const std::string& label)
    {
        for (;;) {
            {
                std::lock_guard lock(mutex);
                const auto& seen = notStarted[label];
                for (const auto& [rank, could] : seen)
                    if (!could)
                        return false;
                if (static_cast<int>(seen.size()) >= holders[label])
                    return true;
            }
            if (stop.load())
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
};

// The reports of the graphs a rank does not reach once the job stopped.
void notRunFrom(std::size_t k, const std::vector<const io::LoadedGraph*>& graphs, const replay::ReplayOptions& options,
                RankOutcome& out)
{
    for (std::size_t j = k; j < graphs.size(); ++j) {
        replay::ReplayReport r;
        r.address = graphs[j]->entry.address;
        r.device = options.device;
        r.fatal = "not run: the job stopped after a collective failed";
        out.reports.push_back(std::move(r));
    }
}

// What the job gives one rank besides its graphs (DistributedJobConfig's rows for it; null: nothing).
struct RankGiven {
    const std::vector<std::optional<replay::StageIo>>* stages = nullptr;
    const std::vector<std::optional<io::LoadedGraph>>* unsharded = nullptr;
    const std::vector<std::string>* skip = nullptr;
};

void runRank(int rank, const std::vector<const io::LoadedGraph*>& graphs, const replay::ReplayOptions& options,
             const RankGiven& given, const std::vector<std::string>& keys, ReplayWorker& worker,
             replay::CancelToken& cancel, Shared& shared, RankOutcome& out)
{
    const auto* stages = given.stages;
    const auto* skip = given.skip;
    out.rank = rank;
    std::set<std::string> skippedAddresses;
    for (std::size_t k = 0; skip && k < skip->size() && k < graphs.size(); ++k)
        if (!(*skip)[k].empty())
            skippedAddresses.insert(graphs[k]->entry.address);
    for (std::size_t k = 0; k < graphs.size(); ++k) {
        const io::LoadedGraph& g = *graphs[k];
        if (shared.stop.load()) {
            notRunFrom(k, graphs, options, out);
            if (out.pending.empty()) {
                out.pending = "stopped before " + g.entry.address;
                out.pendingGraph = static_cast<int>(k);
            }
            return;
        }
        if (skip && k < skip->size() && !(*skip)[k].empty()) {  // decided before the job: no rank runs it
            replay::ReplayReport r;
            r.address = g.entry.address;
            r.device = options.device;
            r.fatal = "skipped on every rank: " + (*skip)[k];
            out.reports.push_back(std::move(r));
            continue;
        }
        replay::ReplayOptions o = options;
        if (stages && k < stages->size() && (*stages)[k])
            o.stage = (*stages)[k];  // this rank's shards of the single-rank reference's inputs (dtensor_reference.h)
        const io::LoadedGraph* run = &g;
        if (given.unsharded && k < given.unsharded->size() && (*given.unsharded)[k]) {
            run = &*(*given.unsharded)[k];
            o.dtensorGlobal = true;
        }
        // A backward replays its forward first for the saved activations, collectives and all: not one that every
        // rank skipped (the rank that cannot start it would generate them while its peers ran its collectives).
        const auto partner = io::forwardPartnerAddress(g.entry);
        const bool unchained = o.chain && partner && skippedAddresses.contains(*partner);
        if (unchained)
            o.chain = false;
        replay::ReplayReport r = worker.run(*run, o, &cancel);
        if (o.dtensorGlobal)
            r.notes.push_back("replayed as the unsharded computation on the single-rank reference's global inputs "
                              "(DTensor's from_local / redistribute / to_local as identities on global tensors): a rank "
                              "cannot run its shards of a graph of DTensor prims without Python");
        if (unchained)
            r.notes.push_back("not chained: its forward graph " + *partner +
                              " was skipped on every rank; saved activations were generated on every rank alike");
        int at = failedCollective(r);
        // Could not start (its inputs, say) while the worker lives on: it entered none of the graph's collectives.
        const bool couldNotStart = !r.cancelled && !r.fatal.empty() && at < 0 && firstUnfinished(r) < 0 &&
                                   worker.pid() > 0 && ::kill(worker.pid(), 0) == 0;
        const std::string& label = keys[k];
        shared.record(label, rank, couldNotStart);
        if (r.cancelled) {
            at = firstUnfinished(r);
            r.fatal = "killed: the job stopped after a collective failed on another rank";
            r.cancelled = false;
            out.pending = at >= 0 ? describeNode(g, at) + " (killed)" : g.entry.address + " (killed)";
        } else if (at >= 0) {
            out.pending = describeNode(g, at) + ": " + r.nodes[static_cast<std::size_t>(at)].error.substr(0, 300);
            shared.raise("rank " + std::to_string(rank) + ", " + out.pending);
        } else if (couldNotStart && graph::collectiveCalls(g.graph, "").empty()) {
            // No peer waits on a graph without collectives: the rank goes on with its next graph, as the ordinary
            // replay does.
        } else if (couldNotStart && shared.noneStarted(label)) {
            // Every rank that has it could not start it either (the same graph, the same missing input): none
            // entered its collectives, so all go on.
            r.notes.push_back("could not start on any rank, so no rank entered its collectives: the job went on");
        } else if (!r.fatal.empty()) {
            // A worker that died or hung, or a graph its peers ran while this rank could not: they wait, or waited,
            // in collectives this rank never makes.
            at = firstUnfinished(r);
            out.pending = (at >= 0 ? describeNode(g, at) : g.entry.address) + ": " + r.fatal.substr(0, 300);
            shared.raise("rank " + std::to_string(rank) + ", " + out.pending);
        }
        if (at >= 0 || !out.pending.empty()) {
            out.pendingGraph = static_cast<int>(k);
            out.pendingNode = at;
        }
        out.reports.push_back(std::move(r));
        if (!out.pending.empty()) {
            notRunFrom(k + 1, graphs, options, out);
            return;
        }
    }
}

}  // namespace

bool isCollectiveTarget(const std::string& target)
{
    const auto dot = target.find('.');
    return dot != std::string::npos && graph::isCollectiveNamespace(target.substr(0, dot));
}

DistributedOutcome runDistributedJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                                     const replay::ReplayOptions& options, const DistributedJobConfig& config)
{
    const auto start = Clock::now();
    const int world = static_cast<int>(perRank.size());
    TempDir dir("fxray-dist-");
    DistributedOutcome outcome;
    outcome.ranks.resize(static_cast<std::size_t>(world));

    std::vector<std::unique_ptr<ReplayWorker>> workers;
    std::vector<std::unique_ptr<replay::CancelToken>> cancels;
    std::vector<replay::ReplayOptions> rankOptions;
    for (int r = 0; r < world; ++r) {
        replay::DistributedSetup setup;
        setup.rank = r;
        setup.world = world;
        setup.store = dir.path + "/store";
        setup.groups = config.groups;
        setup.timeout = config.collectiveTimeout;
        setup.backend = config.backend;
        WorkerConfig wc;
        wc.program = config.program;
        wc.replayTimeout = config.graphTimeout;
        // The rendezvous waits for the slowest rank's LibTorch start (up to 300 s), then the groups' own timeout.
        wc.startTimeout = std::chrono::milliseconds(300000) + config.collectiveTimeout;
        wc.env = config.env;
        for (auto& kv : replay::distributedEnv(setup))
            wc.env.push_back(kv);
        workers.push_back(std::make_unique<ReplayWorker>(wc));
        cancels.push_back(std::make_unique<replay::CancelToken>());
        replay::ReplayOptions o = options;
        if (config.backend == "nccl")
            o.device = "cuda:" + std::to_string(r);
        rankOptions.push_back(o);
    }

    Shared shared;
    // Each graph's key across ranks: its row label, and which of that label's graphs it is on its rank.
    std::vector<std::vector<std::string>> keys(perRank.size());
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        std::map<std::string, int> seen;
        for (std::size_t k = 0; k < perRank[r].size(); ++k) {
            const std::string label = rankRowLabel(perRank[r][k]->entry);
            keys[r].push_back(label + "#" + std::to_string(seen[label]++));
            if (r >= config.skip.size() || k >= config.skip[r].size() || config.skip[r][k].empty())
                ++shared.holders[keys[r].back()];
        }
    }
    std::vector<std::atomic<bool>> done(static_cast<std::size_t>(world));
    std::vector<std::thread> threads;
    for (int r = 0; r < world; ++r) {
        const auto i = static_cast<std::size_t>(r);
        threads.emplace_back([&, r, i] {
            RankGiven given;
            given.stages = i < config.stages.size() ? &config.stages[i] : nullptr;
            given.unsharded = i < config.unsharded.size() ? &config.unsharded[i] : nullptr;
            given.skip = i < config.skip.size() ? &config.skip[i] : nullptr;
            runRank(r, perRank[i], rankOptions[i], given, keys[i], *workers[i], *cancels[i], shared, outcome.ranks[i]);
            done[i] = true;
        });
    }
    // The watchdog: once a rank's collective failed, the others get `grace` to finish what they are in; a rank
    // still busy then waits on a peer that will never come (or hangs itself) and is killed.
    for (;;) {
        bool all = true;
        for (auto& d : done)
            all = all && d.load();
        if (all)
            break;
        if (config.cancel && config.cancel->cancelled.load() && !outcome.cancelled) {
            outcome.cancelled = true;
            std::lock_guard lock(shared.mutex);
            shared.stop = true;
            for (auto& c : cancels)
                c->cancelled = true;
        }
        {
            std::lock_guard lock(shared.mutex);
            if (shared.trouble && Clock::now() - shared.troubleAt > config.grace) {
                shared.stop = true;
                for (auto& c : cancels)
                    c->cancelled = true;
            }
            if (shared.trouble)
                shared.stop = true;  // no new graph starts on a broken group
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (auto& t : threads)
        t.join();
    // Every worker ends here (its whole process group is killed), healthy or not: none outlives the job.
    for (auto& w : workers)
        w->stop();
    outcome.stoppedEarly = shared.trouble;
    outcome.why = shared.why;
    if (outcome.stoppedEarly)
        for (std::size_t r = 0; r < outcome.ranks.size(); ++r)
            if (outcome.ranks[r].pending.empty())
                outcome.ranks[r].pending = "finished its " + std::to_string(perRank[r].size()) + " graph(s)";
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

}  // namespace fxray::worker
