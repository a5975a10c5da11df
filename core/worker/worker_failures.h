#pragma once
// Internal to core/worker: reports for replays that ended without the worker's own answer (a crash, a hang, a
// cancel), shared by a single replay and a seed sweep.
#include "io/graph_source.h"
#include "replay/replay_types.h"

#include <string>
#include <vector>

namespace fxray::worker::detail {

// The last `count` lines of a child's stderr: where CUDA and LibTorch say what went wrong.
std::string lastLines(const std::string& text, int count);

// A report whose node `nodesDone` (when in range) carries the error; `streamed` node results come first.
replay::ReplayReport failedReport(const io::LoadedGraph& g, const replay::ReplayOptions& o, int nodesDone, const std::string& why,
                                  std::vector<replay::NodeResult> streamed = {});

}  // namespace fxray::worker::detail
