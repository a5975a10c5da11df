#pragma once
// Internal to core/replay (includes LibTorch): the CUDA-graph half of `fxray replay --cuda-graph`. Warms the
// graph up on a side stream, captures one pass of it there into an at::cuda::CUDAGraph (static inputs: the
// buffers the pass reads), replays it, compares the replay's outputs with the eager pass's and times replays.
#include "replay/cuda_graph/cuda_graph_safety.h"
#include "replay/api/replay_types.h"

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// One unchecked pass over the graph on the current stream, reading the static inputs; returns the graph's
// outputs. Sets `failure` (naming the node) when a node failed; must not synchronise with the device.
using GraphPass = std::function<std::vector<c10::IValue>(std::string& failure)>;

struct CaptureSettings {
    int warmupRuns = 3;      // eager passes on the side stream before capturing (cuBLAS handles, workspaces)
    int warmupReplays = 3;   // untimed replays before the timed ones (the first one is compared with eager)
    int timedReplays = 20;
    // Called after each synchronised replay (the first, compared with eager, and the timed ones; timed with them):
    // reads back what the graph's captured value checks wrote.
    std::function<void()> afterReplay;
    // Called once after the first replay (and its afterReplay) and the warm-up replays, the device idle, before the
    // timed replays: the instantiated graph's raw cudaGraph_t and cudaGraphExec_t, whose kernel nodes it may update
    // (the captured value checks turn to NaN/Inf presence only: from then on every replay is read, none left to
    // leave a flag behind for the next). Setting it keeps the cudaGraph_t alive beside the executable graph.
    std::function<void(void* cudaGraph, void* cudaGraphExec)> beforeTimedReplays;
};

// Fills report.status/reason/warmupRuns/captureUs/replayUs/vsEager. `nondeterministic[k]` says what upstream of
// output k varies between runs: after atomics it is compared with tolerance, after random state only its dtype and
// shape are, all others must equal eager's exactly.
// Never throws for CUDA errors of the capture: they become status "capture-failed" with the reason.
void captureAndReplay(const c10::Device& device, const GraphPass& pass, const std::vector<c10::IValue>& eagerOutputs,
                      const std::vector<OutputNondeterminism>& nondeterministic, const CaptureSettings& settings,
                      CudaGraphReport& report);

}  // namespace fxray::replay::detail
