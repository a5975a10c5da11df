#include "views/panels/inspector_panel.h"

#include "graph/algorithms.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"
#include "render/node_category.h"
#include "replay/api/replay_types.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace fxray::views {

namespace {

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString nodeLink(const graph::Graph& g, int node)
{
    if (node < 0 || static_cast<std::size_t>(node) >= g.nodes.size())
        return QStringLiteral("&lt;bad node %1&gt;").arg(node);
    return QStringLiteral("<a href=\"node:%1\">%2</a>").arg(node).arg(esc(g.nodes[static_cast<std::size_t>(node)].name));
}

// An argument as FX prints it, with node references as links.
QString argHtml(const graph::Graph& g, const graph::Arg& a)
{
    using K = graph::Arg::Kind;
    switch (a.kind) {
    case K::Node: return nodeLink(g, a.node);
    case K::List:
    case K::Tuple:
    case K::Slice: {
        QStringList items;
        for (const graph::Arg& item : a.items)
            items << argHtml(g, item);
        if (a.kind == K::Slice)
            return QStringLiteral("slice(%1)").arg(items.join(QStringLiteral(", ")));
        if (a.kind == K::List)
            return QStringLiteral("[%1]").arg(items.join(QStringLiteral(", ")));
        return QStringLiteral("(%1%2)").arg(items.join(QStringLiteral(", ")), items.size() == 1 ? QStringLiteral(",") : QString());
    }
    default: return esc(graph::formatArg(g, a));
    }
}

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    return QString::number(v, 'g', 6);
}

}  // namespace

InspectorPanel::InspectorPanel(QWidget* parent)
    : QWidget(parent)
    , m_browser(new QTextBrowser(this))
{
    m_browser->setObjectName(QStringLiteral("inspectorText"));
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QStringLiteral("node"))
            Q_EMIT nodeActivated(url.path().toInt());
    });
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy the node's details as text"));
    connect(copy, &QPushButton::clicked, this, &InspectorPanel::copyDetails);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(copy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_browser, 1);
    layout->addLayout(bar);
    render();
}

void InspectorPanel::setGraph(std::shared_ptr<const io::LoadedGraph> graph)
{
    if (graph == m_graph)
        return;
    m_graph = std::move(graph);
    m_report.reset();
    m_node = -1;
    render();
}

void InspectorPanel::setReport(std::shared_ptr<const replay::ReplayReport> report)
{
    m_report = std::move(report);
    render();
}

void InspectorPanel::showNode(int node)
{
    m_node = node;
    render();
}

QString InspectorPanel::detailsText() const
{
    return m_browser->toPlainText();
}

QString InspectorPanel::detailsHtml() const
{
    return m_browser->toHtml();
}

void InspectorPanel::copyDetails() const
{
    QApplication::clipboard()->setText(detailsText());
}

