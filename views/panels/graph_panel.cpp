#include "views/panels/graph_panel.h"

#include "replay/api/replay_types.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fxray::views {

std::vector<NodeMark> marksFromReport(const replay::ReplayReport* report, std::size_t nodes)
{
    std::vector<NodeMark> marks(nodes, NodeMark::None);
    if (!report)
        return marks;
    for (std::size_t i = 0; i < nodes && i < report->nodes.size(); ++i) {
        const replay::NodeResult& r = report->nodes[i];
        NodeMark m = NodeMark::None;
        switch (r.status) {
        case replay::NodeStatus::Passed: m = NodeMark::Passed; break;
        case replay::NodeStatus::Mismatch: m = NodeMark::Mismatch; break;
        case replay::NodeStatus::Error: m = NodeMark::Error; break;
        case replay::NodeStatus::Unsupported: m = NodeMark::Unsupported; break;
        case replay::NodeStatus::Skipped:
        case replay::NodeStatus::NotRun: m = NodeMark::NotRun; break;
        }
        if (r.nanOrigin)
            m = NodeMark::NanOrigin;
        // A node that ran fine but keeps the graph from being captured still needs the user's eye.
        if ((m == NodeMark::Passed || m == NodeMark::NotRun || m == NodeMark::None) && report->cudaGraph &&
            report->cudaGraph->blocks(r.name))
            m = NodeMark::CudaGraphBlocker;
        marks[i] = m;
    }
    return marks;
}

