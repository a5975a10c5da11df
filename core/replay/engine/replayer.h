#pragma once
// Replays a loaded graph for real through LibTorch's dispatcher, checking every node's dtype, size,
// significant strides and device against what the compiler recorded. Synchronous; cancellable; the caller
// chooses the thread (and, for crash isolation, the process: see the worker in a later stage).
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <string>
#include <vector>

namespace fxray::replay {

// Never throws for problems of the graph: they are entries of the report (fatal for ones that stop it
// before the first node, e.g. no CUDA device or missing input metadata).
// `nodeDone` sees each node's result of the checked pass as soon as it is known (host time only: CUDA event
// times are read after the pass); the worker streams them so that a crash later loses none of them.
ReplayReport replayGraph(const io::LoadedGraph& graph, const ReplayOptions& options, CancelToken* cancel = nullptr,
                         const ProgressSink& progress = {}, const NodeSink& nodeDone = {});

// What replay cannot run on that device, known before running: one line per reason, naming the nodes.
std::vector<std::string> coverageReport(const graph::Graph& g, const std::string& device);

int cudaDeviceCount();

}  // namespace fxray::replay
