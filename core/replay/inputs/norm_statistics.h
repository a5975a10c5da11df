#pragma once
// Internal to core/replay (includes LibTorch). Generated inputs that are a normalisation's saved statistics are made
// the statistics of the generated input they normalise, as the forward computed them (issue 21). Independent random
// values do not cancel in the backward formulas: ResNet50's 53 chained native_batch_norm_backward calls in a
// compiled gradient-accumulation step grew the gradient ~50x per layer to Inf, then NaN, from finite inputs (a false
// NaN verdict). Covers native_batch_norm_backward in training (save_mean, save_invstd over all dims but the
// channels), native_layer_norm_backward (mean, rstd over the normalised dims) and native_group_norm_backward (mean,
// rstd per sample and group), where input and statistics are graph inputs.
#include "graph/graph.h"

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// Overwrites, in place, the generated `inputs` (one per placeholder of `g`) that hold such statistics; returns one
// line per normalisation for the report's constraints.
std::vector<std::string> alignNormStatistics(const graph::Graph& g, std::vector<c10::IValue>& inputs);

}  // namespace fxray::replay::detail
