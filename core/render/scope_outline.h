#pragma once
// The scope tree (render/scope_tree.h) as text and JSON, for terminals, scripts and CI logs (`fxray show
// --outline`): one line per scope with its node count and class, a fold as one line "layers.0–23 ×24" with its
// instance count, followed by its first instance's contents (every instance has the same structure).
#include "base/json.h"
#include "graph/graph.h"
#include "render/scope_tree.h"

#include <string>

namespace fxray::render {

// Indented text, one scope or fold per line; `maxDepth` levels below the root (-1: all).
std::string outlineText(const graph::Graph& g, const ScopeTree& tree, int maxDepth = -1);
// {"source", "nodes", "root": {"name", "path", "type", "nodes", "own_nodes", "children": [...]}}; a fold is a child
// {"fold": title, "count", "instances": [paths], "each": <first instance>}; a backward copy names its "twin".
json::Value outlineJson(const graph::Graph& g, const ScopeTree& tree);

}  // namespace fxray::render
