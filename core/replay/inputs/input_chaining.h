#pragma once
// Internal to core/replay (includes LibTorch): chained forward -> backward replay. A backward graph's saved
// activations are what its forward graph returned (AOTAutograd names the backward's placeholders after the
// forward nodes it saves); random values in their place make NaNs, index errors and crashes the model never
// shows (attention's logsumexp and philox state, max-pool indices, batch-norm statistics). So the forward replays
// first on generated inputs of the same seed, and every backward input that names one of its outputs takes that
// value; tangents and anything else stay generated.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <ATen/core/ivalue.h>

#include <functional>
#include <vector>

namespace fxray::replay::detail {

// Replays a graph on generated inputs (options as given, unchecked) and returns its outputs in output order.
using ForwardRunner = std::function<std::vector<c10::IValue>(const io::LoadedGraph& forward, const ReplayOptions& options)>;

// Replaces `inputs` (the backward's generated inputs, placeholder order) by the forward's outputs of the same
// name. Sets report.chainedFrom / chainedInputs; a forward that cannot be found or run leaves the inputs as they
// are and says why in report.notes.
void chainFromForward(const io::LoadedGraph& backward, const ReplayOptions& options, const ForwardRunner& runForward,
                      std::vector<c10::IValue>& inputs, ReplayReport& report);

}  // namespace fxray::replay::detail
