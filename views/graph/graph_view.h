#pragma once
// The graph view: zoom with the wheel (around the cursor) or +/-, 0 fits, drag to pan; a small overview of the
// whole drawing sits in the bottom-right corner with the visible part framed; clicking it moves there.
#include <QGraphicsView>

namespace fxray::views {

class GraphOverview;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    void zoomBy(qreal factor);
    void fitAll();
    void centerOnItem(const QGraphicsItem* item);  // centres, zooming in to a readable size if needed
    qreal zoom() const { return transform().m11(); }
    GraphOverview* overview() const { return m_overview; }

Q_SIGNALS:
    void viewportMoved();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void placeOverview();
    GraphOverview* m_overview = nullptr;
};

// A second, small view of the same scene: the whole drawing, the main view's visible rectangle framed.
class GraphOverview : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphOverview(GraphView* main);
    void refit();

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    GraphView* m_main;
};

}  // namespace fxray::views
