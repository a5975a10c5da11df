#include "views/graph/graph_view.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>

namespace fxray::views {

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(palette().base());
    setFocusPolicy(Qt::StrongFocus);
    m_overview = new GraphOverview(this);
    placeOverview();
}

void GraphView::zoomBy(qreal factor)
{
    const qreal z = zoom() * factor;
    if ((factor > 1 && z > 8.0) || (factor < 1 && z < 0.005))
        return;
    scale(factor, factor);
    Q_EMIT viewportMoved();
    m_overview->viewport()->update();
}

void GraphView::fitAll()
{
    if (!scene())
        return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // A small graph fitted would be drawn huge: not past 1:1.
    if (zoom() > 1.0)
        setTransform(QTransform());
    Q_EMIT viewportMoved();
    m_overview->refit();
}

void GraphView::centerOnItem(const QGraphicsItem* item)
{
    if (!item)
        return;
    if (zoom() < 0.6)
        setTransform(QTransform::fromScale(0.8, 0.8));
    centerOn(item);
    Q_EMIT viewportMoved();
    m_overview->viewport()->update();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.0015, delta));
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); return;
    case Qt::Key_Minus: zoomBy(0.8); return;
    case Qt::Key_0:
    case Qt::Key_F: fitAll(); return;
    default: break;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    placeOverview();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    m_overview->viewport()->update();
    Q_EMIT viewportMoved();
}

void GraphView::placeOverview()
{
    const int w = std::clamp(width() / 5, 120, 240);
    const int h = std::clamp(height() / 4, 100, 260);
    m_overview->setGeometry(width() - w - 18, height() - h - 18, w, h);
    m_overview->refit();
}

GraphOverview::GraphOverview(GraphView* main)
    : QGraphicsView(main)
    , m_main(main)
{
    setObjectName(QStringLiteral("graphOverview"));
    setInteractive(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::Box);
    setRenderHints(QPainter::Antialiasing);
    setBackgroundBrush(main->palette().alternateBase());
    setCursor(Qt::PointingHandCursor);
}

void GraphOverview::refit()
{
    if (scene() != m_main->scene())
        setScene(m_main->scene());
    if (scene())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    viewport()->update();
}

void GraphOverview::drawForeground(QPainter* painter, const QRectF&)
{
    const QRectF visible = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
    QPen pen(QColor(0x15, 0x65, 0xc0), 2);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(QColor(0x15, 0x65, 0xc0, 40));
    painter->drawRect(visible);
}

void GraphOverview::mousePressEvent(QMouseEvent* event)
{
    m_main->centerOn(mapToScene(event->position().toPoint()));
    viewport()->update();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        mousePressEvent(event);
}

void GraphOverview::wheelEvent(QWheelEvent* event)
{
    event->ignore();
}

}  // namespace fxray::views
