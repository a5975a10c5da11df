#pragma once
// Internal to core/replay (includes LibTorch): the per-node checks — recorded metadata against the actual
// value (FORMATS.md "Checking semantics") — and output statistics.
#include "graph/sym_expr.h"
#include "graph/tensor_meta.h"
#include "replay/api/replay_types.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <vector>

namespace fxray::replay::detail {

// Compares a value against its recorded metadata, binding symbols that are still free (a size that is a bare
// symbol takes the actual size). Appends mismatches for output index `output`.
void checkValue(const c10::IValue& value, const graph::ValueMeta& meta, const c10::Device& replayDevice, int output,
                graph::SymExpr::Bindings& bindings, std::vector<Mismatch>& mismatches);

// Tensors of a node's value in flattened order (tuples and lists expanded; non-tensors skipped).
std::vector<at::Tensor> flattenTensors(const c10::IValue& value);

// Actual metadata, and with values=true min/max/mean and NaN/Inf counts (one device read-back: a replay queues
// them instead, deferred_checks.h).
OutputStats statsOf(const c10::IValue& value, bool values);

// Compares one graph output with its reference, with dtype-aware tolerances (f64 1e-7, f32 1e-4, f16 1e-3/1e-2,
// bf16 1e-2/2e-2 absolute/relative; the absolute part scaled by max(1, max |reference|); integers and bools
// exactly). NaNs must sit in the same places. With `exact`, floats must be equal bit for bit too (tolerance 0).
// `tf32`: the output is downstream of convolutions that cuDNN ran in TF32 (PyTorch's default on CUDA, here and in
// eager), where two runs may pick different algorithms: f32/c64 get TF32's 1e-3 instead of 1e-4.
// `computedIn`: "bfloat16" or "float16" when the output is computed from values of that dtype (stage compare: two
// compiles round those at other places); f32/f64 outputs then get that dtype's tolerance, with a note saying so.
OutputComparison compareOutput(const c10::IValue& actual, const c10::IValue& reference, int index, bool exact = false,
                               bool tf32 = false, const std::string& computedIn = "");

}  // namespace fxray::replay::detail
