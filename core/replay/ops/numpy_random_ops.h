#pragma once
// Internal to core/replay (includes LibTorch). np.random calls that dynamo traced into a graph through its wrappers
// (`torch__dynamo_utils_wrapped_rand(1)`: HF wav2vec2's SpecAugment draws `np.random.rand(1)`), run natively.
// Dynamo traces np.random only with torch._dynamo.config.use_numpy_random_stream=False (with True it breaks the
// graph), so eager ran torch._numpy.random's definitions, which draw from torch's default generator:
// rand / random_sample = empty(size, float64).uniform_(), uniform = .uniform_(low, high), randn = torch.randn,
// normal = .normal_(loc, scale), randint = torch.randint. fxray runs the same calls on the same generator, so a
// replay with the capture's generator state restored draws what eager drew, bit for bit; without it the outputs
// that depend on the draw are compared by rate (random_ops.h). Under aligned RNG (stage compare) the k-th random
// call draws its own stream, as the AOT graph's `uniform(empty(...))` of the same call does.
// np.random.choice and shuffle (multinomial / randperm with numpy's argument normalisation) are named as not run.
#include "graph/graph.h"
#include "replay/ops/random_ops.h"
#include "replay/plan/node_plan.h"

#include <c10/core/Device.h>

#include <optional>

namespace fxray::replay::detail {

// nullopt for a node that is not an np.random call through dynamo's wrapper; aligned mode takes the next ordinal.
// Throws std::invalid_argument when the arguments do not fit or the function is not run natively.
std::optional<NodePlan> planNumpyRandomCall(const graph::Graph& g, const graph::Node& n, const c10::Device& device, RngPlan& rng);

}  // namespace fxray::replay::detail
