#pragma once
// Large graphs drawn by their model's module hierarchy (as Model Explorer does): a tree of module scopes
// (model -> layers.0 -> self_attn -> q_proj) from graph::ModuleScopes, each drawn collapsed as one box until the
// user opens it. Structurally identical consecutive siblings (24 transformer blocks) are detected by a subgraph
// hash (ops, argument structure, recorded dtype/shapes; names ignored) and folded into one box "layers.0–23 ×24".
//
// A ScopeView (which scopes and folds are open) becomes a render::Grouping: one block per collapsed box, the
// nodes of open scopes drawn as themselves, so the DOT/layout path of statement blocks draws it unchanged.
#include "graph/graph.h"
#include "graph/module_scopes.h"
#include "render/graph_grouping.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxray::render {

struct Scope {
    std::string name;   // "layers.0", "self_attn"; the root: the model ("Qwen2ForCausalLM" or the graph's class)
    std::string path;   // "model.layers.0.self_attn" (the root: "")
    std::string type;   // module class, when known
    int parent = -1;
    int depth = 0;
    std::vector<int> children;  // ordered by first node
    std::vector<int> direct;    // nodes directly in this scope, program order
    std::vector<int> nodes;     // every node of the subtree, program order
    std::uint64_t hash = 0;     // structureHash of `nodes`, made only where compared with a sibling (else 0)
    int fold = -1;              // the fold holding it, if any
    int twin = -1;              // a backward copy found by repeats: its forward twin's scope (and back)
};

// A run of structurally identical consecutive siblings.
struct Fold {
    int parent = -1;
    std::vector<int> scopes;
    std::vector<int> nodes;  // all of theirs, program order
    std::string title;       // "layers.0–23 ×24"
};

struct ScopeTree {
    std::vector<Scope> scopes;  // [0]: the root
    std::vector<Fold> folds;
    std::vector<int> scopeOf;   // per node: its deepest scope
    std::vector<graph::Phase> phase;  // per node (Unknown when not known)
    graph::ModuleScopes::Source source = graph::ModuleScopes::Source::None;
    // More than the root: there is a hierarchy to show.
    bool useful() const { return scopes.size() > 1; }
    std::vector<int> ancestry(int scope) const;  // root ... scope
    std::string title(int scope) const;          // name, with the class when known
};

// Nodes in scopes by their module (graph::ModuleScopes); placeholders of parameters go to their module, other
// inputs and the output stay with the root. Without backward twins (no sidecar), backward nodes go under a
// top-level "backward" scope. Never throws.
ScopeTree buildScopeTree(const graph::Graph& g, const graph::ModuleScopes& modules);

// Hash of a set of nodes' structure: per node its kind, target, recorded dtype/shape, literal arguments and which
// of the set's nodes it reads (by position in the set; values from outside count as "outside"). Names ignored.
std::uint64_t structureHash(const graph::Graph& g, const std::vector<int>& nodes);

struct ScopeView {
    std::vector<char> scopeOpen;   // per scope (the root is always open)
    std::vector<char> foldOpen;    // per fold
    std::vector<char> directOpen;  // per scope: its own nodes drawn one by one even when many
    // Per scope, for instances of a large fold (more than kFoldInstancesDrawn): drawn by itself when its fold is
    // open. The others of an open large fold are drawn as one box per run ("#1–9998 ×9998"), so opening a ×9,999
    // fold lays out one instance and a box, not 9,999 boxes. The same for a small fold with an open instance.
    std::vector<char> shown;
};

// Scopes whose own nodes are more than this are drawn as a few blocks of them until opened.
inline constexpr std::size_t kDirectNodesShown = 8;
// Folds of more instances than this open lazily: the first instance open, the others as a box that shows
// kFoldInstancesStep more of them each time it is opened. Smaller folds open into one box per instance.
inline constexpr std::size_t kFoldInstancesDrawn = 32;
inline constexpr std::size_t kFoldInstancesStep = 8;
bool isLargeFold(const ScopeTree& tree, int fold);

// Opens the largest boxes first, breadth first, while the drawing keeps at most `maxBoxes` boxes. Folds stay shut.
ScopeView initialView(const ScopeTree& tree, std::size_t maxBoxes);
// Boxes and single nodes drawn for `view`.
std::size_t visibleCount(const ScopeTree& tree, const ScopeView& view);
// Opens every scope and fold above `node` (and its scope's own nodes), so that it is drawn as itself.
void openPathTo(const ScopeTree& tree, ScopeView& view, int node);
// Opens every scope and fold above `scope`, leaving `scope` as it is (so it shows, as a box if it was shut).
void revealScope(const ScopeTree& tree, ScopeView& view, int scope);
// Shuts `scope` and everything under it.
void closeScope(const ScopeTree& tree, ScopeView& view, int scope);
// Shuts an open fold and everything in its instances.
void closeFold(const ScopeTree& tree, ScopeView& view, int fold);
// Opens a shut fold: every instance as a box, or for a large fold its first instance open and the rest as a box.
// Once an instance of a small fold is open, the instances neither open nor shown are drawn as runs too.
void openFold(const ScopeTree& tree, ScopeView& view, int fold);
// A box of not yet drawn instances of an open large fold (Block::restCount > 0): its first kFoldInstancesStep
// instances drawn as boxes, the rest stays one box.
void showMoreOf(const ScopeTree& tree, ScopeView& view, const Block& rest);
// Every scope, fold, instance and own node drawn as itself ("Expand all").
void openEverything(ScopeView& view);

// The drawing of `view`: one block per shut scope, shut fold, run of own nodes of an open scope with many, or run
// of instances of an open large fold not drawn by themselves; and one cluster (Grouping::clusters) per open scope
// (the root excepted) and per open fold, nested as they are, holding what they draw.
Grouping groupingForView(const graph::Graph& g, const ScopeTree& tree, const ScopeView& view);

}  // namespace fxray::render
