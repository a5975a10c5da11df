#pragma once
// NumPy calls that dynamo traced into a graph. Dynamo runs numpy code through torch._numpy and calls each function
// through a wrapper of torch._dynamo.utils (numpy_to_tensor_wrapper, numpy_method_wrapper, ...), which FX names
// after its qualified name: `torch__dynamo_utils_wrapped_rand(1)` is `np.random.rand(1)` (HF wav2vec2's SpecAugment,
// `_compute_mask_indices`). Dynamo traces np.random only with `use_numpy_random_stream=False` (otherwise it breaks
// the graph), so those calls draw from torch's default generator with torch._numpy's definitions, not numpy's.
#include "graph/graph.h"

#include <string>

namespace fxray::graph {

// "torch__dynamo_utils_wrapped_rand" (or "..._rand_1", FX's suffix for a second object of that name) -> "rand";
// "" for any other node.
std::string dynamoNumpyWrapped(const Node& n);

// True when the wrapped name is one of torch._numpy.random's functions (rand, random_sample, sample, random,
// uniform, randn, normal, randint, choice, shuffle): a draw from the generator.
bool isNumpyRandomFunction(const std::string& name);

}  // namespace fxray::graph
