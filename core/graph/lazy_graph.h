#pragma once
// A lazy-tensor (LTC) IR graph as its two dumps describe it — the text dump (torch._C._lazy._get_tensors_text:
// "IR {\n  %4 = [Float[2,4]] aten::mm(%3, %1), NodeType=...\n}") and the DOT dump (_get_tensors_dot) — and the
// step that turns it into fxray's FX-shaped Graph. View and diff only: LTC ops are IR nodes, not dispatcher calls
// with schema arguments (their attributes are not the schema's arguments), so nothing here is for replay.
//
// What becomes what: lazy_tensors::device_data nodes are the graph inputs (placeholders p0, p1, ... in node
// order, as the LTC TorchScript backend names them); every other node is call_function torch.ops.ns.op with its
// operands as arguments and its attributes (dim=1, keepdim=0; null -> None) as keyword arguments; a node with
// several outputs is a tuple-valued node plus one getitem per output. ROOT=k marks the graph's outputs, in k
// order (all outputs of a multi-output root). Bookkeeping attributes (NodeType, ROOT, num_outputs, device of
// device_data) are dropped.
#include "base/error.h"
#include "graph/graph.h"

#include <string>
#include <utility>
#include <vector>

namespace fxray::graph {

struct LazyOperand {
    int node = -1;   // id of the producing node
    int output = 0;  // which of its outputs
};

struct LazyNode {
    int id = -1;                       // "%4" / "node4"
    std::string op;                    // "aten::mm", "lazy_tensors::device_data"
    std::vector<ValueMeta> shapes;     // one per output where known (the DOT dump shows the first only)
    int outputs = 1;                   // number of outputs
    std::vector<LazyOperand> operands;
    std::vector<std::pair<std::string, std::string>> attributes;  // as printed
    int root = -1;                     // ROOT=k; -1 when not an output
    int line = 0;
};

// Nodes in any order (operands must refer to listed nodes; no cycles). Throws fxray::Error naming fileName:line.
Graph buildLazyGraph(std::vector<LazyNode> nodes, const std::string& fileName);

}  // namespace fxray::graph
