#pragma once
// Internal to core/replay (includes LibTorch): the per-node checks — recorded metadata against the actual
// value (FORMATS.md "Checking semantics") — and output statistics.
#include "graph/sym_expr.h"
#include "graph/tensor_meta.h"
#include "replay/replay_types.h"

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

// Actual metadata, and with values=true min/max/mean and NaN/Inf counts (one device read-back).
OutputStats statsOf(const c10::IValue& value, bool values);

}  // namespace fxray::replay::detail
