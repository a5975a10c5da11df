#pragma once
// A laid-out graph in fxray's own terms: what the GUI's graph view draws its scene items from. No Graphviz types.
// Units are points (1/72 inch, Graphviz's unit); origin top-left, y grows downwards (screen/Qt convention).
#include <optional>
#include <string>
#include <vector>

namespace fxray::render {

struct Point {
    double x = 0.0;
    double y = 0.0;
    bool operator==(const Point& o) const = default;
};

struct Layout {
    struct NodeBox {
        std::string id;     // DOT vertex id (FX node name; "<producer>@<user>" for a stub)
        int node = -1;      // FX node index (for a stub: the producer it stands for); -1 when laid out from bare DOT
        int user = -1;      // stub only: the node it feeds
        bool stub = false;
        std::vector<int> merged;  // merged stub: the producers it lists (see DotVertex)
        double x = 0.0, y = 0.0;  // centre
        double w = 0.0, h = 0.0;  // full width and height
    };
    struct EdgePath {
        std::string from, to;  // vertex ids
        int fromNode = -1, toNode = -1;
        // Cubic Bezier control points as Graphviz gives them: p0, then (c1, c2, p) triples; draw with cubicTo.
        std::vector<Point> points;
        std::optional<Point> arrowTip;  // where the arrowhead points; the spline ends at its base
    };
    // A cluster's box (an open module scope): its label is drawn at the top left, inside the box, in
    // kClusterLabelPoints type (dot_writer.h), in the band Graphviz keeps for it.
    struct ClusterBox {
        std::string id;     // DOT subgraph name ("cluster_3")
        int cluster = -1;   // index into the DotOptions::clusters it was made from (clusterFromId)
        double x = 0.0, y = 0.0;  // top left
        double w = 0.0, h = 0.0;
        double labelHeight = 0.0;  // height of the label band at the top (Graphviz's label size)
    };
    std::vector<NodeBox> nodes;
    std::vector<ClusterBox> clusters;  // parents before children
    std::vector<EdgePath> edges;
    double width = 0.0, height = 0.0;  // bounding box of the drawing
    double seconds = 0.0;              // time the layout took (Graphviz only)
};

}  // namespace fxray::render