GraphPanel::GraphPanel(QWidget* parent)
    : QWidget(parent)
    , m_layoutProgram(locateLayoutProgram())
    , m_breadcrumb(new QLabel(this))  // declared (so made) before the scene and the tool bar
    , m_scene(new GraphScene(this))
    , m_view(new GraphView(this))
    , m_search(new QLineEdit(this))
    , m_searchCount(new QLabel(this))
    , m_byStatus(new QCheckBox(tr("By status"), this))
    , m_expandAll(new QToolButton(this))
    , m_collapseAll(new QToolButton(this))
    , m_status(new QLabel(this))
{
    m_view->setScene(m_scene);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_search->setPlaceholderText(tr("Find node or op (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    const auto button = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        bar->addWidget(b);
        return b;
    };
    button(tr("Fit"), tr("Fit the whole graph (0)"), [this] { m_view->fitAll(); });
    button(tr("+"), tr("Zoom in (+, wheel)"), [this] { m_view->zoomBy(1.25); });
    button(tr("−"), tr("Zoom out (-, wheel)"), [this] { m_view->zoomBy(0.8); });
    bar->addSpacing(8);
    bar->addWidget(m_search);
    button(tr("◀"), tr("Previous match (Shift+F3)"), [this] { findPrevious(); });
    button(tr("▶"), tr("Next match (F3, Enter)"), [this] { findNext(); });
    bar->addWidget(m_searchCount);
    bar->addSpacing(8);
    bar->addWidget(m_byStatus);
    m_expandAll->setText(tr("Expand all"));
    m_expandAll->setToolTip(tr("Lay out every node (thousands of nodes take a while; it runs in the background)"));
    m_collapseAll->setText(tr("Collapse"));
    m_collapseAll->setToolTip(tr("Draw the graph as blocks of model statements again"));
    for (QToolButton* b : {m_expandAll, m_collapseAll}) {
        b->setAutoRaise(true);
        b->setVisible(false);
        bar->addWidget(b);
    }
    connect(m_expandAll, &QToolButton::clicked, this, &GraphPanel::expandAll);
    connect(m_collapseAll, &QToolButton::clicked, this, &GraphPanel::collapseAll);
    bar->addStretch(1);
    m_search->setMinimumWidth(100);
    m_byStatus->setToolTip(tr("Colour nodes by replay status (mismatch, error, NaN origin, unsupported, passed) instead of op category"));
    m_status->setObjectName(QStringLiteral("graphStatus"));
    // Long status and path lines must not set the panel's minimum width: that squeezed the code panel beside the
    // graph to ~25 characters. They are clipped instead (the status's whole text is also its tooltip).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_breadcrumb->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(bar);
    m_breadcrumb->setObjectName(QStringLiteral("graphBreadcrumb"));
    m_breadcrumb->setTextFormat(Qt::RichText);
    m_breadcrumb->setVisible(false);
    m_breadcrumb->setToolTip(tr("Module path of the selection; click a scope to show it as one box again"));
    connect(m_breadcrumb, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QStringLiteral("scope:")))
            closeScope(link.mid(6).toInt());
    });
    layout->addWidget(m_breadcrumb);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(m_search, &QLineEdit::textChanged, this, &GraphPanel::setSearchText);
    connect(m_search, &QLineEdit::returnPressed, this, &GraphPanel::findNext);
    auto* find = new QShortcut(QKeySequence::Find, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    find->setContext(Qt::WidgetWithChildrenShortcut);
    new QShortcut(QKeySequence::FindNext, this, [this] { findNext(); }, Qt::WidgetWithChildrenShortcut);
    new QShortcut(QKeySequence::FindPrevious, this, [this] { findPrevious(); }, Qt::WidgetWithChildrenShortcut);
    connect(m_byStatus, &QCheckBox::toggled, m_scene, &GraphScene::setColourByStatus);
    connect(m_scene, &GraphScene::nodeSelected, this, [this](int node) {
        m_selected = node;
        Q_EMIT nodeSelected(node);
    });
    connect(m_scene, &GraphScene::blockActivated, this, &GraphPanel::expandBlock);
    connect(m_scene, &GraphScene::built, this, &GraphPanel::onSceneBuilt);
    connect(m_scene, &GraphScene::clusterSelected, this, [this](int cluster) {
        if (const render::Cluster* c = clusterOf(cluster))
            setFocusScope(c->scope >= 0 ? c->scope : m_tree->folds[static_cast<std::size_t>(c->fold)].parent);
    });
    connect(m_scene, &GraphScene::clusterActivated, this, &GraphPanel::closeCluster);
    connect(m_scene, &GraphScene::blockSelected, this, [this](int block) {
        if (m_tree && m_grouping && block >= 0 && static_cast<std::size_t>(block) < m_grouping->blocks.size())
            setFocusScope(m_grouping->blocks[static_cast<std::size_t>(block)].scope);
    });
    updateStatus();
}

GraphPanel::~GraphPanel()
{
    m_jobs->discard(m_layoutJob);  // its fxray-layout child is killed at once; nothing waits for it
}

void GraphPanel::clear(const QString& message)
{
    m_jobs->discard(m_layoutJob);
    m_layoutJob = 0;
    m_running = false;
    m_graph.reset();
    m_grouping.reset();
    m_tree.reset();
    m_treePending = false;
    m_firstDrawing = true;
    m_focusScope = 0;
    m_scene->clearDrawing();
    updateBreadcrumb();
    m_selected = -1;
    m_hits.clear();
    m_error = message;
    updateStatus();
}

void GraphPanel::setGraph(std::shared_ptr<const io::LoadedGraph> graph)
{
    if (graph && graph == m_graph)
        return;
    clear();
    m_graph = std::move(graph);
    m_report.reset();
    m_marks.clear();
    if (!m_graph)
        return;
    const std::size_t count = m_graph->graph.nodes.size();
    m_refit = true;
    // The scope tree (a second of work for 100k nodes), its first view and the statement blocks are made in the
    // layout job, off the GUI thread; the tree is known when the first drawing arrives.
    DrawingRequest request;
    request.scopes = count > kScopesAboveNodes && m_graph->modules.hasModules();
    request.groupBlocks = count > kGroupAboveNodes;
    request.maxScopeBoxes = kMaxScopeBoxes;
    m_treePending = request.scopes;
    if (!m_treePending)
        Q_EMIT scopeTreeChanged();
    requestLayout(std::move(request));
    applySearch(false);
}

