#pragma once
// Internal to core/replay (includes LibTorch). Graph inputs from recorded metadata — dtype, shape, stride and
// storage offset honoured, on the replay device, seeded — or from the real inputs a dump saved (.pt).
#include "io/graph_source.h"
#include "replay/replay_types.h"

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// Valid range [low, high) for an int input, inferred from the ops that consume it (embedding indices are
// below the table's rows, nll_loss targets below the class count, ...). nullopt: nothing constrains it.
struct IntRange {
    std::int64_t low = 0, high = 1;
    std::string reason;  // "embedding: weight has 1000 rows"
};
std::vector<std::optional<IntRange>> inferIntRanges(const graph::Graph& g);

// One value per placeholder. Throws fxray::Error naming the input when its metadata is missing or symbolic
// sizes cannot be resolved.
// Size symbols without a recorded hint are bound to options.symbolDefault; each such assumption is added to notes.
std::vector<c10::IValue> makeInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                    std::vector<std::string>& notes);

// The dump's saved real inputs (<name>.pt): tensors moved to the replay device (CPU scalars stay on the CPU).
std::vector<c10::IValue> loadSavedInputs(const io::LoadedGraph& lg, const c10::Device& device);

}  // namespace fxray::replay::detail
