#pragma once
// Internal to core/replay (includes LibTorch). CUDA streams and events in graphs: FSDP2 overlaps its all-gathers
// with compute on side streams, and dynamo records that as `get_external_object_by_index(i)` (the stream or event
// object, kept outside the graph), its methods (`s.wait_stream(t)`, `s.record_event()`, `s.wait_event(e)`) and, in
// AOT graphs, `streams.record_event` / `streams.wait_event` / `streams.wait_stream` (dynamo's Python-registered
// ops, by stream index). A replay runs every node in program order on one stream, so what these order is already
// ordered: each is planned as a no-op that says so (the objects as opaque None values). Nothing else of a stream
// (priority, querying, device switches) is modelled.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <optional>

namespace fxray::replay::detail {

// The node's plan when it is one of the stream steps above; nullopt otherwise.
std::optional<NodePlan> planStreamStep(const graph::Graph& g, const graph::Node& n);

}  // namespace fxray::replay::detail
