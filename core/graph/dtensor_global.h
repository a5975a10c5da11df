#pragma once
// The single-rank reference of a distributed DTensor compile: dynamo's graph of the step, read as the unsharded
// computation. Its DTensor placeholders are annotated with their global shapes and placements; DTensor's prims
// (from_local, redistribute, to_local) become identities on global tensors in the replay
// (ReplayOptions::dtensorGlobal). What this file works out, in plain C++: where each input and output sits in
// the mesh (its placements), and the annotations a global run cannot meet — the rank-local values between a
// to_local and the next from_local — which are dropped (unchecked) from the reference's copy.
#include "graph/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::graph {

struct DtensorGlobalGraph {
    Graph graph;  // the copy to replay globally
    // Per placeholder: its placements ("S(0)", "R", ...), from its DTensor annotation or the from_local that
    // reads it (a plain input that is a rank's shard); "" for a plain input every rank holds whole.
    std::vector<std::string> inputLayouts;
    // Per flattened output: its placements (its DTensor annotation, or the DTensor a to_local took it from); ""
    // for a plain value every rank computes whole; nullopt when a rank's value is a local one of unknown layout.
    std::vector<std::optional<std::string>> outputLayouts;
    int unchecked = 0;          // nodes whose rank-local annotations were dropped
    bool hasDtensor = false;    // some input or node is a DTensor
    std::string why;            // non-empty: this graph cannot be the reference (it calls collectives itself)
};

DtensorGlobalGraph dtensorGlobalGraph(const Graph& dynamo);

// "torch__dynamo_variables_tensor_prim_to_local_1" -> "to_local" (also from_local, redistribute); "" otherwise.
std::string dtensorPrimName(const Node& n);

}  // namespace fxray::graph
