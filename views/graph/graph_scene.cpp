#include "views/graph/graph_scene.h"

#include "views/graph/scene_spec.h"

#include <QElapsedTimer>
#include <QGraphicsSceneMouseEvent>
#include <QTimer>

#include <algorithm>

namespace fxray::views {

namespace {

int severity(NodeMark m)
{
    switch (m) {
    case NodeMark::Error: return 6;
    case NodeMark::NanOrigin: return 5;
    case NodeMark::Mismatch: return 4;
    case NodeMark::Unsupported: return 3;
    case NodeMark::CudaGraphBlocker: return 3;
    case NodeMark::NotRun: return 1;
    case NodeMark::Passed: return 2;
    case NodeMark::None: break;
    }
    return 0;
}

NodeItem::Kind itemKind(ItemSpec::Kind k)
{
    switch (k) {
    case ItemSpec::Kind::Stub: return NodeItem::Kind::Stub;
    case ItemSpec::Kind::Block: return NodeItem::Kind::Block;
    case ItemSpec::Kind::Node: break;
    }
    return NodeItem::Kind::Node;
}

}  // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

void GraphScene::clearDrawing()
{
    ++m_generation;  // a build still in slices stops
    m_building = false;
    m_hovered = nullptr;
    m_selecting = true;
    clear();
    m_selecting = false;
    m_items.clear();
    m_edges.clear();
    m_clusters.clear();
    m_itemOfNode.clear();
    m_itemOfBlock.clear();
    m_drawing.reset();
    m_spec.reset();
    m_nextItem = m_nextEdge = 0;
}

void GraphScene::setBuildSlices(std::size_t syncLimit, int sliceMs)
{
    m_syncLimit = syncLimit;
    m_sliceMs = sliceMs;
}

void GraphScene::setDrawing(std::shared_ptr<const GraphDrawing> drawing)
{
    clearDrawing();
    m_drawing = std::move(drawing);
    if (!m_drawing || !m_drawing->loaded)
        return;
    // The items as values come with the drawing (made in the layout job); a drawing made without them gets them here.
    m_spec = m_drawing->spec ? m_drawing->spec : std::make_shared<const SceneSpec>(buildSceneSpec(*m_drawing));
    m_itemOfNode.assign(m_drawing->loaded->graph.nodes.size(), -1);
    m_itemOfBlock.assign(m_drawing->grouping ? m_drawing->grouping->blocks.size() : 0, -1);
    m_items.reserve(m_spec->items.size());
    m_edges.reserve(m_spec->edges.size());
    setSceneRect(m_spec->sceneRect);
    // A few boxes at most (one per open scope): made at once, behind what is built in slices.
    for (const ClusterSpec& c : m_spec->clusters) {
        auto* item = new ClusterItem(c.rect, c.label, c.labelHeight, c.depth, c.fill, c.border);
        item->cluster = c.cluster;
        item->setToolTip(c.tooltip);
        addItem(item);
        m_clusters.push_back(item);
    }
    if (m_spec->items.size() + m_spec->edges.size() <= m_syncLimit) {
        buildSlice(-1);
        finishBuild();
        return;
    }
    // Thousands of items: made in slices of at most m_sliceMs between events, so the window never stalls long.
    m_building = true;
    buildNextSlice(m_generation);
}

void GraphScene::buildNextSlice(quint64 generation)
{
    if (generation != m_generation || !m_building)
        return;
    if (!buildSlice(m_sliceMs)) {
        QTimer::singleShot(0, this, [this, generation] { buildNextSlice(generation); });
        return;
    }
    m_building = false;
    finishBuild();
}

bool GraphScene::buildSlice(int budgetMs)
{
    QElapsedTimer clock;
    clock.start();
    const auto outOfTime = [&](std::size_t k) { return budgetMs >= 0 && k % 16 == 15 && clock.elapsed() >= budgetMs; };
    for (std::size_t k = 0; m_nextItem < m_spec->items.size(); ++k) {
        if (outOfTime(k))
            return false;
        const ItemSpec& spec = m_spec->items[m_nextItem];
        const int i = static_cast<int>(m_nextItem++);
        auto* item = new NodeItem(i, itemKind(spec.kind), spec.rect, spec.lines, spec.fill, spec.border, spec.ellipse);
        item->node = spec.node;
        item->block = spec.block;
        if (!spec.tooltip.isEmpty())
            item->setToolTip(spec.tooltip);
        if (spec.block >= 0)
            m_itemOfBlock[static_cast<std::size_t>(spec.block)] = i;
        else if (spec.kind == ItemSpec::Kind::Node && spec.node >= 0)
            m_itemOfNode[static_cast<std::size_t>(spec.node)] = i;
        addItem(item);
        m_items.push_back(item);
    }
    for (std::size_t k = 0; m_nextEdge < m_spec->edges.size(); ++k) {
        if (outOfTime(k))
            return false;
        const EdgeSpec& spec = m_spec->edges[m_nextEdge++];
        auto* edge = new EdgeItem(spec.path, spec.arrow, spec.dashed);
        const int index = static_cast<int>(m_edges.size());
        edge->from = spec.from;
        edge->to = spec.to;
        for (int end : {spec.from, spec.to})
            if (end >= 0)
                m_items[static_cast<std::size_t>(end)]->edges.push_back(index);
        addItem(edge);
        m_edges.push_back(edge);
    }
    return true;
}

void GraphScene::finishBuild()
{
    setMarks(m_marks);
    setSearchHits(m_hits);
    Q_EMIT built();
}

NodeItem* GraphScene::itemForNode(int node) const
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_itemOfNode.size())
        return nullptr;
    if (const int i = m_itemOfNode[static_cast<std::size_t>(node)]; i >= 0)
        return m_items[static_cast<std::size_t>(i)];
    if (m_drawing && m_drawing->grouping)
        return itemForBlock(m_drawing->grouping->blockOf[static_cast<std::size_t>(node)]);
    return nullptr;
}

