#pragma once
// Builds the process groups of one rank of a distributed replay with LibTorch's own c10d (a FileStore
// rendezvous, ProcessGroupGloo on the CPU, ProcessGroupNCCL on CUDA) and registers each under the name the
// graphs use (c10d::register_process_group), so that LibTorch's `_c10d_functional` kernels resolve them.
#include "replay/api/distributed_setup.h"

#include <string>

namespace fxray::replay {

// Blocks until every member of every group this rank belongs to has joined (or the setup's timeout passes).
// Throws fxray::Error naming the group when it cannot be built (no Gloo in this build, a peer that never came).
void initProcessGroups(const DistributedSetup& setup);

// "gloo (Debian libgloo-dev headers)", "nccl", or why a backend is missing: what this build can do.
std::string processGroupBackends();

}  // namespace fxray::replay
