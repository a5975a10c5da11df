#pragma once
// Large graphs drawn as blocks: consecutive nodes of the same model statement (the stack-trace comment that
// precedes them in print_readable) form a region; consecutive regions are packed into blocks of about
// nodes / maxBlocks nodes. A collapsed block is drawn as one vertex; expanding one puts its nodes back.
//
// Why program-order blocks and not one group per source line: a transformer runs the same source lines once per
// layer, so grouping by line folds all layers into one vertex with edges to itself; consecutive runs keep each
// layer's statements apart and keep the drawing's top-to-bottom flow. Blocks are contiguous in program order, so
// the collapsed graph is still topologically ordered and `dot` ranks it like the original.
#include "graph/graph.h"
#include "render/dot_writer.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fxray::render {

struct Block {
    int first = 0, last = 0;   // program-order range of its nodes, inclusive (first and last of `nodes`)
    std::vector<int> nodes;    // its nodes, program order: the whole range for statement blocks; a module scope's
                               // nodes need not be contiguous (render/scope_tree.h)
    std::string title;          // the model statement most of its nodes come from ("x = self.fc1(x)"), or names
    std::string summary;        // "34 nodes · mm 2 · add 5 · view 7"
    // Module hierarchy (render/scope_tree.h): the scope or fold this box stands for; `direct`: some of the nodes
    // directly in scope `scope` (an open scope with many nodes of its own shows them as blocks).
    int scope = -1, fold = -1;
    bool direct = false;
    // A run of `restCount` instances of the open large fold `restFold`, from instance `scope` on, drawn as one box.
    int restFold = -1, restCount = 0;
    int size() const { return static_cast<int>(nodes.size()); }
};

// An open module scope or open fold, drawn as a box (a Graphviz cluster) around what it holds, so that the
// hierarchy stays visible once opened. Clusters nest as the scopes do.
struct Cluster {
    std::string label;   // "layers.5 · Qwen2DecoderLayer", "modeling_qwen2:47–297 #5 of ×24", "layers.0–23 ×24"
    int parent = -1;     // enclosing cluster, or -1 (drawn at the top level)
    int scope = -1;      // the open scope it stands for, or -1
    int fold = -1;       // the open fold it stands for, or -1
    int depth = 0;       // 0 for a top-level cluster
};

struct Grouping {
    std::vector<Block> blocks;
    std::vector<int> blockOf;  // per node: its block
    // Module hierarchy only (render/scope_tree.h); parents come before their children.
    std::vector<Cluster> clusters;
    std::vector<int> clusterOf;  // per node: the innermost cluster its box (itself or its block) is drawn in, or -1
    bool empty() const { return blocks.empty(); }
};

// Groups `g` into at most `maxBlocks` blocks, each as small as that allows but at least 8 nodes. A block never mixes
// inputs with computation, so a graph that alternates between them more than maxBlocks times gets more blocks.
// Every node belongs to exactly one block.
Grouping groupIntoBlocks(const graph::Graph& g, std::size_t maxBlocks);

// Fills a block's title and summary from its nodes (the most common statement, the most common ops).
void describeBlock(const graph::Graph& g, Block& b);

// The graph with every collapsed block replaced by one node ("group#<k>", its inputs the values it reads from
// outside, placed where its first computing node was, else its first node). Nodes of no block (blockOf -1) are drawn as themselves. `origin[i]` says what quotient node i stands for: an original node index (>= 0) or block k as -1-k.
struct CollapsedGraph {
    graph::Graph graph;
    std::vector<int> origin;
};
CollapsedGraph collapseBlocks(const graph::Graph& g, const Grouping& grouping, const std::vector<bool>& expanded);

// Gives `options` the grouping's clusters, for drawing `collapsed` (made from `grouping`): a block sits in the cluster
// its nodes are drawn in. `options` refers to both, which must outlive its use.
void addClusters(DotOptions& options, const Grouping& grouping, const CollapsedGraph& collapsed);

// The quotient node name of block k (not a Python identifier, so it never collides with an FX name).
std::string blockNodeName(int block);

}  // namespace fxray::render
