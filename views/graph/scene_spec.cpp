#include "views/graph/scene_spec.h"

#include "graph/collective_check.h"
#include "graph/tensor_meta.h"
#include "render/dot_writer.h"
#include "render/node_category.h"
#include "views/graph/graph_drawing.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
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

// "group#K@user": a far use of collapsed block K; named by what the block holds ("w_3 … b_9").
QString stubLabelOfBlock(const GraphDrawing& drawing, const std::string& id)
{
    const std::string producer = id.substr(0, id.find('@'));
    const std::string prefix = render::blockNodeName(0).substr(0, render::blockNodeName(0).size() - 1);
    if (drawing.grouping && producer.rfind(prefix, 0) == 0) {
        const std::size_t block = std::strtoul(producer.c_str() + prefix.size(), nullptr, 10);
        if (block < drawing.grouping->blocks.size())
            return QString::fromStdString(drawing.grouping->blocks[block].title);
    }
    return QString::fromStdString(producer);
}

ItemSpec blockSpec(const graph::Graph& g, const render::Block& b, int block)
{
    ItemSpec item;
    item.kind = ItemSpec::Kind::Block;
    QString title = QString::fromStdString(b.title);
    if (title.size() > 48)  // as graph_drawing.cpp cut it for the layout
        title = title.left(45) + QStringLiteral("...");
    item.lines = QStringList{title} + QString::fromStdString(b.summary).split(QLatin1Char('\n'));
    item.fill = QColor(0xe8, 0xe8, 0xf0);
    item.border = QColor(0x70, 0x70, 0xa0);
    item.block = block;
    item.tooltip = QStringLiteral("%1\n%2\nnodes %3 … %4\nDouble-click to open")
                       .arg(QString::fromStdString(b.title), QString::fromStdString(b.summary),
                            QString::fromStdString(g.nodes[static_cast<std::size_t>(b.first)].name),
                            QString::fromStdString(g.nodes[static_cast<std::size_t>(b.last)].name));
    return item;
}

ItemSpec nodeSpec(const graph::Graph& g, int node, const std::unordered_map<int, QString>& collectives)
{
    ItemSpec item;
    const graph::Node& n = g.nodes[static_cast<std::size_t>(node)];
    const render::NodeStyle style = render::nodeStyle(render::classifyNode(n));
    item.lines << QString::fromStdString(n.name);
    const auto collective = collectives.find(node);
    if (const std::string op = render::opLine(g, n); !op.empty())  // a collective: marked as one in its label
        item.lines << (collective != collectives.end() ? QStringLiteral("⇄ ") : QString()) + QString::fromStdString(op);
    if (n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
        item.lines << QString::fromStdString(graph::formatAnnotation(*n.meta));
    item.fill = color(style.fill);
    item.border = color(style.border);
    item.ellipse = style.shape == "ellipse" || style.shape == "oval";
    item.node = node;
    QString tip = item.lines.join(QLatin1Char('\n'));
    if (collective != collectives.end())
        tip += QStringLiteral("\ncollective (with the other ranks): ") + collective->second;
    if (n.stack >= 0 && static_cast<std::size_t>(n.stack) < g.stacks.size()) {
        const graph::StackFrame& f = g.stacks[static_cast<std::size_t>(n.stack)];
        tip += QStringLiteral("\n") + QString::fromStdString(f.file.empty() ? f.raw : f.file + ":" + std::to_string(f.line));
        if (!f.code.empty())
            tip += QStringLiteral("\n") + QString::fromStdString(f.code);
    }
    item.tooltip = tip;
    return item;
}

// The clusters' boxes, coloured by depth as the DOT writer fills them (so an export and the view agree).
std::vector<ClusterSpec> clusterSpecs(const GraphDrawing& drawing)
{
    std::vector<ClusterSpec> out;
    if (!drawing.grouping)
        return out;
    const std::vector<render::Cluster>& clusters = drawing.grouping->clusters;
    static const QColor kFill[] = {QColor(0xfd, 0xfb, 0xf3), QColor(0xf8, 0xf3, 0xe1), QColor(0xf2, 0xea, 0xd0),
                                   QColor(0xeb, 0xe1, 0xc0)};
    for (const render::Layout::ClusterBox& box : drawing.layout.clusters) {
        if (box.cluster < 0 || static_cast<std::size_t>(box.cluster) >= clusters.size())
            continue;
        const render::Cluster& c = clusters[static_cast<std::size_t>(box.cluster)];
        ClusterSpec spec;
        spec.rect = QRectF(box.x, box.y, box.w, box.h);
        spec.label = QString::fromStdString(c.label);
        spec.labelHeight = box.labelHeight;
        spec.depth = c.depth;
        spec.cluster = box.cluster;
        spec.fill = kFill[std::min(c.depth, 3)];
        spec.border = QColor(0xa8, 0x92, 0x5a);
        spec.tooltip = QStringLiteral("%1\nDouble-click the title to close it").arg(spec.label);
        out.push_back(std::move(spec));
    }
    return out;
}

}  // namespace

