#pragma once
// Valid value ranges of integer graph inputs, inferred from the ops that consume them: embedding indices are
// below the table's rows, nll_loss targets below the class count, gather/index_select indices below the size
// of the indexed dim. The input factory draws int inputs from these ranges (an out-of-range index is a device
// assert, not a finding), and the minimizer's repro scripts do the same. Plain graph analysis.
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
// One entry per placeholder (placeholder order); nullopt where nothing constrains the input.
std::vector<std::optional<IntRange>> inferIntRanges(const Graph& g);

}  // namespace fxray::graph
