#pragma once
// A TorchScript graph as a list of statements, the form both TorchScript front ends produce: fxray's own text
// parser (torchscript_parser.h) and the LibTorch importer (replay/schemas/torchscript_import.h, which walks the
// torch::jit::Graph that torch::jit::parseIR built). buildTorchScriptGraph turns it into fxray's FX-shaped Graph,
// so that both front ends give the same graph by construction of this one step.
//
// What becomes what (FX is the model: fxray prints every graph as FX code):
//   graph inputs            placeholders (meta from complete tensor types); a module input (%self : __torch__.M)
//                           is no placeholder: its prim::GetAttr chains become get_attr nodes ("fc.weight")
//   prim::Constant          literal arguments of its users (int, float, bool, str, None, lists, devices);
//                           a tensor constant becomes a get_attr node "_tensor_constant<n>"
//   prim::ListConstruct /   literal lists / tuples of their inputs ([a, 2], (x, y)), inlined into users
//   prim::TupleConstruct
//   prim::TupleUnpack /     the constructed items when the input was built here, else getitem nodes
//   prim::ListUnpack
//   ns::op                  call_function torch.ops.ns.op[.overload]; k outputs (k > 1): one tuple-valued node
//                           and k getitem nodes carrying the outputs' metas
//   prim::CallMethod        call_method on the module's get_attr node (traced .graph with submodule calls)
//   return (%a, ...)        the output node: one value as is (a tuple value prints as a tuple), several as a tuple
// Source comments ("# path:line:col") and LTC's source="file fn line" attributes become stack frames.
#include "base/error.h"
#include "graph/graph.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxray::graph {

struct TsValue {
    std::string name;  // without '%': "x.1", "13"
    std::string type;  // as printed: "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "int", "Tensor"
    int line = 0;
};

struct TsStatement {
    std::vector<TsValue> outputs;
    std::string kind;      // "aten::linear", "prim::Constant"
    std::string overload;  // resolved overload ("default", "Tensor"); empty when the front end cannot know it
    std::optional<Arg> constant;  // prim::Constant: its literal value (Arg::none() for "prim::Constant()")
    bool tensorConstant = false;  // prim::Constant of a tensor: becomes a get_attr node
    std::vector<std::pair<std::string, std::string>> attributes;  // the others, strings unquoted
    std::vector<std::string> inputs;                              // value names
    // Per input: the schema's name where the argument is keyword-only ("dtype" of aten::mean.dim), which
    // TorchScript passes positionally but a dispatcher call by position cannot; empty: positional. Only the
    // LibTorch importer knows schemas; the text parser leaves this empty.
    std::vector<std::string> keywords;
    std::string comment;  // source comment after '#': "path/x.py:12:0"
    bool hasBlocks = false;  // prim::If / prim::Loop bodies
    int line = 0;
};

struct TsGraph {
    std::string fileName;
    std::vector<TsValue> inputs;
    std::vector<TsStatement> statements;
    std::vector<std::string> returns;
    int returnLine = 0;
};

// Throws fxray::Error naming file and line: undefined or redefined values, control flow, malformed tensor types,
// unpacking the wrong number of items, prim::GetAttr on something that is not a module.
Graph buildTorchScriptGraph(const TsGraph& ts);

}  // namespace fxray::graph
