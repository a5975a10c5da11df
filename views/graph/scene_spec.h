#pragma once
// What the graph scene's items will be, as plain values: made from a GraphDrawing in the layout job (labels,
// tooltips, colours, edge paths: a few milliseconds per thousand vertices, and a scan of the whole graph for its
// collective ops), so that the GUI thread only creates the items (graph_scene.h), in slices for large drawings.
#include <QColor>
#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <vector>

namespace fxray::views {

struct GraphDrawing;

struct ItemSpec {
    enum class Kind { Node, Stub, Block };  // as NodeItem::Kind
    Kind kind = Kind::Node;
    QRectF rect;
    QStringList lines;
    QColor fill, border;
    bool ellipse = false;
    int node = -1, block = -1;
    QString tooltip;
};

struct EdgeSpec {
    QPainterPath path;
    QPolygonF arrow;
    bool dashed = false;
    int from = -1, to = -1;  // item indices
};

// An open scope or fold drawn around what it holds (render::Cluster).
struct ClusterSpec {
    QRectF rect;
    QString label;
    qreal labelHeight = 0;
    int depth = 0;
    int cluster = -1;  // index into the drawing's Grouping::clusters
    QColor fill, border;
    QString tooltip;
};

struct SceneSpec {
    std::vector<ClusterSpec> clusters;  // parents before children
    std::vector<ItemSpec> items;  // per layout box
    std::vector<EdgeSpec> edges;  // drawn edges (those with points)
    QRectF sceneRect;
};

// Never throws for a drawing computeDrawing made; safe on any thread (value types only).
SceneSpec buildSceneSpec(const GraphDrawing& drawing);

}  // namespace fxray::views