SceneSpec buildSceneSpec(const GraphDrawing& drawing)
{
    SceneSpec out;
    if (!drawing.loaded)
        return out;
    const graph::Graph& g = drawing.loaded->graph;
    const std::unordered_map<int, QString> collectives = collectiveNotes(g);
    const render::Layout& layout = drawing.layout;
    std::unordered_map<std::string_view, int> byId;
    byId.reserve(layout.nodes.size());
    out.items.reserve(layout.nodes.size());
    const render::NodeStyle stub = render::stubStyle();
    for (std::size_t i = 0; i < layout.nodes.size(); ++i) {
        const render::Layout::NodeBox& box = layout.nodes[i];
        const QRectF rect(box.x - box.w / 2, box.y - box.h / 2, box.w, box.h);
        const int block = i < drawing.boxBlock.size() ? drawing.boxBlock[i] : -1;
        ItemSpec item;
        if (block >= 0) {
            item = blockSpec(g, drawing.grouping->blocks[static_cast<std::size_t>(block)], block);
        } else if (box.stub) {
            QString label;
            if (!box.merged.empty())
                label = QStringLiteral("%1 inputs").arg(box.merged.size());
            else if (box.node >= 0)
                label = QString::fromStdString(g.nodes[static_cast<std::size_t>(box.node)].name);
            else
                label = stubLabelOfBlock(drawing, box.id);
            item.kind = ItemSpec::Kind::Stub;
            item.lines = QStringList{label};
            item.fill = color(stub.fill);
            item.border = color(stub.border);
            item.ellipse = stub.shape == "ellipse";
            item.node = box.node;
            if (box.node >= 0)
                item.tooltip = QStringLiteral("%1 (drawn here, next to its far user)").arg(label);
        } else if (box.node >= 0) {
            item = nodeSpec(g, box.node, collectives);
        } else {
            item.lines = QStringList{QString::fromStdString(box.id)};
            item.fill = Qt::white;
            item.border = Qt::gray;
        }
        item.rect = rect;
        out.items.push_back(std::move(item));
        byId.emplace(box.id, static_cast<int>(i));
    }
    out.clusters = clusterSpecs(drawing);
    out.edges.reserve(layout.edges.size());
    for (const render::Layout::EdgePath& e : layout.edges) {
        if (e.points.empty())
            continue;
        EdgeSpec edge;
        edge.path = QPainterPath(QPointF(e.points[0].x, e.points[0].y));
        for (std::size_t k = 1; k + 2 < e.points.size(); k += 3)
            edge.path.cubicTo(QPointF(e.points[k].x, e.points[k].y), QPointF(e.points[k + 1].x, e.points[k + 1].y),
                              QPointF(e.points[k + 2].x, e.points[k + 2].y));
        if (e.arrowTip)
            edge.arrow = arrowHead(edge.path.currentPosition(), QPointF(e.arrowTip->x, e.arrowTip->y));
        if (const auto from = byId.find(e.from); from != byId.end())
            edge.from = from->second;
        if (const auto to = byId.find(e.to); to != byId.end())
            edge.to = to->second;
        edge.dashed = edge.from >= 0 && out.items[static_cast<std::size_t>(edge.from)].kind == ItemSpec::Kind::Stub;
        out.edges.push_back(std::move(edge));
    }
    out.sceneRect = QRectF(-20, -20, layout.width + 40, layout.height + 40);
    return out;
}

}  // namespace fxray::views