NodeItem* GraphScene::itemForBlock(int block) const
{
    if (block < 0 || static_cast<std::size_t>(block) >= m_itemOfBlock.size())
        return nullptr;
    const int i = m_itemOfBlock[static_cast<std::size_t>(block)];
    return i >= 0 ? m_items[static_cast<std::size_t>(i)] : nullptr;
}

void GraphScene::selectNode(int node)
{
    m_selecting = true;
    clearSelection();
    m_selectedNode = node;
    if (NodeItem* item = itemForNode(node))
        item->setSelected(true);
    m_selecting = false;
}

void GraphScene::onSelectionChanged()
{
    if (m_selecting)
        return;
    const QList<QGraphicsItem*> selected = selectedItems();
    if (selected.isEmpty())
        return;
    auto* item = qgraphicsitem_cast<NodeItem*>(selected.front());
    if (!item)
        return;
    if (item->block >= 0) {
        Q_EMIT blockSelected(item->block);
        return;
    }
    if (item->node >= 0) {
        m_selectedNode = item->node;
        Q_EMIT nodeSelected(item->node);
    }
}

namespace {

// The innermost cluster whose title band is under `pos`, when no node is (items() lists the topmost first).
ClusterItem* clusterTitleAt(const QList<QGraphicsItem*>& under, const QPointF& pos)
{
    for (QGraphicsItem* it : under) {
        if (qgraphicsitem_cast<NodeItem*>(it))
            return nullptr;
        if (auto* c = qgraphicsitem_cast<ClusterItem*>(it))
            return c->labelBand().contains(pos) ? c : nullptr;
    }
    return nullptr;
}

}  // namespace

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    const QList<QGraphicsItem*> under = items(event->scenePos());
    for (QGraphicsItem* it : under) {
        if (auto* item = qgraphicsitem_cast<NodeItem*>(it); item && item->block >= 0) {
            Q_EMIT blockActivated(item->block);
            return;
        }
    }
    if (ClusterItem* c = clusterTitleAt(under, event->scenePos())) {
        Q_EMIT clusterActivated(c->cluster);
        return;
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (ClusterItem* c = clusterTitleAt(items(event->scenePos()), event->scenePos()))
            Q_EMIT clusterSelected(c->cluster);
    QGraphicsScene::mousePressEvent(event);
}

void GraphScene::setMarks(const std::vector<NodeMark>& marks)
{
    m_marks = marks;
    for (NodeItem* item : m_items) {
        NodeMark mark = NodeMark::None;
        if (item->kind() == NodeItem::Kind::Node && item->node >= 0 && static_cast<std::size_t>(item->node) < marks.size())
            mark = marks[static_cast<std::size_t>(item->node)];
        else if (item->block >= 0 && m_drawing && m_drawing->grouping) {
            const render::Block& b = m_drawing->grouping->blocks[static_cast<std::size_t>(item->block)];
            for (int i : b.nodes)
                if (static_cast<std::size_t>(i) < marks.size() && severity(marks[static_cast<std::size_t>(i)]) > severity(mark))
                    mark = marks[static_cast<std::size_t>(i)];
        }
        item->setMark(mark);
    }
    applyFill();
}

void GraphScene::setColourByStatus(bool on)
{
    m_colourByStatus = on;
    applyFill();
}

void GraphScene::applyFill()
{
    for (NodeItem* item : m_items) {
        QColor fill;
        if (m_colourByStatus && item->kind() != NodeItem::Kind::Stub) {
            const QColor c = markColor(item->mark());
            fill = c.isValid() ? c.lighter(item->mark() == NodeMark::Passed ? 190 : 150) : QColor(0xf4, 0xf4, 0xf4);
        }
        item->setFillOverride(fill);
    }
}

void GraphScene::setSearchHits(const std::vector<int>& nodes)
{
    if (&nodes != &m_hits)
        m_hits = nodes;
    for (NodeItem* item : m_items)
        item->setSearchHit(false);
    for (int n : nodes)
        if (NodeItem* item = itemForNode(n))
            item->setSearchHit(true);
}

void GraphScene::setHovered(NodeItem* item)
{
    const auto mark = [this](NodeItem* center, bool on) {
        if (!center)
            return;
        for (int e : center->edges) {
            EdgeItem* edge = m_edges[static_cast<std::size_t>(e)];
            edge->setHighlighted(on);
            for (int end : {edge->from, edge->to})
                if (end >= 0 && m_items[static_cast<std::size_t>(end)] != center)
                    m_items[static_cast<std::size_t>(end)]->setHighlighted(on);
        }
    };
    mark(m_hovered, false);
    m_hovered = item;
    mark(m_hovered, true);
}

}  // namespace fxray::views
