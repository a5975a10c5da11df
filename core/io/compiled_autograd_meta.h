#pragma once
// Metadata for compiled-autograd graphs. Compiled autograd deletes every node's metadata before it logs
// `compiled_autograd_graph` (torch/_dynamo/compiled_autograd.py, end_capture), so the payload has no
// annotations at all. The graph is then handed to its compiler (torch.compile): dynamo traces it, with the
// same node names, and logs a `dynamo_output_graph` under the same "compiled_autograd_id" whose nodes are
// annotated ("getitem_1: "f32[4, 8][8, 1]cpu" = l_inputs_[1]"). That record is the metadata source: it gives
// the inputs (the getitems of `inputs`) and every aten node, so a replay checks nodes as for AOT graphs.
#include "graph/graph.h"
#include "io/trace_log.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fxray::io {

struct CompanionMeta {
    int recordLine = 0;    // line of the dynamo_output_graph record used; 0 when none was found
    int annotated = 0;     // nodes of the compiled-autograd graph that received metadata
};

// Copies annotations from the dynamo_output_graph that follows record `caIndex` (a compiled_autograd_graph)
// with the same compiled_autograd_id onto nodes of `g` that have none, matched by name and only where the
// two nodes do the same thing (same op, or getitem with the same index). Never throws: a companion that is
// missing, damaged or unparsable leaves g as it is and says so in `warnings`.
CompanionMeta annotateCompiledAutograd(graph::Graph& g, const TraceLog& log, std::size_t caIndex,
                                       std::vector<std::string>& warnings);

}  // namespace fxray::io
