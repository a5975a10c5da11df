#pragma once
// A graph computing in float64 what it computes in float32 / bfloat16 / float16 (stage compare's precision check,
// replay/api/rounding_noise.h): two stages that compute one function with other roundings differ less and less as the
// precision grows; two that compute different functions do not. Plain graph rewriting: every floating-point dtype
// the graph names (dtype arguments, recorded annotations) becomes float64 (complex: complex128), Tensor.float() /
// .half() / .bfloat16() become .double(), and autocast regions opened in the graph are disabled (CPU autocast has no
// float64, and the casts it would insert are roundings).
#include "graph/graph.h"

namespace fxray::graph {

Graph promotedToDouble(const Graph& g);

}  // namespace fxray::graph
