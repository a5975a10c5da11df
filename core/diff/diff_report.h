#pragma once
// What a diff looks like to a person or a script: a summary (counts and one line per difference), JSON, and a
// unified diff of the FX code.
#include "base/json.h"
#include "diff/graph_diff.h"
#include "graph/graph.h"

#include <string>

namespace fxray::diff {

struct DiffLabels {
    std::string a = "A";  // how the two graphs are named in reports (their addresses, in the CLI)
    std::string b = "B";
};

// One node as a line: `relu_1: "f32[4][1]cpu" = torch.ops.aten.relu.default(addmm)` (cut at ~160 characters).
std::string describeNode(const graph::Graph& g, int index);

// Counts, then one line per difference: "+ added", "- removed", "~ changed: what", inputs and outputs after the ops.
std::string formatSummary(const graph::Graph& a, const graph::Graph& b, const DiffResult& r, const DiffLabels& labels = {});

// {"a", "b", "equal", "differences", "counts": {ops, inputs, outputs}, "nodes": [op differences],
//  "inputs": [...], "outputs": [...], "notes": [...], "matched_by": {reason: count}}. Only differences are listed.
json::Value toJson(const graph::Graph& a, const graph::Graph& b, const DiffResult& r, const DiffLabels& labels = {});

// printReadable of A against printReadable of B with B's matched nodes renamed to their names in A and put in A's
// order (added nodes stay after the node they follow in B): renames and reordering vanish from the text, what is
// left is what changed. Empty when the two texts are equal.
std::string unifiedCodeDiff(const graph::Graph& a, const graph::Graph& b, const DiffResult& r, const DiffLabels& labels = {},
                            int context = 3);

// The B graph of unifiedCodeDiff: renamed to A's names and ordered like A (exposed for tests).
graph::Graph alignToA(const graph::Graph& a, const graph::Graph& b, const DiffResult& r);

}  // namespace fxray::diff
