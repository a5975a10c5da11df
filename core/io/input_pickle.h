#pragma once
// The seed layout's `<name>_<kind>_<i>.input` (FORMATS.md §1): a pickled flat list with one entry per
// placeholder, read with the restricted unpickler.
//
// Entry forms:
//   (cls, torch.Size((d0, ...)), (s0, ...), torch.<dtype>, torch.device(...))  -> Kind::Tensor
//        cls: torch._subclasses.fake_tensor.FakeTensor, torch.Tensor or torch.nn.parameter.Parameter.
//        The size may also be a plain tuple; a size/stride element that is a string (a sympy expression
//        written by our capture companion) becomes SymDim::symbolic. The device may also be a string ("cuda:0").
//   (builtins.int,)    -> Kind::Int      (functorch records no value)
//   (builtins.float,)  -> Kind::Float
//   (builtins.int, <int hint>)   -> Kind::SymInt, symExpr = the hint as text ("24"); written by fxray's
//                                   capture companion for SymInt placeholders
//   (builtins.float, <float hint>) -> Kind::SymFloat, symExpr = the hint as text
//   (torch.SymInt,) / (torch.SymFloat,) -> Kind::SymInt / Kind::SymFloat with no hint (empty symExpr)
// Anything else is an fxray::Error naming the file and the entry index.
#include "graph/tensor_meta.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxray::io {

std::vector<graph::ValueMeta> readInputPickle(const std::string& path);
// The same from bytes already in memory; `fileName` is used in errors.
std::vector<graph::ValueMeta> parseInputPickle(std::string_view data, const std::string& fileName);

}  // namespace fxray::io
