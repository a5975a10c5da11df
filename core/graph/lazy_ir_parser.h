#pragma once
// Readers of the two lazy-tensor IR dumps (see lazy_graph.h for what becomes what):
//   text  torch._C._lazy._get_tensors_text:   IR {\n  %4 = [Float[2,4]] aten::mm(%3, %1), NodeType=...\n}
//   DOT   torch._C._lazy._get_tensors_dot:    digraph G {\n  node4 [label="aten::mm\nFloat[2,4]"]\n  node3 -> node4 [label="i=0"]\n}
// Plain C++. Both throw fxray::Error naming fileName:line on malformed input.
#include "graph/graph.h"

#include <string>
#include <string_view>

namespace fxray::graph {

Graph parseLazyIrText(std::string_view text, const std::string& fileName);
Graph parseLazyIrDot(std::string_view text, const std::string& fileName);

// Whether a DOT text is a lazy-tensor dump (its node labels start with an "ns::op" line), as opposed to any
// other graph drawn in DOT (fxray's own `fxray dot` output among them). Looks at the first node only.
bool looksLikeLazyDot(std::string_view text);

}  // namespace fxray::graph
