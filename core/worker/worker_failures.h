#pragma once
// Internal to core/worker: reports for replays that ended without the worker's own answer (a crash, a hang, a
// cancel), and reading the worker's answers, shared by a single replay and a seed sweep.
#include "base/json.h"
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::worker::detail {

// The last `count` lines of a child's stderr: where CUDA and LibTorch say what went wrong.
std::string lastLines(const std::string& text, int count);

// "the replay worker died (<status>)", with the last lines of its stderr when it wrote any.
std::string workerDiedMessage(const std::string& status, const std::string& stderrTail);

// A line of the worker's stdout as the answer to request `id`; nullopt for another request's answer or a library's
// stray output.
std::optional<json::Value> answerTo(const std::string& line, int id);

// A report whose node `nodesDone` (when in range) carries the error; `streamed` node results come first.
replay::ReplayReport failedReport(const io::LoadedGraph& g, const replay::ReplayOptions& o, int nodesDone, const std::string& why,
                                  std::vector<replay::NodeResult> streamed = {});

}  // namespace fxray::worker::detail
