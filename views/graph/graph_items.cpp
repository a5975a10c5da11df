#include "views/graph/graph_items.h"

#include "render/dot_writer.h"

#include "views/graph/graph_scene.h"

#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace fxray::views {

QColor markColor(NodeMark mark)
{
    switch (mark) {
    case NodeMark::Passed: return QColor(0x2e, 0x9e, 0x44);
    case NodeMark::Mismatch: return QColor(0xf0, 0x8c, 0x00);
    case NodeMark::Error: return QColor(0xd0, 0x20, 0x20);
    case NodeMark::NanOrigin: return QColor(0x9c, 0x27, 0xb0);
    case NodeMark::Unsupported: return QColor(0x60, 0x60, 0x60);
    case NodeMark::NotRun: return QColor(0xa0, 0xa0, 0xa0);
    case NodeMark::CudaGraphBlocker: return QColor(0x00, 0x83, 0x8f);
    case NodeMark::None: break;
    }
    return {};
}

QString markName(NodeMark mark)
{
    switch (mark) {
    case NodeMark::Passed: return QStringLiteral("passed");
    case NodeMark::Mismatch: return QStringLiteral("mismatch");
    case NodeMark::Error: return QStringLiteral("error");
    case NodeMark::NanOrigin: return QStringLiteral("NaN origin");
    case NodeMark::Unsupported: return QStringLiteral("unsupported");
    case NodeMark::NotRun: return QStringLiteral("not run");
    case NodeMark::CudaGraphBlocker: return QStringLiteral("blocks CUDA graph capture");
    case NodeMark::None: break;
    }
    return {};
}

NodeItem::NodeItem(int box, Kind kind, const QRectF& rect, QStringList lines, QColor fill, QColor border, bool ellipse)
    : m_box(box)
    , m_kind(kind)
    , m_rect(rect)
    , m_lines(std::move(lines))
    , m_fill(fill)
    , m_border(border)
    , m_ellipse(ellipse)
{
    setFlags(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setZValue(kind == Kind::Stub ? 1 : 2);
}

QRectF NodeItem::boundingRect() const
{
    return m_rect.adjusted(-4, -4, 4, 4);  // room for the status and selection outlines
}

QPainterPath NodeItem::shape() const
{
    QPainterPath p;
    p.addRect(m_rect);
    return p;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QColor fill = m_fillOverride.isValid() ? m_fillOverride : m_fill;
    QPen pen(m_border, m_kind == Kind::Block ? 2.0 : 1.0);
    if (m_kind == Kind::Stub)
        pen.setStyle(Qt::DashLine);
    if (m_mark != NodeMark::None && m_mark != NodeMark::Passed && m_mark != NodeMark::NotRun) {
        pen = QPen(markColor(m_mark), 3.5);
    } else if (m_mark == NodeMark::Passed) {
        pen = QPen(markColor(m_mark), 1.5);
    }
    if (m_highlighted)
        fill = fill.darker(112);
    painter->setBrush(fill);
    painter->setPen(lod < 0.2 ? QPen(Qt::NoPen) : pen);
    if (m_ellipse)
        painter->drawEllipse(m_rect);
    else if (m_kind == Kind::Block) {
        // A stack of cards: this stands for many nodes.
        painter->drawRect(m_rect.translated(3, 3));
        painter->drawRect(m_rect);
    } else
        painter->drawRoundedRect(m_rect, 4, 4);
    if (isSelected() || m_searchHit) {
        QPen outline(isSelected() ? QColor(0x15, 0x65, 0xc0) : QColor(0xff, 0xc1, 0x07), isSelected() ? 3 : 2.5);
        outline.setCosmetic(lod < 1);
        painter->setPen(outline);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(m_rect.adjusted(-2.5, -2.5, 2.5, 2.5));
    }
    // Blocks carry large type (render::kBlockTitlePoints): legible when a whole drawing of them is fitted.
    const bool isBlock = m_kind == Kind::Block;
    const qreal sizes[] = {isBlock ? qreal(render::kBlockTitlePoints) : 10, isBlock ? qreal(render::kBlockSummaryPoints) : 9,
                           isBlock ? qreal(render::kBlockSummaryPoints) : 8};
    if (lod * sizes[0] < 3.5 || m_lines.isEmpty())
        return;  // too small to read: shapes only
    painter->setPen(Qt::black);
    QFont font = painter->font();
    font.setFamily(QStringLiteral("Helvetica"));
    qreal total = 0;
    for (int i = 0; i < m_lines.size(); ++i)
        total += (m_kind == Kind::Stub ? 8 : sizes[std::min(i, 2)]) * 1.25;
    qreal y = m_rect.center().y() - total / 2;
    for (int i = 0; i < m_lines.size(); ++i) {
        const qreal size = m_kind == Kind::Stub ? 8 : sizes[std::min(i, 2)];
        // Scene units are Graphviz points and Graphviz sized the box for a `size`-point font: a pixel size
        // of `size` scene units matches it (a point size would be scaled by the screen's DPI and not fit).
        font.setPixelSize(static_cast<int>(size));
        font.setBold(i == 0 && m_kind != Kind::Stub);
        painter->setFont(font);
        const QRectF line(m_rect.left() + 2, y, m_rect.width() - 4, size * 1.25);
        painter->drawText(line, Qt::AlignCenter | Qt::TextSingleLine,
                          painter->fontMetrics().elidedText(m_lines[i], Qt::ElideMiddle, static_cast<int>(line.width())));
        y += size * 1.25;
    }
}

void NodeItem::setMark(NodeMark mark)
{
    if (m_mark != mark) {
        m_mark = mark;
        update();
    }
}

void NodeItem::setFillOverride(const QColor& fill)
{
    m_fillOverride = fill;
    update();
}

void NodeItem::setHighlighted(bool on)
{
    if (m_highlighted != on) {
        m_highlighted = on;
        update();
    }
}

void NodeItem::setSearchHit(bool on)
{
    if (m_searchHit != on) {
        m_searchHit = on;
        update();
    }
}

void NodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
    if (auto* s = qobject_cast<GraphScene*>(scene()))
        s->setHovered(this);
    QGraphicsItem::hoverEnterEvent(event);
}

void NodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
    if (auto* s = qobject_cast<GraphScene*>(scene()))
        s->setHovered(nullptr);
    QGraphicsItem::hoverLeaveEvent(event);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
    if (change == ItemSelectedHasChanged)
        setZValue(value.toBool() ? 3 : (m_kind == Kind::Stub ? 1 : 2));
    return QGraphicsItem::itemChange(change, value);
}

EdgeItem::EdgeItem(const QPainterPath& path, const QPolygonF& arrow, bool dashed)
    : QGraphicsPathItem(path)
    , m_arrow(arrow)
{
    QPen pen(QColor(0x60, 0x60, 0x60), 1.0);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    setPen(pen);
    setZValue(0);
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF EdgeItem::boundingRect() const
{
    return QGraphicsPathItem::boundingRect().united(m_arrow.boundingRect()).adjusted(-2, -2, 2, 2);
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QPen p = pen();
    if (m_highlighted) {
        p.setColor(QColor(0x15, 0x65, 0xc0));
        p.setWidthF(2.5);
    }
    p.setCosmetic(lod < 0.5);  // far out, edges stay one pixel wide instead of vanishing
    painter->setPen(p);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    if (!m_arrow.isEmpty() && lod >= 0.2) {
        painter->setBrush(p.color());
        painter->drawPolygon(m_arrow);
    }
}

void EdgeItem::setHighlighted(bool on)
{
    if (m_highlighted != on) {
        m_highlighted = on;
        setZValue(on ? 1.5 : 0);
        update();
    }
}

ClusterItem::ClusterItem(const QRectF& rect, QString label, qreal labelHeight, int depth, QColor fill, QColor border)
    : m_rect(rect)
    , m_label(std::move(label))
    , m_labelHeight(labelHeight)
    , m_fill(std::move(fill))
    , m_border(std::move(border))
{
    // Behind edges (0) and nodes; a nested cluster above the one around it.
    setZValue(-10 + std::min(depth, 8));
    // Clicks on the title reach the scene (GraphScene::mousePressEvent); taking them here would stop the view's
    // drag-to-pan over the large area a cluster covers.
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF ClusterItem::boundingRect() const
{
    return m_rect.adjusted(-2, -2, 2, 2);
}

QRectF ClusterItem::labelBand() const
{
    return QRectF(m_rect.left(), m_rect.top(), m_rect.width(), std::max<qreal>(m_labelHeight, render::kClusterLabelPoints * 1.3));
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QPen pen(m_border, 2.0);
    pen.setCosmetic(lod < 0.5);  // far out the outline stays visible
    painter->setPen(pen);
    painter->setBrush(m_fill);
    painter->drawRoundedRect(m_rect, 8, 8);
    const qreal size = render::kClusterLabelPoints;
    if (lod * size < 3.5 || m_label.isEmpty())
        return;
    QFont font = painter->font();
    font.setFamily(QStringLiteral("Helvetica"));
    // Scene units are Graphviz points (see NodeItem::paint). A little smaller than Graphviz sized the band for:
    // the font Qt finds for "Helvetica" runs wider than Graphviz's metrics, and the title should not be cut.
    font.setPixelSize(static_cast<int>(size * 0.85));
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(QColor(0x50, 0x40, 0x20));
    const QRectF band = labelBand().adjusted(6, 2, -4, 0);
    painter->drawText(band, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                      painter->fontMetrics().elidedText(m_label, Qt::ElideMiddle, static_cast<int>(band.width())));
}

}  // namespace fxray::views
