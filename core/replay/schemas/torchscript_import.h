#pragma once
// TorchScript IR text through LibTorch: torch::jit::parseIR builds a torch::jit::Graph, whose nodes are walked
// into the same statements fxray's own parser reads (graph/torchscript_graph.h) and built into the same Graph —
// but with each op's overload taken from its schema (node->maybeSchema()), which the text does not carry and the
// replayer's op table needs. io uses it through io::setTorchScriptImporter (installed by the CLI's main).
#include "graph/graph.h"

#include <string>

namespace fxray::replay {

// Throws fxray::Error (naming the file) when parseIR rejects the text or the graph has constructs fxray does not
// read (see torchscript_graph.h).
graph::Graph importTorchScript(const std::string& text, const std::string& fileName);

}  // namespace fxray::replay
