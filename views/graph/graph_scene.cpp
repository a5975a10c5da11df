#include "views/graph/graph_scene.h"

#include "graph/collective_check.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"
#include "render/dot_writer.h"
#include "render/node_category.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainterPath>

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace fxray::views {

namespace {

QColor color(std::string_view hex)
{
    return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

// What each collective node does across ranks, for its label and tooltip: "all_reduce sum f32[4, 16] on group '0'"
// for a call, "waits on all_reduce" for a wait_tensor.
std::unordered_map<int, QString> collectiveNotes(const graph::Graph& g)
{
    std::unordered_map<int, QString> out;
    std::unordered_map<std::string, QString> calls;
    for (const graph::CollectiveCall& c : graph::collectiveCalls(g, {}))
        calls.emplace(c.node, QString::fromStdString(c.describe()));
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const graph::Node& n = g.nodes[i];
        if (n.target.kind != graph::Target::Kind::Op || !graph::isCollectiveNamespace(n.target.ns))
            continue;
        if (const auto it = calls.find(n.name); it != calls.end())
            out.emplace(static_cast<int>(i), it->second);
        else if (const std::string waited = graph::waitedCollective(g, static_cast<int>(i)); !waited.empty())
            out.emplace(static_cast<int>(i), QStringLiteral("waits on %1").arg(QString::fromStdString(waited)));
    }
    return out;
}

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

// The arrowhead: from the spline's end to the tip, 6 points wide at its base.
QPolygonF arrowHead(const QPointF& base, const QPointF& tip)
{
    const QPointF d = tip - base;
    const qreal len = std::hypot(d.x(), d.y());
    if (len < 0.01)
        return {};
    const QPointF n(-d.y() / len * 3.0, d.x() / len * 3.0);
    return QPolygonF({tip, base + n, base - n});
}

}  // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

void GraphScene::clearDrawing()
{
    m_hovered = nullptr;
    m_selecting = true;
    clear();
    m_selecting = false;
    m_items.clear();
    m_edges.clear();
    m_itemOfNode.clear();
    m_itemOfBlock.clear();
    m_drawing.reset();
}

QString GraphScene::stubLabelOfBlock(const std::string& id) const
{
    // "group#K@user": a far use of collapsed block K; named by what the block holds ("w_3 … b_9").
    const std::string producer = id.substr(0, id.find('@'));
    const std::string prefix = render::blockNodeName(0).substr(0, render::blockNodeName(0).size() - 1);
    if (m_drawing && m_drawing->grouping && producer.rfind(prefix, 0) == 0) {
        const std::size_t block = std::strtoul(producer.c_str() + prefix.size(), nullptr, 10);
        if (block < m_drawing->grouping->blocks.size())
            return QString::fromStdString(m_drawing->grouping->blocks[block].title);
    }
    return QString::fromStdString(producer);
}

void GraphScene::setDrawing(std::shared_ptr<const GraphDrawing> drawing)
{
    clearDrawing();
    m_drawing = std::move(drawing);
    if (!m_drawing || !m_drawing->loaded)
        return;
    const graph::Graph& g = m_drawing->loaded->graph;
    const std::unordered_map<int, QString> collectives = collectiveNotes(g);
    const render::Layout& layout = m_drawing->layout;
    m_itemOfNode.assign(g.nodes.size(), -1);
    m_itemOfBlock.assign(m_drawing->grouping ? m_drawing->grouping->blocks.size() : 0, -1);
    std::unordered_map<std::string_view, int> byId;
    byId.reserve(layout.nodes.size());
    m_items.reserve(layout.nodes.size());
    const render::NodeStyle stub = render::stubStyle();
    for (std::size_t i = 0; i < layout.nodes.size(); ++i) {
        const render::Layout::NodeBox& box = layout.nodes[i];
        const QRectF rect(box.x - box.w / 2, box.y - box.h / 2, box.w, box.h);
        const int block = i < m_drawing->boxBlock.size() ? m_drawing->boxBlock[i] : -1;
        NodeItem* item = nullptr;
        if (block >= 0) {
            const render::Block& b = m_drawing->grouping->blocks[static_cast<std::size_t>(block)];
            QString title = QString::fromStdString(b.title);
            if (title.size() > 48)  // as graph_drawing.cpp cut it for the layout
                title = title.left(45) + QStringLiteral("...");
            item = new NodeItem(static_cast<int>(i), NodeItem::Kind::Block, rect,
                                QStringList{title} + QString::fromStdString(b.summary).split(QLatin1Char('\n')), QColor(0xe8, 0xe8, 0xf0),
                                QColor(0x70, 0x70, 0xa0), false);
            item->block = block;
            item->setToolTip(QStringLiteral("%1\n%2\nnodes %3 … %4\nDouble-click to open")
                                 .arg(QString::fromStdString(b.title), QString::fromStdString(b.summary),
                                      QString::fromStdString(g.nodes[static_cast<std::size_t>(b.first)].name),
                                      QString::fromStdString(g.nodes[static_cast<std::size_t>(b.last)].name)));
            m_itemOfBlock[static_cast<std::size_t>(block)] = static_cast<int>(i);
        } else if (box.stub) {
            QString label;
            if (!box.merged.empty())
                label = QStringLiteral("%1 inputs").arg(box.merged.size());
            else if (box.node >= 0)
                label = QString::fromStdString(g.nodes[static_cast<std::size_t>(box.node)].name);
            else
                label = stubLabelOfBlock(box.id);
            item = new NodeItem(static_cast<int>(i), NodeItem::Kind::Stub, rect, {label}, color(stub.fill), color(stub.border),
                                stub.shape == "ellipse");
            item->node = box.node;
            if (box.node >= 0)
                item->setToolTip(QStringLiteral("%1 (drawn here, next to its far user)").arg(label));
        } else if (box.node >= 0) {
            const graph::Node& n = g.nodes[static_cast<std::size_t>(box.node)];
            const render::NodeStyle style = render::nodeStyle(render::classifyNode(n));
            QStringList lines{QString::fromStdString(n.name)};
            const auto collective = collectives.find(box.node);
            if (const std::string op = render::opLine(g, n); !op.empty())  // a collective: marked as one in its label
                lines << (collective != collectives.end() ? QStringLiteral("⇄ ") : QString()) + QString::fromStdString(op);
            if (n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
                lines << QString::fromStdString(graph::formatAnnotation(*n.meta));
            item = new NodeItem(static_cast<int>(i), NodeItem::Kind::Node, rect, lines, color(style.fill), color(style.border),
                                style.shape == "ellipse" || style.shape == "oval");
            item->node = box.node;
            QString tip = lines.join(QLatin1Char('\n'));
            if (collective != collectives.end())
                tip += QStringLiteral("\ncollective (with the other ranks): ") + collective->second;
            if (n.stack >= 0 && static_cast<std::size_t>(n.stack) < g.stacks.size()) {
                const graph::StackFrame& f = g.stacks[static_cast<std::size_t>(n.stack)];
                tip += QStringLiteral("\n") + QString::fromStdString(f.file.empty() ? f.raw : f.file + ":" + std::to_string(f.line));
                if (!f.code.empty())
                    tip += QStringLiteral("\n") + QString::fromStdString(f.code);
            }
            item->setToolTip(tip);
            m_itemOfNode[static_cast<std::size_t>(box.node)] = static_cast<int>(i);
        } else {
            item = new NodeItem(static_cast<int>(i), NodeItem::Kind::Node, rect, {QString::fromStdString(box.id)},
                                Qt::white, Qt::gray, false);
        }
        addItem(item);
        m_items.push_back(item);
        byId.emplace(box.id, static_cast<int>(i));
    }
    m_edges.reserve(layout.edges.size());
    for (const render::Layout::EdgePath& e : layout.edges) {
        if (e.points.empty())
            continue;
        QPainterPath path(QPointF(e.points[0].x, e.points[0].y));
        for (std::size_t k = 1; k + 2 < e.points.size(); k += 3)
            path.cubicTo(QPointF(e.points[k].x, e.points[k].y), QPointF(e.points[k + 1].x, e.points[k + 1].y),
                         QPointF(e.points[k + 2].x, e.points[k + 2].y));
        QPolygonF arrow;
        if (e.arrowTip)
            arrow = arrowHead(path.currentPosition(), QPointF(e.arrowTip->x, e.arrowTip->y));
        const auto from = byId.find(e.from);
        const auto to = byId.find(e.to);
        const bool dashed = from != byId.end() && m_items[static_cast<std::size_t>(from->second)]->kind() == NodeItem::Kind::Stub;
        auto* edge = new EdgeItem(path, arrow, dashed);
        const int index = static_cast<int>(m_edges.size());
        if (from != byId.end()) {
            edge->from = from->second;
            m_items[static_cast<std::size_t>(from->second)]->edges.push_back(index);
        }
        if (to != byId.end()) {
            edge->to = to->second;
            m_items[static_cast<std::size_t>(to->second)]->edges.push_back(index);
        }
        addItem(edge);
        m_edges.push_back(edge);
    }
    setSceneRect(QRectF(-20, -20, layout.width + 40, layout.height + 40));
    setMarks(m_marks);
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

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    for (QGraphicsItem* it : items(event->scenePos())) {
        if (auto* item = qgraphicsitem_cast<NodeItem*>(it); item && item->block >= 0) {
            Q_EMIT blockActivated(item->block);
            return;
        }
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
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
