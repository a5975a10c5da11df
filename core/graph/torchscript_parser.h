#pragma once
// TorchScript IR text as torch.jit prints a graph (traced.graph, traced.inlined_graph, frozen graphs) and as the
// lazy-tensor TorchScript backend prints its lowering (torch._C._lazy._get_tensors_backend):
//     graph(%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu),
//           %w : Tensor):
//       %2 : int = prim::Constant[value=1]()
//       %y : Float(2, 4, strides=[4, 1], requires_grad=0, device=cpu) = aten::mm(%x, %w) # model.py:12:0
//       return (%y)
// Plain C++ (no LibTorch): operator overloads are not in the text, so op targets name none (replay needs the
// LibTorch importer, replay/schemas/torchscript_import.h, which resolves them from the schemas).
#include "graph/torchscript_graph.h"

#include <string>
#include <string_view>

namespace fxray::graph {

// The statements of the text, unbuilt. Throws fxray::Error naming fileName:line on malformed text.
TsGraph readTorchScript(std::string_view text, const std::string& fileName);

// readTorchScript + buildTorchScriptGraph (see torchscript_graph.h for what becomes what).
Graph parseTorchScript(std::string_view text, const std::string& fileName);

}  // namespace fxray::graph
