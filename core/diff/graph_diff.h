#pragma once
// Structural diff of two FX graphs: which node of A is which node of B, and what differs.
//
// Matching (node_matcher.h) pairs nodes by what they compute, not by what they are called: renaming every node
// (primals_3 vs arg2_1, add_7 vs add_9) and reordering independent nodes are not differences. Each node is then
// same / changed (overload, an argument, recorded dtype/shape/stride/device) / added / removed; graph inputs
// (placeholders, by position) and outputs (items of the returned tuple) are classified likewise.
// Plain C++; throws fxray::Error only for malformed graphs (a reference to a missing node, a cycle).
#include "graph/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxray::diff {

enum class Status { Same, Changed, Added, Removed };
std::string_view statusName(Status s);  // "same", "changed", "added", "removed"

// Why two nodes were paired: what the GUI and --json show next to a match, and what tests look at.
enum class MatchReason {
    None,            // unmatched (added / removed)
    Name,            // the output node; get_attr by attribute path
    Position,        // placeholders by position (both graphs have the same number of inputs)
    Hash,            // the only node on each side with this structural (Merkle) hash
    Propagation,     // same op as a matched neighbour expects: an input of matched users, a user of matched inputs
    SourceLocation,  // same op recorded at the same model source line (stack-trace comment)
    Order,           // leftovers: identical nodes paired in program order, or same name and op
};
std::string_view matchReasonName(MatchReason r);  // "name", "position", "hash", ...

// One difference inside a matched pair (or a moved/changed input or output).
struct Change {
    enum class Field {
        Overload,       // aten.sum.default -> aten.sum.dim_IntList
        Argument,       // positional argument `where` ("argument 1")
        Keyword,        // keyword argument `where` ("dim")
        DType, Shape, Stride, Device, StorageOffset,  // recorded tensor metadata
        SymValue,       // a SymInt/SymFloat/SymBool's recorded expression ("Sym(16)" -> "Sym(s77)")
        Metadata,       // the annotation as a whole (e.g. a tensor became a SymInt)
        Position,       // an input/output moved relative to the others
        Output,         // a returned value (output node: one per changed output)
    };
    Field field = Field::Argument;
    std::string where;   // argument index / keyword name / "output 2"; empty for metadata fields
    std::string before;  // as printed in A; "(none)" when absent there
    std::string after;   // as printed in B
    std::string str() const;  // "overload: default → Tensor", "argument 1: 0.5 → 0.25", "stride: [64, 1] → [1, 64]"
};
std::string_view fieldName(Change::Field f);  // "overload", "argument", "kwarg", "dtype", "shape", ...

struct NodeDiff {
    Status status = Status::Same;
    int a = -1;  // node index in A; -1 when added
    int b = -1;  // node index in B; -1 when removed
    MatchReason reason = MatchReason::None;
    std::vector<Change> changes;  // non-empty exactly when Changed
};

// A graph input (placeholder, by signature position) or output (item of the returned tuple, by position).
struct PortDiff {
    Status status = Status::Same;
    int aPosition = -1, bPosition = -1;  // position in A's / B's signature or returned tuple; -1 when absent
    int a = -1, b = -1;                  // the node (placeholder, or the value returned); -1 for literals (None)
    std::vector<Change> changes;
};

struct DiffOptions {
    bool compareMetadata = true;  // recorded dtype/shape/stride/device annotations
};

struct StatusCounts {
    int same = 0, changed = 0, added = 0, removed = 0;
    int differences() const { return changed + added + removed; }
};

struct DiffResult {
    std::vector<int> aToB;  // per node of A: its match in B, -1 when removed
    std::vector<int> bToA;  // per node of B: its match in A, -1 when added
    // Every node of both graphs once, in merged order: B's order, with each removed node of A placed after the
    // matched node that precedes it in A (a topological order of the merged graph; see merged_graph.h).
    std::vector<NodeDiff> nodes;
    std::vector<PortDiff> inputs;   // in merged signature order
    std::vector<PortDiff> outputs;  // in merged order of the returned tuple
    std::vector<std::string> notes;  // graph-level differences (higher-order-op subgraphs that differ)
    // What limits the comparison without being a difference: a side with no recorded metadata at all (its
    // dtypes, shapes and strides could not be compared, so "equal" means equal code only).
    std::vector<std::string> warnings;

    StatusCounts ops;  // call_function / call_method / get_attr nodes (placeholders are counted in inputCounts)
    StatusCounts inputCounts;
    StatusCounts outputCounts;

    int differenceCount() const
    {
        return ops.differences() + inputCounts.differences() + outputCounts.differences() + static_cast<int>(notes.size());
    }
    bool equal() const { return differenceCount() == 0; }
};

// Matches and classifies. O(n log n) in practice: 20,000-node graphs take well under a second (bench/diff_bench.cpp).
DiffResult diffGraphs(const graph::Graph& a, const graph::Graph& b, const DiffOptions& options = {});

// Whether a NodeDiff is a difference worth a line of its own: op nodes that are not Same (placeholders are
// reported as inputs, the output node as outputs).
bool isOpDifference(const NodeDiff& d, const graph::Graph& a, const graph::Graph& b);

}  // namespace fxray::diff
