#pragma once
// Which NaN/Inf matter. A NaN/Inf made from finite inputs that never reaches a graph output (T5's relative-position
// bucket takes log(0) = -inf, casts it to an integer and `where` throws it away; eager does the same) is transient:
// reported with the nodes that absorbed it, and not a failure. One that reaches an output (a forward's outputs
// include the activations its backward reads) fails, naming its origin. Plain C++ over the graph and a finished
// replay's node results: no LibTorch.
#include "graph/graph.h"
#include "replay/api/replay_types.h"

namespace fxray::replay {

// Re-labels report.nodes' NaN/Inf origins whose non-finite values reach no graph output as transient (with where
// they were absorbed), and sets report.firstNanNode to the first origin that still fails ("" when none). Only for
// a pass that ran every node: an origin downstream of a node that did not run cannot be judged, and stays.
void classifyNonFiniteOrigins(const graph::Graph& g, ReplayReport& report);

}  // namespace fxray::replay
