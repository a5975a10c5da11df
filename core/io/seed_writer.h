#pragma once
// Writes a graph in the seed layout (FORMATS.md §1) that fxray and functorch's loaders read back:
//   <dir>/<name>_<kind>_<i>/module.py, __init__.py, <folder>.readable.py, <folder>.input, state_dict.pt (copied).
// The minimizer's output; any graph fxray holds can be saved this way.
#include "io/graph_source.h"

#include <string>
#include <vector>

namespace fxray::io {

// The `.input` pickle (protocol 2) for these per-placeholder metas: tensors as (torch.Tensor, torch.Size(..),
// strides, dtype, device), ints/floats as (builtins.int[, hint]). Symbolic sizes are written as strings, as
// fxray's capture companion does.
std::string serializeInputPickle(const std::vector<graph::ValueMeta>& metas);

// Writes the folder <dir>/<folder> (created, files replaced) and returns its path. Inputs without metadata are
// an fxray::Error (the layout has no way to say "unknown").
std::string writeSeedDump(const LoadedGraph& g, const std::string& dir, const std::string& folder);

}  // namespace fxray::io
