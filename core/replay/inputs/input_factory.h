#pragma once
// Internal to core/replay (includes LibTorch). Graph inputs from recorded metadata — dtype, shape, stride and
// storage offset honoured, on the replay device, seeded — or from the real inputs a dump saved (.pt).
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// One value per placeholder. Throws fxray::Error naming the input when its metadata is missing or symbolic
// sizes cannot be resolved.
// Size symbols take options.symbolValues first, then recorded hints; the rest are bound to options.symbolDefault,
// each such assumption added to report.notes. Every binding used lands in report.symbols.
std::vector<c10::IValue> makeInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                    ReplayReport& report);

// Values for get_attr constants that have recorded tensor metadata but no value (a trace logs the graph, not its
// lifted tensor constants): generated like inputs, each noted in the report. `have` holds the state_dict's.
std::vector<std::pair<std::string, c10::IValue>> makeMissingConstants(const io::LoadedGraph& lg, const ReplayOptions& options,
                                                                      const c10::Device& device,
                                                                      const std::vector<std::string>& have, ReplayReport& report);

// The dump's saved real inputs (<name>.pt): tensors moved to the replay device (CPU scalars stay on the CPU).
// A generator input (io::InputForm::Kind::Generator) is saved as its state and becomes a generator again.
std::vector<c10::IValue> loadSavedInputs(const io::LoadedGraph& lg, const c10::Device& device, ReplayReport& report);

}  // namespace fxray::replay::detail