void GraphPanel::requestLayout()
{
    DrawingRequest request;
    request.grouping = m_grouping;
    request.expanded = m_expanded;
    requestLayout(std::move(request));
}

void GraphPanel::requestLayout(DrawingRequest request)
{
    if (!m_graph)
        return;
    request.loaded = m_graph;
    request.layoutProgram = m_layoutProgram;
    m_running = true;
    m_error.clear();
    updateStatus();
    // A newer request supersedes the older one in the job tracker: the older one's cancel flag is set (its child
    // process is killed at once) and its result dropped.
    m_layoutJob = m_jobs->run(this, QStringLiteral("layout"), [request](const JobContext& job) {
        GraphDrawing d = computeDrawing(request, &job.cancelToken()->cancelled);
        d.cancelled = d.cancelled || job.cancelled();
        return d;
    }, [this](GraphDrawing result) { onLayoutDone(std::move(result)); });
}

void GraphPanel::onLayoutDone(GraphDrawing result)
{
    m_layoutJob = 0;
    m_running = false;
    if (result.cancelled || result.loaded != m_graph) {
        updateStatus();
        return;
    }
    if (m_treePending) {
        // The graph's first drawing: whether it has a scope tree is known from here on.
        m_treePending = false;
        m_tree = result.tree;
        if (m_tree)
            m_scopeView = result.view;
        Q_EMIT scopeTreeChanged();
        updateBreadcrumb();
    }
    // What is drawn from here on (kept on a failed layout, which leaves the old drawing on screen, unless none was).
    if (result.error.isEmpty() || !m_grouping) {
        m_grouping = result.grouping;
        m_expanded = result.expanded;
    }
    m_builtFirst = m_firstDrawing;
    m_firstDrawing = false;
    if (!result.error.isEmpty()) {
        m_error = result.error;
        updateStatus();
        Q_EMIT layoutFailed(result.error);
        return;
    }
    m_keepCenter = m_view->mapToScene(m_view->viewport()->rect().center());
    m_scene->setMarks(m_marks);
    m_scene->setSearchHits(m_hits);
    // Its items are made at once for small drawings (built() comes before setDrawing returns), else in slices.
    m_scene->setDrawing(std::make_shared<const GraphDrawing>(std::move(result)));
    updateStatus();
}

void GraphPanel::onSceneBuilt()
{
    if (m_refit) {
        m_view->fitAll();
        m_refit = false;
    } else {
        m_view->centerOn(m_keepCenter);
        m_view->overview()->refit();
    }
    const int select = m_pendingSelect >= 0 ? m_pendingSelect : m_selected;
    m_pendingSelect = -1;
    if (m_builtFirst && select >= 0 && m_grouping && static_cast<std::size_t>(select) < m_grouping->blockOf.size() &&
        m_grouping->blockOf[static_cast<std::size_t>(select)] >= 0) {
        // Selected before the graph's blocks were known: now its block can be opened (another layout).
        updateStatus();
        Q_EMIT drawingReady();
        selectNode(select);
        return;
    }
    if (select >= 0) {
        m_scene->selectNode(select);
        if (m_scene->itemForNode(select))
            m_view->centerOnItem(m_scene->itemForNode(select));
    } else if (m_pendingCenter >= 0 && m_scene->itemForNode(m_pendingCenter)) {
        m_view->centerOnItem(m_scene->itemForNode(m_pendingCenter));
    }
    m_pendingCenter = -1;
    updateStatus();
    Q_EMIT drawingReady();
}

