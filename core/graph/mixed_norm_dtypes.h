#pragma once
// Where a graph recorded on the CPU holds dtypes that torch's fake-tensor rules gave and the CPU kernels do not
// (issue 21: the corpus' bf16 autocast recipe on the CPU). Autocast runs batch and group norms in bf16 with f32
// weights; for such a mixed-dtype call (input bf16 or f16, weight f32) torch 2.11 on the CPU:
//  - native_batch_norm, _native_batch_norm_legit(_functional, _no_training), native_group_norm, native_layer_norm:
//    the kernels return the saved mean and rstd (outputs 1 and 2) in f32, the fake rules (the decompositions cast
//    them back on the CPU) record the input's dtype;
//  - native_batch_norm_backward, native_group_norm_backward, native_layer_norm_backward take those statistics in f32
//    (the kernels refuse the recorded dtype: "mixed dtype (CPU): expect parameter to have scalar type of Float"), so a
//    backward graph's inputs that carry them are recorded in the wrong dtype too;
//  - native_group_norm_backward's grad_input: the kernel returns the input's dtype, the fake rule f32.
// Aliases and views that only carry such a value on inherit it. Probed by tests/data/mixed_norms/make_mixed_norms.py.
// Plain graph analysis: a replay on the CPU checks and generates these values with the kernels' dtypes and says so.
#include "graph/graph.h"

#include <map>

namespace fxray::graph {

// Node index -> the dtype the CPU kernel gives, for each node whose recorded dtype is the fake rule's instead.
std::map<int, DType> cpuKernelNormDtypes(const Graph& g);

}  // namespace fxray::graph
