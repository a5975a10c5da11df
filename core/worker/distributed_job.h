#pragma once
// A distributed replay: one `fxray worker` per rank, all started together, joined through a FileStore
// rendezvous in a fresh temporary folder, each building its process groups with LibTorch's c10d
// (replay/distributed/process_groups.h) and replaying its own graphs in the order the run executed them; the collectives
// run for real between the workers. A hang (a rank waiting on a collective its peers never make) ends the
// collective with the backend's timeout; the job then stops: every rank still busy is killed after a short
// grace, each rank's pending node is kept, and no worker outlives the job. One graph's fatal error costs that graph
// only: a graph the static check skipped (worker/rank_job_check.h) is run by no rank; a graph that could not start
// on a rank (its inputs, its device) while the worker lives on lets that rank go on when it calls no collective, or
// when every rank that has it could not start it either (no peer entered its collectives); otherwise its peers
// would wait in them, and the job stops.
// Plain C++ over ReplayWorker; the CLI (app/cli/replay_distributed.cpp) formats the outcome.
#include "io/graph_source.h"
#include "replay/api/distributed_setup.h"
#include "replay/api/replay_types.h"
#include "worker/replay_worker.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxray::worker {

struct DistributedJobConfig {
    std::string program;  // the fxray executable
    std::map<std::string, std::vector<int>> groups;  // every group the graphs use, with its members
    std::chrono::milliseconds collectiveTimeout{30000};
    std::chrono::milliseconds graphTimeout{0};       // per graph (the worker's watchdog); 0: none
    std::chrono::milliseconds grace{2000};           // how long busy ranks get once one rank's collective failed
    std::string backend = "gloo";
    Subprocess::Env env;                             // extra environment for every worker
    // Set from another thread (the GUI's Cancel): every rank's replay is stopped (its worker killed), the job ends.
    const replay::CancelToken* cancel = nullptr;
    // Per rank, per graph: the stage the graph is replayed as (its shards of the single-rank reference's global
    // inputs, its outputs compared with the reference's: worker/dtensor_reference.h); nullopt: as `options` says.
    std::vector<std::vector<std::optional<replay::StageIo>>> stages;
    // Per rank, per graph: the graph to replay instead, as the unsharded computation (DTensor prims as identities:
    // ReplayOptions::dtensorGlobal), from DtensorReferences::unsharded; nullopt: the graph as loaded.
    std::vector<std::vector<std::optional<io::LoadedGraph>>> unsharded;
    // Per rank, per graph: why no rank runs it (RankJobCheck::skip); empty: it runs. Its report's fatal is
    // "skipped on every rank: <reason>".
    std::vector<std::vector<std::string>> skip;
};

struct RankOutcome {
    int rank = 0;
    std::vector<replay::ReplayReport> reports;  // one per graph it was given, in order (graphs not run: fatal says so)
    // Where the rank was when the job ended early: "<graph>: node <name> (<target>)" (a collective it waited in,
    // or the node it was killed at), "finished its N graphs", or empty when the job ran to the end.
    std::string pending;
    int pendingGraph = -1;  // index of the graph it was in, -1 if none
    int pendingNode = -1;   // node index within that graph, -1 if none
};

struct DistributedOutcome {
    std::vector<RankOutcome> ranks;  // by rank
    bool stoppedEarly = false;       // a collective failed (timeout, broken group) and the job was stopped
    std::string why;                 // the first collective failure, "rank R, <graph>: node <n>: <error>"
    double seconds = 0;              // wall time of the whole job (workers' start and rendezvous included)
    bool cancelled = false;          // DistributedJobConfig::cancel stopped it
};

// perRank[r]: rank r's graphs in run order. `options` is each rank's replay options (device rewritten per rank
// for nccl: cuda:<rank>). Never throws for a rank's failure: it is that rank's report.
DistributedOutcome runDistributedJob(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                                     const replay::ReplayOptions& options, const DistributedJobConfig& config);

// True for a node that calls or waits on a collective (its target's namespace is a c10d functional one).
bool isCollectiveTarget(const std::string& target);

}  // namespace fxray::worker
