#include "replay/inputs/device_placement.h"

#include "graph/compiled_autograd.h"

namespace fxray::replay::detail {

std::vector<int> inputsMovedToDevice(const graph::Graph& g, const c10::Device& device)
{
    if (!device.is_cuda())
        return {};
    return graph::cudaMovableScalarInputs(g);
}

}  // namespace fxray::replay::detail