void InspectorPanel::render()
{
    if (!m_graph || m_node < 0 || static_cast<std::size_t>(m_node) >= m_graph->graph.nodes.size()) {
        m_browser->setHtml(tr("<p><i>Select a node in the graph, the code or the replay results.</i></p>"));
        return;
    }
    const graph::Graph& g = m_graph->graph;
    const graph::Node& n = g.nodes[static_cast<std::size_t>(m_node)];
    const replay::NodeResult* result =
        m_report && static_cast<std::size_t>(m_node) < m_report->nodes.size() ? &m_report->nodes[static_cast<std::size_t>(m_node)] : nullptr;
    QString h;
    h += QStringLiteral("<h3>%1 <small>(%2, %3)</small></h3>")
             .arg(esc(n.name), QString::fromUtf8(graph::nodeKindName(n.kind).data()),
                  QString::fromUtf8(render::nodeCategoryName(render::classifyNode(n)).data()));
    h += QStringLiteral("<table cellspacing=2>");
    const auto row = [&h](const QString& key, const QString& value) {
        h += QStringLiteral("<tr><td valign=top><b>%1</b></td><td>%2</td></tr>").arg(key, value);
    };
    if (n.kind == graph::NodeKind::CallFunction || n.kind == graph::NodeKind::CallMethod)
        row(tr("op"), QStringLiteral("<code>%1</code>").arg(esc(n.target.str())));
    if (n.kind == graph::NodeKind::Placeholder || n.kind == graph::NodeKind::GetAttr)
        row(n.kind == graph::NodeKind::Placeholder ? tr("argument") : tr("attribute"), esc(n.attr));
    if (result && !result->schema.empty())
        row(tr("schema"), QStringLiteral("<code>%1</code>").arg(esc(result->schema)));
    else if (n.isOp())
        row(tr("schema"), tr("<i>known after a replay (the worker asks LibTorch's dispatcher)</i>"));
    if (!n.comment.empty())
        row(tr("comment"), esc(n.comment));
    if (!n.args.empty()) {
        QStringList args;
        for (std::size_t k = 0; k < n.args.size(); ++k)
            args << QStringLiteral("%1: %2").arg(k).arg(argHtml(g, n.args[k]));
        row(tr("args"), args.join(QStringLiteral("<br>")));
    }
    if (!n.kwargs.empty()) {
        QStringList kwargs;
        for (const auto& [key, value] : n.kwargs)
            kwargs << QStringLiteral("%1=%2").arg(esc(key), argHtml(g, value));
        row(tr("kwargs"), kwargs.join(QStringLiteral("<br>")));
    }
    {
        QStringList users;
        // One node's users by a scan of the graph (a few ms for 100k nodes), not every node's users made on each
        // graph change (0.2 s of the GUI thread there).
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            bool reads = false;
            graph::forEachNodeRef(g.nodes[i], [&](int ref) { reads = reads || ref == m_node; });
            if (reads)
                users << nodeLink(g, static_cast<int>(i));
        }
        row(tr("users"), users.isEmpty() ? tr("<i>none</i>") : users.join(QStringLiteral(", ")));
    }
    if (n.stack >= 0 && static_cast<std::size_t>(n.stack) < g.stacks.size()) {
        const graph::StackFrame& f = g.stacks[static_cast<std::size_t>(n.stack)];
        QString where = f.file.empty() ? esc(f.raw) : esc(f.file + ":" + std::to_string(f.line) + (f.function.empty() ? "" : " in " + f.function));
        if (!f.code.empty())
            where += QStringLiteral("<br><code>%1</code>").arg(esc(f.code));
        row(tr("model source"), where);
    }
    if (n.line > 0)
        row(tr("dump line"), esc(g.sourceFile + ":" + std::to_string(n.line)));
    h += QStringLiteral("</table>");

    // Recorded vs replayed, output by output.
    h += tr("<h4>Metadata</h4><table border=1 cellspacing=0 cellpadding=3><tr><th>output</th><th>recorded</th><th>replayed</th></tr>");
    const std::string recorded = n.meta ? graph::formatAnnotation(*n.meta) : std::string("—");
    const std::size_t outputs = result ? std::max<std::size_t>(1, result->outputs.size()) : 1;
    for (std::size_t o = 0; o < outputs; ++o) {
        QString actual = result && o < result->outputs.size() ? esc(result->outputs[o].meta) : (result ? QStringLiteral("—") : tr("<i>not replayed</i>"));
        QString marks;
        if (result)
            for (const replay::Mismatch& m : result->mismatches)
                if (static_cast<std::size_t>(m.output) == o)
                    marks += QStringLiteral("<br><span style=\"color:#d02020\"><b>%1</b>: expected %2, got %3</span>")
                                 .arg(QString::fromUtf8(replay::mismatchKindName(m.kind).data()), esc(m.expected), esc(m.actual));
        h += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td><code>%3</code>%4</td></tr>")
                 .arg(o)
                 .arg(o == 0 ? esc(recorded) : QString())
                 .arg(actual, marks);
    }
    h += QStringLiteral("</table>");

    if (result) {
        h += tr("<h4>Replay</h4><table cellspacing=2>");
        QString status = QString::fromUtf8(replay::nodeStatusName(result->status).data());
        if (result->nanOrigin)
            status += tr(" — <span style=\"color:#9c27b0\"><b>NaN/Inf origin</b></span> (from finite inputs)");
        if (result->nonFiniteConstant)
            status += tr(" — NaN/Inf from a constant or fill (intended, not a failure)");
        row(tr("status"), status);
        row(tr("time"), tr("%1 µs").arg(result->timeUs, 0, 'f', 1));
        if (!result->error.empty())
            row(tr("error"), QStringLiteral("<span style=\"color:#d02020\">%1</span>").arg(esc(result->error).replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
        for (std::size_t o = 0; o < result->outputs.size(); ++o) {
            const replay::OutputStats& s = result->outputs[o];
            if (!s.hasValues)
                continue;
            QString stats = tr("min %1 · max %2 · mean %3 · %4 elements").arg(number(s.min), number(s.max), number(s.mean)).arg(s.numel);
            if (s.nanCount || s.infCount)
                stats += QStringLiteral(" · <span style=\"color:#9c27b0\"><b>NaN %1 · Inf %2</b></span>").arg(s.nanCount).arg(s.infCount);
            row(tr("output %1").arg(o), stats);
        }
        h += QStringLiteral("</table>");
    }
    if (m_report && m_report->cudaGraph) {
        const auto findings = m_report->cudaGraph->findingsAt(n.name);
        if (!findings.empty()) {
            h += tr("<h4>CUDA graph</h4><ul>");
            for (const replay::CudaGraphFinding* f : findings)
                h += QStringLiteral("<li><span style=\"color:%1\"><b>%2</b></span> %3</li>")
                         .arg(f->blocking ? QStringLiteral("#00838f") : QStringLiteral("#606060"),
                              f->blocking ? tr("blocks capture:") : tr("note:"), esc(f->message));
            h += QStringLiteral("</ul>");
        }
    }
    m_browser->setHtml(h);
}

}  // namespace fxray::views
