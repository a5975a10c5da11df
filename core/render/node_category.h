#pragma once
// What kind of work a node does, for colouring: the DOT writer and the GUI's graph view use the same classes and
// the same colours, so an exported SVG looks like the app.
#include "graph/graph.h"

#include <string_view>

namespace fxray::render {

enum class NodeCategory {
    Input,        // placeholder
    Constant,     // get_attr (parameters/buffers/tensor constants held by the module)
    Output,       // the output node
    MatMul,       // mm, bmm, addmm, linear, convolution, attention kernels: where the FLOPs are
    Elementwise,  // pointwise math, activations, casts and copies
    Reduction,    // sum/mean/amax, softmax, norms, losses
    View,         // view/reshape/permute/slice/expand, getitem: no data movement
    Collective,   // _c10d_functional calls and their waits: work done together with the other ranks of a group
    Other,        // everything else: indexing, cat, scatter, random, SymInt arithmetic
};

std::string_view nodeCategoryName(NodeCategory c);  // "input", "matmul", ...

// By operator name without namespace or overload: "mm", "add_", "native_layer_norm", also the last part of a
// dotted python name ("torch._C._nn.linear" -> "linear"). A trailing '_' (in-place) is ignored.
NodeCategory classifyOp(std::string_view opName);
NodeCategory classifyNode(const graph::Node& n);

// Colours are "#rrggbb" fills light enough for black text on both light and dark window themes.
struct NodeStyle {
    std::string_view fill;
    std::string_view border;
    std::string_view shape;  // Graphviz shape name; the GUI maps it to its own item shapes
    bool dashed = false;
};
NodeStyle nodeStyle(NodeCategory c);
// The small duplicated stand-in for a parameter/constant drawn next to a far user (see DotOptions::stubs).
NodeStyle stubStyle();

}  // namespace fxray::render
