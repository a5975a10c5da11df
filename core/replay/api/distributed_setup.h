#pragma once
// What one rank of a distributed replay needs to join the job: its rank, the world size, the rendezvous store,
// the process groups to build (by the names the graphs use) and the collective timeout. The client
// (worker/distributed_job) hands it to each `fxray worker` through the environment; the worker builds the groups
// with LibTorch's c10d (replay/distributed/process_groups.h) before it says it is ready. Plain C++.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxray::replay {

struct DistributedSetup {
    int rank = 0;
    int world = 1;
    std::string store;                                // a FileStore path shared by the job's ranks
    std::map<std::string, std::vector<int>> groups;   // group name -> member ranks (global ranks, ascending)
    std::chrono::milliseconds timeout{30000};         // per collective
    std::string backend = "gloo";                     // "gloo" (CPU) or "nccl" (one CUDA device per rank)
};

// The environment variables (FXRAY_DIST_*) that carry it.
std::vector<std::pair<std::string, std::string>> distributedEnv(const DistributedSetup& s);
// Read back from this process's environment; nullopt when FXRAY_DIST_RANK is not set. Throws fxray::Error naming
// the variable when one is malformed.
std::optional<DistributedSetup> distributedSetupFromEnv();

// "0=0,1" / "tp=0,2" (the --group syntax) -> {"tp", {0, 2}}; throws fxray::Error on bad text.
std::pair<std::string, std::vector<int>> parseGroupSpec(const std::string& text);

}  // namespace fxray::replay
