#pragma once
// The scene items of the graph view: one NodeItem per laid-out vertex (FX node, stub, or collapsed block) and one
// EdgeItem per edge. Items paint themselves from a few cached strings (no child text items): a 5,000-vertex scene
// stays cheap, and when zoomed far out only the filled shapes are drawn (level of detail).
#include <QColor>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QStringList>

#include <vector>

namespace fxray::views {

// What a replay said of a node, as the view colours it.
// CudaGraphBlocker: ran fine eagerly, but keeps the graph from being captured as a CUDA graph.
enum class NodeMark { None, Passed, Mismatch, Error, NanOrigin, Unsupported, NotRun, CudaGraphBlocker };
QColor markColor(NodeMark mark);
QString markName(NodeMark mark);

class NodeItem : public QGraphicsItem {
public:
    enum class Kind { Node, Stub, Block };
    static constexpr int Type = UserType + 1;

    NodeItem(int box, Kind kind, const QRectF& rect, QStringList lines, QColor fill, QColor border, bool ellipse);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int box() const { return m_box; }
    Kind kind() const { return m_kind; }
    int node = -1;   // FX node (for a stub: the producer), -1 for a block
    int block = -1;  // collapsed block, or -1
    std::vector<int> edges;  // indices of the scene's edges touching this item

    void setMark(NodeMark mark);
    NodeMark mark() const { return m_mark; }
    QColor fill() const { return m_fill; }  // the category colour (render::nodeStyle)
    const QStringList& lines() const { return m_lines; }
    void setFillOverride(const QColor& fill);  // colour by replay status; invalid = category colour
    void setHighlighted(bool on);               // a neighbour of the hovered node
    bool isHighlighted() const { return m_highlighted; }
    void setSearchHit(bool on);

protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    int m_box;
    Kind m_kind;
    QRectF m_rect;
    QStringList m_lines;
    QColor m_fill, m_border, m_fillOverride;
    bool m_ellipse;
    NodeMark m_mark = NodeMark::None;
    bool m_highlighted = false;
    bool m_searchHit = false;
};

class EdgeItem : public QGraphicsPathItem {
public:
    static constexpr int Type = UserType + 2;
    EdgeItem(const QPainterPath& path, const QPolygonF& arrow, bool dashed);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    void setHighlighted(bool on);
    int from = -1, to = -1;  // item (box) indices

private:
    QPolygonF m_arrow;
    bool m_highlighted = false;
};

// An open module scope or fold: a rounded box behind the items it holds, its label at the top left in large type
// (render::kClusterLabelPoints), in the band Graphviz left for it. Double-click the label band to close it.
class ClusterItem : public QGraphicsItem {
public:
    static constexpr int Type = UserType + 3;
    ClusterItem(const QRectF& rect, QString label, qreal labelHeight, int depth, QColor fill, QColor border);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    QRectF labelBand() const;  // where the label is: the part that takes clicks
    const QString& label() const { return m_label; }
    int cluster = -1;  // index into the drawing's Grouping::clusters

private:
    QRectF m_rect;
    QString m_label;
    qreal m_labelHeight;
    QColor m_fill, m_border;
};

}  // namespace fxray::views