void GraphPanel::selectNode(int node)
{
    m_selected = node;
    if (!m_graph || node < 0 || static_cast<std::size_t>(node) >= m_graph->graph.nodes.size()) {
        m_scene->selectNode(-1);
        return;
    }
    if (m_tree) {
        setFocusScope(m_tree->scopeOf[static_cast<std::size_t>(node)]);
        if (m_grouping && m_grouping->blockOf[static_cast<std::size_t>(node)] >= 0) {
            render::openPathTo(*m_tree, m_scopeView, node);
            m_pendingSelect = node;
            applyScopeView(-1);
            return;
        }
    } else if (m_grouping) {
        const int block = m_grouping->blockOf[static_cast<std::size_t>(node)];
        if (!m_expanded[static_cast<std::size_t>(block)]) {
            m_expanded[static_cast<std::size_t>(block)] = true;
            m_pendingSelect = node;
            requestLayout();
            return;
        }
    }
    if (m_running || m_scene->isBuilding()) {
        m_pendingSelect = node;  // the layout on its way (or the items being made) will select it
        return;
    }
    m_scene->selectNode(node);
    if (NodeItem* item = m_scene->itemForNode(node))
        m_view->centerOnItem(item);
}

void GraphPanel::setReport(std::shared_ptr<const replay::ReplayReport> report)
{
    m_report = std::move(report);
    m_marks = marksFromReport(m_report.get(), m_graph ? m_graph->graph.nodes.size() : 0);
    m_scene->setMarks(m_marks);
    // A failing replay, or nodes that keep the graph from being captured as a CUDA graph: show where.
    const bool blocked = std::find(m_marks.begin(), m_marks.end(), NodeMark::CudaGraphBlocker) != m_marks.end();
    if (m_report && !m_byStatus->isChecked() && (!m_report->passed() || blocked))
        m_byStatus->setChecked(true);
    updateStatus();
}

void GraphPanel::expandBlock(int block)
{
    if (m_tree && m_grouping && block >= 0 && static_cast<std::size_t>(block) < m_grouping->blocks.size()) {
        const render::Block& b = m_grouping->blocks[static_cast<std::size_t>(block)];
        if (b.restCount > 0)
            render::showMoreOf(*m_tree, m_scopeView, b);
        else if (b.fold >= 0)
            render::openFold(*m_tree, m_scopeView, b.fold);
        else if (b.direct)
            m_scopeView.directOpen[static_cast<std::size_t>(b.scope)] = 1;
        else if (b.scope >= 0)
            m_scopeView.scopeOpen[static_cast<std::size_t>(b.scope)] = 1;
        setFocusScope(b.fold >= 0 ? m_tree->folds[static_cast<std::size_t>(b.fold)].parent
                      : b.restCount > 0 ? m_tree->scopes[static_cast<std::size_t>(b.scope)].parent
                                        : b.scope);
        applyScopeView(b.nodes.empty() ? -1 : b.nodes.front());
        return;
    }
    if (!m_grouping || block < 0 || static_cast<std::size_t>(block) >= m_expanded.size() || m_expanded[static_cast<std::size_t>(block)])
        return;
    m_expanded[static_cast<std::size_t>(block)] = true;
    m_pendingSelect = m_grouping->blocks[static_cast<std::size_t>(block)].first;
    requestLayout();
}

void GraphPanel::applyScopeView(int centerNode)
{
    if (!m_tree || !m_graph)
        return;
    // What the view draws (render::groupingForView) is worked out in the layout job.
    DrawingRequest request;
    request.tree = m_tree;
    request.view = m_scopeView;
    m_pendingCenter = centerNode;
    requestLayout(std::move(request));
    updateBreadcrumb();
}

void GraphPanel::revealScope(int scope)
{
    if (!m_tree || scope < 0 || static_cast<std::size_t>(scope) >= m_tree->scopes.size())
        return;
    render::revealScope(*m_tree, m_scopeView, scope);
    setFocusScope(scope);
    applyScopeView(m_tree->scopes[static_cast<std::size_t>(scope)].nodes.front());
}

