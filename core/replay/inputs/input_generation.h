#pragma once
// Internal to core/replay (includes LibTorch): one generated graph input from its recorded metadata — dtype,
// shape, stride and storage offset honoured, on the replay device, seeded — with values drawn inside the input's
// value domain (graph/value_domains.h): integer ranges, positive floats, probabilities, 0-dim CPU scalars.
#include "graph/graph.h"
#include "graph/value_domains.h"
#include "replay/inputs/input_symbols.h"
#include "replay/api/replay_types.h"

#include <ATen/core/Generator.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

namespace fxray::replay::detail {

struct InputGenerator {
    const graph::Graph& graph;
    const ReplayOptions& options;
    const c10::Device& device;
    const InputSymbols& symbols;
    at::Generator gen;  // CPU: the same seed gives the same values on every device

    // `node` names the value in messages. `onDevice` puts a tensor recorded on the CPU on the replay device
    // (compiled autograd's CUDA scalars); a CPU-scalar domain keeps it on the CPU whatever was recorded.
    c10::IValue make(const graph::ValueMeta& m, const graph::Node& node, const graph::ValueDomain& domain, bool onDevice);

private:
    c10::IValue makeScalar(const graph::ValueMeta& m, const graph::Node& node);
};

}  // namespace fxray::replay::detail
