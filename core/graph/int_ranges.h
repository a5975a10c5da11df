#pragma once
// Valid value ranges of integer graph inputs: the integer part of graph/value_domains.h (embedding rows, class
// counts, indexed dims, pooling indices, pivots, through views and constant shifts). The minimizer's repro
// scripts draw int inputs from these ranges, as the input factory does.
#include "graph/graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxray::graph {

struct IntRange {
    std::int64_t low = 0, high = 1;  // [low, high)
    std::string reason;  // "embedding: weight has 1000 rows"
};
// One entry per node (index = node index; placeholders come first in FX graphs); nullopt where nothing
// constrains the value.
std::vector<std::optional<IntRange>> inferIntRanges(const Graph& g);

}  // namespace fxray::graph