void GraphPanel::openScope(int scope)
{
    if (!m_tree || scope < 0 || static_cast<std::size_t>(scope) >= m_tree->scopes.size())
        return;
    render::revealScope(*m_tree, m_scopeView, scope);
    m_scopeView.scopeOpen[static_cast<std::size_t>(scope)] = 1;
    setFocusScope(scope);
    applyScopeView(m_tree->scopes[static_cast<std::size_t>(scope)].nodes.front());
}

void GraphPanel::closeScope(int scope)
{
    if (!m_tree || scope < 0 || static_cast<std::size_t>(scope) >= m_tree->scopes.size())
        return;
    if (scope == 0) {
        m_scopeView = render::initialView(*m_tree, kMaxScopeBoxes);
        m_refit = true;
    } else {
        render::closeScope(*m_tree, m_scopeView, scope);
        render::revealScope(*m_tree, m_scopeView, scope);
    }
    m_selected = -1;
    m_scene->selectNode(-1);
    setFocusScope(scope);
    applyScopeView(m_tree->scopes[static_cast<std::size_t>(scope)].nodes.front());
}

const render::Cluster* GraphPanel::clusterOf(int cluster) const
{
    if (!m_tree || !m_grouping || cluster < 0 || static_cast<std::size_t>(cluster) >= m_grouping->clusters.size())
        return nullptr;
    return &m_grouping->clusters[static_cast<std::size_t>(cluster)];
}

void GraphPanel::closeCluster(int cluster)
{
    const render::Cluster* c = clusterOf(cluster);
    if (!c)
        return;
    if (c->scope >= 0) {
        closeScope(c->scope);
        return;
    }
    const render::Fold& fold = m_tree->folds[static_cast<std::size_t>(c->fold)];
    render::closeFold(*m_tree, m_scopeView, c->fold);
    m_selected = -1;
    m_scene->selectNode(-1);
    setFocusScope(fold.parent);
    applyScopeView(fold.nodes.empty() ? -1 : fold.nodes.front());
}

void GraphPanel::setFocusScope(int scope)
{
    if (!m_tree || scope < 0 || static_cast<std::size_t>(scope) >= m_tree->scopes.size() || scope == m_focusScope) {
        updateBreadcrumb();
        return;
    }
    m_focusScope = scope;
    updateBreadcrumb();
    Q_EMIT focusScopeChanged(scope);
}

QString GraphPanel::breadcrumbText() const
{
    return m_breadcrumb->text();
}

void GraphPanel::updateBreadcrumb()
{
    m_breadcrumb->setVisible(m_tree != nullptr);
    if (!m_tree) {
        m_breadcrumb->clear();
        return;
    }
    QStringList parts;
    for (int s : m_tree->ancestry(m_focusScope)) {
        const render::Scope& scope = m_tree->scopes[static_cast<std::size_t>(s)];
        QString name = QString::fromStdString(s == 0 ? scope.name : scope.name).toHtmlEscaped();
        if (scope.fold >= 0)
            name += QStringLiteral(" <span style='color:gray'>(%1)</span>")
                        .arg(QString::fromStdString(m_tree->folds[static_cast<std::size_t>(scope.fold)].title).toHtmlEscaped());
        parts << QStringLiteral("<a href='scope:%1' style='text-decoration:none'>%2</a>").arg(s).arg(name);
    }
    const render::Scope& focus = m_tree->scopes[static_cast<std::size_t>(m_focusScope)];
    m_breadcrumb->setText(parts.join(QStringLiteral(" › ")) +
                          QStringLiteral(" <span style='color:gray'>· %1 nodes%2</span>")
                              .arg(focus.nodes.size())
                              .arg(focus.type.empty() ? QString() : QStringLiteral(" · ") + QString::fromStdString(focus.type).toHtmlEscaped()));
}

void GraphPanel::collapseAll()
{
    if (m_tree) {
        closeScope(0);
        return;
    }
    if (!m_grouping)
        return;
    std::fill(m_expanded.begin(), m_expanded.end(), false);
    m_refit = true;
    requestLayout();
}

