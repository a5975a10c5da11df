#pragma once
// Graph -> Graphviz DOT text. Plain C++ (no Graphviz needed): `fxray dot -o g.dot` works in every build.
//
// One DOT node per FX node (id = the FX node name), one edge per data dependency (producer -> user), labels
// with name, target and recorded metadata, shape and colour by NodeCategory. For big graphs the writer changes
// the drawing, not the graph: see StubPolicy and DotOptions::tunedLimits.
#include "graph/graph.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fxray::render {

// Parameters, buffers and (in joint graphs) saved activations are produced at the top of the graph and read far
// below. Each such edge spans the whole drawing, and `dot`'s crossing minimisation and network simplex blow up
// on them (BASELINES.md: a 362-node GPT-2 joint graph takes 36 s, 8.9 s without placeholder edges). A stub is a
// small copy of the producer's name drawn right above one far user, replacing the long edge.
enum class StubPolicy {
    // AllFarValues when the graph has more than DotOptions::largeGraphNodes nodes, else Never. Parameters alone is
    // not enough: a forward graph returns its saved activations, so the output node alone has hundreds of long
    // edges (24-layer GPT forward, 1,576 nodes: > 300 s even with tuned limits and parameter stubs; 2.8 s with
    // far values stubbed; the 3,632-node joint graph: 8.5 s).
    Auto,
    Never,         // every dependency is an edge
    Parameters,    // far uses of placeholders and get_attr become stubs
    AllFarValues,  // far uses of any value become stubs (saved activations too)
};

enum class Toggle { Auto, On, Off };

// A box drawn around some vertices (a Graphviz cluster, "subgraph cluster_<k>"): the GUI draws an open module scope
// as one, labelled, nested in its parent scope's, so the hierarchy stays visible once opened.
struct DotCluster {
    std::string label;  // plain text, drawn at its top left in large type
    int parent = -1;    // the enclosing cluster (index into DotOptions::clusters), or -1; parents come first
};

struct DotOptions {
    bool metadata = true;   // recorded annotation ("f32[4, 64][64, 1]cuda:0") as the label's third line
    bool tooltips = true;   // full expression and source line as tooltip (hover text in SVG)
    StubPolicy stubs = StubPolicy::Auto;
    // nslimit=1 nslimit1=1 mclimit=0.01 searchsize=10: caps the network-simplex and mincross iterations. Costs a
    // few more crossings, buys two orders of magnitude on training graphs (BASELINES.md). Auto: on for large graphs.
    Toggle tunedLimits = Toggle::Auto;
    std::size_t largeGraphNodes = 300;  // what "large" means for the Auto settings
    // A use is far when more than this many call nodes lie between producer and user (program order, which is
    // close to the drawing's top-to-bottom order). Near uses keep their edge.
    int stubDistance = 8;
    // The same for other values under StubPolicy::AllFarValues. Larger, so that residual connections inside a
    // layer stay edges while activations saved for the backward pass (and the forward's outputs) become stubs.
    int valueStubDistance = 40;
    // A user with more far inputs than this gets one stub listing them all instead of one stub each.
    std::size_t maxStubsPerUser = 4;
    std::string graphName = "fxray";
    // Edges from a later node to an earlier one (possible only in graphs of collapsed groups) become stubs where the
    // value can be stubbed, else edges that do not rank: dot keeps program order top to bottom instead of breaking
    // the cycles its own way (for a joint graph's scopes, which hold forward and backward nodes: a tangle).
    bool unconstrainedBackEdges = false;
    // A label of its own for some nodes (plain text, first line bold): the collapsed blocks of a large graph.
    std::function<std::optional<std::string>(int node)> customLabel;
    // Clusters, and per node the innermost cluster it is drawn in (-1: none). A stub goes in its user's cluster.
    // A cluster with nothing in it (nor in its children) is not written.
    std::vector<DotCluster> clusters;
    std::function<int(int node)> clusterOf;
};

// The DOT name of cluster k ("cluster_3": Graphviz draws a subgraph as a cluster when its name starts so).
std::string clusterId(int cluster);
// Cluster k from a DOT subgraph name, or -1.
int clusterFromId(std::string_view id);

// Type size of cluster labels.
inline constexpr int kClusterLabelPoints = 20;

// Type sizes of custom-labelled boxes (blocks, module scopes): the drawing is laid out and painted with them.
inline constexpr int kBlockTitlePoints = 22;
inline constexpr int kBlockSummaryPoints = 14;

// One drawn vertex: an FX node, or a stub standing for `node` (or for all of `merged`) next to its user `user`.
struct DotVertex {
    // DOT node id: the FX node name; "<producer>@<user>" for a stub, "<user>@@inputs" for a merged stub
    // (FX names are identifiers, so neither collides with a node name).
    std::string id;
    int node = -1;   // index into Graph::nodes of the node drawn (a stub: the producer it stands for; merged: -1)
    int user = -1;   // stubs only: the node it feeds
    bool stub = false;
    std::vector<int> merged;  // merged stub: every producer it stands for
};

struct DotEdge {
    std::string from, to;  // vertex ids
    int fromNode = -1, toNode = -1;  // FX node indices (a stub's edge has fromNode = the producer; merged: -1)
};

struct DotDocument {
    std::string text;
    std::vector<DotVertex> vertices;
    std::vector<DotEdge> edges;
    bool usedStubs = false;         // what the Auto settings resolved to
    bool usedTunedLimits = false;
    std::size_t stubCount = 0;
};

DotDocument buildDot(const graph::Graph& g, const DotOptions& options = {});
inline std::string writeDot(const graph::Graph& g, const DotOptions& options = {}) { return buildDot(g, options).text; }

// A node's second label line: its target ("aten.mm.default", "getitem 0", "get_attr w"); empty for placeholders
// and the output. The GUI's items draw the same text the DOT label sized their box for.
std::string opLine(const graph::Graph& g, const graph::Node& n);

// Escaping, exposed for tests: text inside an HTML-like label (&, <, >, ", control characters) and inside a
// double-quoted DOT string (", \, newlines).
std::string escapeHtmlLabel(std::string_view text);
std::string escapeQuoted(std::string_view text);

}  // namespace fxray::render
