#pragma once
// Graph -> Python text. printFxModule writes module.py as GraphModule.to_folder does (parse(print(g)) == g);
// printReadable writes print_readable(include_stride=True, include_device=True) with annotations and
// stack-trace comments.
#include "graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxray::graph {

std::string printFxModule(const Graph& g);
std::string printReadable(const Graph& g);
// The same text; `lineOfNode` gets per node the 1-based line that defines it (placeholders: the line binding their
// names): what parsing the text again would say, without the second parse. A signature longer than
// `wrapSignatureAbove` characters is written one parameter per line (the same Python; a text view shapes a line as a
// whole: 20,000 annotated inputs on one line took 0.6 s to draw).
std::string printReadableWithLines(const Graph& g, std::vector<int>& lineOfNode, std::size_t wrapSignatureAbove = SIZE_MAX);
// One argument as FX prints it ("[1, 0]", "torch.float32", "device(type='cuda', index=0)").
std::string formatArg(const Graph& g, const Arg& a);
// The right-hand side of a node's statement: "torch.ops.aten.mm.default(a, b)", "x[0]", "a * 4".
std::string formatNodeExpr(const Graph& g, const Node& n);
// Python float repr (1e-05, 0.1, inf, nan).
std::string pythonFloatRepr(double v);
// Python string repr (single quotes unless the text has a single quote and no double quote; escapes).
std::string pythonStringRepr(const std::string& s);

}  // namespace fxray::graph
