#pragma once
// GraphModules that torch.save pickled: GraphModule.to_folder writes every child module of a dumped graph as
// `<name>.pt` (higher-order-op subgraphs: flex_attention's score_mod / mask_mod, ...), and module.py loads them
// with torch.load(weights_only=False). A dump without a print_readable file has those subgraphs nowhere else.
// The pickle is `torch.fx.graph_module.reduce_graph_module(body, import_block)`, where `body` is the module's
// __dict__ holding `_code` (the generated Python source of forward) and `_modules` (its own child modules). fxray
// reads those with its restricted unpickler (nothing is imported or run; the other globals a GraphModule's
// __dict__ names — its tracer class, hook containers — are read as names only) and parses `_code` as FX code.
#include "graph/graph.h"

#include <string>
#include <vector>

namespace fxray::io {

// The subgraph pickled at `path` (a torch.save zip), named `name` (the attribute the parent reads): its forward
// parsed from `_code`, and its own child GraphModules as its subgraphs, recursively. Throws fxray::Error naming
// the file when it is not a pickled GraphModule or its code does not parse.
graph::Subgraph readPickledGraphModule(const std::string& path, const std::string& name);

// Adds to `g` (a graph parsed from `module.py` in `dir`) the subgraphs its get_attr nodes read that to_folder
// pickled beside it (`<dir>/<attr>.pt` holding a GraphModule) and that `g` does not hold yet. A `.pt`
// that cannot be read as one (an ordinary module pickled whole, a broken file) adds a warning naming it; the op
// that would run the subgraph then says it is missing.
void addPickledSubgraphs(graph::Graph& g, const std::string& dir, std::vector<std::string>& warnings);

}  // namespace fxray::io