void GraphPanel::expandAll()
{
    if (m_tree) {
        render::openEverything(m_scopeView);
        m_refit = true;
        applyScopeView(-1);
        return;
    }
    if (!m_grouping)
        return;
    std::fill(m_expanded.begin(), m_expanded.end(), true);
    m_refit = true;
    requestLayout();
}

void GraphPanel::setSearchText(const QString& text)
{
    if (m_search->text() != text)
        m_search->setText(text);  // comes back here through textChanged
    else
        applySearch(false);
}

void GraphPanel::applySearch(bool select)
{
    m_hits.clear();
    m_hitIndex = -1;
    const QString text = m_search->text().trimmed();
    if (m_graph && !text.isEmpty()) {
        const std::string needle = text.toLower().toStdString();
        const auto contains = [&needle](std::string hay) {
            std::transform(hay.begin(), hay.end(), hay.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return hay.find(needle) != std::string::npos;
        };
        const auto& nodes = m_graph->graph.nodes;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (contains(nodes[i].name) || (nodes[i].kind == graph::NodeKind::CallFunction && contains(nodes[i].target.str())))
                m_hits.push_back(static_cast<int>(i));
    }
    m_scene->setSearchHits(m_hits);
    m_searchCount->setText(text.isEmpty() ? QString() : tr("%1 found").arg(m_hits.size()));
    if (select && !m_hits.empty())
        findNext();
}

void GraphPanel::findNext()
{
    stepSearch(+1);
}

void GraphPanel::findPrevious()
{
    stepSearch(-1);
}

void GraphPanel::stepSearch(int step)
{
    if (m_hits.empty())
        return;
    const int count = static_cast<int>(m_hits.size());
    m_hitIndex = m_hitIndex < 0 && step < 0 ? count - 1 : ((m_hitIndex + step) % count + count) % count;
    m_searchCount->setText(tr("%1/%2").arg(m_hitIndex + 1).arg(count));
    const int node = m_hits[static_cast<std::size_t>(m_hitIndex)];
    selectNode(node);
    Q_EMIT nodeSelected(node);
}

bool GraphPanel::isLayingOut() const
{
    return m_running || m_scene->isBuilding();
}

QString GraphPanel::statusText() const
{
    return m_status->text();
}

void GraphPanel::updateStatus()
{
    const bool grouped = m_grouping != nullptr;
    m_expandAll->setVisible(grouped);
    m_collapseAll->setVisible(grouped);
    if (!m_error.isEmpty()) {
        m_status->setText(tr("No drawing: %1").arg(m_error.section(QLatin1Char('\n'), 0, 0)));
        m_status->setToolTip(m_error);
        return;
    }
    m_status->setToolTip({});
    if (!m_graph) {
        m_status->clear();
        return;
    }
    if (m_running) {
        m_status->setText(m_treePending ? tr("finding the module scopes of %1 nodes and laying them out …").arg(m_graph->graph.nodes.size())
                                        : tr("laying out %1 nodes …").arg(m_graph->graph.nodes.size()));
        return;
    }
    const auto& d = m_scene->drawing();
    if (!d) {
        m_status->clear();
        return;
    }
    QString text = tr("%1 nodes").arg(m_graph->graph.nodes.size());
    if (m_tree)
        text += tr(" · module hierarchy from %1 · %2 boxes (double-click one to open it, an open one's title to close it)")
                    .arg(QString::fromStdString(m_graph->modules.describe()))
                    .arg(d->collapsedBlocks());
    else if (grouped)
        text += tr(" · %1 of %2 blocks collapsed (double-click one to expand)").arg(d->collapsedBlocks()).arg(m_grouping->blocks.size());
    if (d->clustersDropped)
        text += tr(" · open scopes drawn without their boxes (Graphviz failed on them)");
    text += tr(" · layout %1 s").arg(d->totalSeconds, 0, 'f', 2);
    m_status->setText(text);
    m_status->setToolTip(text);
}

}  // namespace fxray::views
