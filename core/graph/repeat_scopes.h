#pragma once
// A module hierarchy for dumps that carry no module names (functorch's own graph_dumper_aot layout, compile-debug
// dumps, TorchScript): found from what every dump has, the program order of its statements. A model's layers run
// the same source lines with the same ops once per layer, so the node sequence keyed by (stack-trace comment, op)
// holds tandem repeats: "ABCABCABC". The longest-covering repeat becomes one scope per copy (folded ×N by the scope
// tree), and what lies before, after and inside a copy is searched again. Joint graphs are split at the first node
// that reads a tangent into a forward and a backward half, searched separately; a backward copy is linked to the
// forward copy whose saved values it reads most (its twin) and takes its number.
//
// Scopes are named from the source: the file and line span most of a copy's statements come from
// ("modeling_qwen2:47–297 #3"), their functions as the type line. A sidecar or parameter names win over this
// (io::loadGraph only asks when neither gave modules).
#include "graph/graph.h"
#include "graph/module_scopes.h"

#include <string>
#include <vector>

namespace fxray::graph {

struct RepeatOptions {
    std::size_t minUnitNodes = 6;  // a copy shorter than this is no scope (a "mul, add" pair repeats everywhere)
    std::size_t minGraphNodes = 0; // graphs smaller than this get no hierarchy at all
};

// Module paths for every node (ModuleScopes::Source::Repeats), or Source::None when nothing repeats. Path
// components never hold '.', so moduleComponents() splits them back; a copy's component is "<label> #<k>".
ModuleScopes inferRepeatScopes(const Graph& g, const RepeatOptions& options = {});

// "modeling_qwen2:47–297 #3" -> ("modeling_qwen2:47–297", 3); other names -> (name, -1).
std::pair<std::string, long> splitRepeatIndex(const std::string& name);

}  // namespace fxray::graph
