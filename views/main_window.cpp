#include "views/main_window.h"
#include "views/panels/outline_panel.h"

#include "views/models/dump_browser_model.h"
#include "views/panels/compile_report_panel.h"
#include "views/panels/diff_panel.h"
#include "views/panels/graph_panel.h"
#include "views/panels/graph_text_panel.h"
#include "views/panels/inspector_panel.h"
#include "views/panels/minimize_panel.h"
#include "views/panels/ranks_panel.h"
#include "views/services/job_tracker.h"
#include "views/panels/stages_panel.h"
#include "views/panels/replay_panel.h"

#include "io/compile_stages.h"
#include "render/dot_writer.h"
#include "render/graphviz_renderer.h"
#include "replay/api/report_format.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QSplitter>
#include <QVBoxLayout>
#include <QDockWidget>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeView>

#include <algorithm>

namespace fxray::views {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new DumpBrowserModel(this))
    , m_tree(new QTreeView)
    , m_dumpsDock(new QDockWidget(tr("Dumps"), this))
    , m_minimizeDock(new QDockWidget(tr("Minimize"), this))
    , m_minimizePanel(new MinimizePanel(this))
    , m_textPanel(new GraphTextPanel(this))
    , m_tabs(new QTabWidget(this))
    , m_statusCounts(new QLabel(this))
    , m_graphPanel(new GraphPanel(this))
    , m_graphSplit(new QSplitter(Qt::Horizontal, this))
    , m_inspectorDock(new QDockWidget(tr("Inspector"), this))
    , m_inspector(new InspectorPanel(this))
    , m_replayDock(new QDockWidget(tr("Replay"), this))
    , m_replayPanel(new ReplayPanel(this))
    , m_reportDock(new QDockWidget(tr("Compile report"), this))
    , m_reportPanel(new CompileReportPanel(this))
    , m_banner(new QWidget(this))
    , m_bannerText(new QLabel(this))
{
    setAcceptDrops(true);
    setWindowTitle(QStringLiteral("fxray"));
    setObjectName(QStringLiteral("MainWindow"));
    // The default layout depends on the order in which the docks are added, split and tabified below.
    createDumpsDock();
    createMinimizeDock();
    createCentre();
    createPanelDocks();
    connectPanels();
    createOutlineDock();
    createActions();
    connectDumpTree();

    resize(1500, 940);
    resizeDocks({m_dumpsDock}, {320}, Qt::Horizontal);
    resizeDocks({m_dumpsDock, m_inspectorDock}, {330, 420}, Qt::Vertical);
    resizeDocks({m_replayDock}, {230}, Qt::Vertical);
    restoreSettings();
}

void MainWindow::createDumpsDock()
{
    m_tree->setModel(m_model);
    m_tree->setObjectName(QStringLiteral("dumpTree"));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setTextElideMode(Qt::ElideMiddle);  // long source paths keep both ends

    m_dumpsDock->setObjectName(QStringLiteral("dumpsDock"));
    m_dumpFilter = new QLineEdit(this);
    m_dumpFilter->setObjectName(QStringLiteral("dumpFilter"));
    m_dumpFilter->setPlaceholderText(tr("Filter graphs (name, kind, address)"));
    m_dumpFilter->setClearButtonEnabled(true);
    connect(m_dumpFilter, &QLineEdit::textChanged, this, &MainWindow::applyDumpFilter);
    auto* dumps = new QWidget(this);
    auto* dumpsLayout = new QVBoxLayout(dumps);
    dumpsLayout->setContentsMargins(0, 0, 0, 0);
    dumpsLayout->setSpacing(2);
    dumpsLayout->addWidget(m_dumpFilter);
    dumpsLayout->addWidget(m_tree, 1);
    m_dumpsDock->setWidget(dumps);
    m_dumpsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                             QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dumpsDock);
}

void MainWindow::createMinimizeDock()
{
    m_minimizeDock->setObjectName(QStringLiteral("minimizeDock"));
    m_minimizeDock->setWidget(m_minimizePanel);
    addDockWidget(Qt::RightDockWidgetArea, m_minimizeDock);
    m_minimizeDock->hide();  // shown by "Minimize…" or View > Minimize
    connect(m_minimizePanel, &MinimizePanel::finished, this,
            [this](const QString& dump, const QString& title, int nodes) { openMinimized(dump, title, nodes); });
    connect(m_minimizePanel, &MinimizePanel::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Minimize: %1").arg(message.section(QLatin1Char('\n'), -1)), 8000);
    });
}

// The centre: the error banner above the tabs (the Graph tab, then diff, stages, ranks and minimized tabs).
void MainWindow::createCentre()
{
    m_tabs->setObjectName(QStringLiteral("centralTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_graphPanel->setObjectName(QStringLiteral("graphPanel"));
    m_graphSplit->setObjectName(QStringLiteral("graphSplit"));
    m_graphSplit->addWidget(m_graphPanel);
    m_graphSplit->addWidget(m_textPanel);
    // The graph takes what the window gains; the code keeps its width (at least 80 columns by default, below).
    m_graphSplit->setStretchFactor(0, 1);
    m_graphSplit->setStretchFactor(1, 0);
    m_tabs->addTab(m_graphSplit, tr("Graph"));
    // The graph tab stays; diff tabs close.
    m_tabs->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    m_tabs->tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget* page = m_tabs->widget(index);
        if (page == m_graphSplit)
            return;
        m_tabs->removeTab(index);
        page->deleteLater();
    });
    createErrorBanner();
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_banner);
    centreLayout->addWidget(m_tabs, 1);
    setCentralWidget(centre);
}

// The error banner: what could not be opened, above the tabs; what was open stays open.
void MainWindow::createErrorBanner()
{
    m_banner->setObjectName(QStringLiteral("errorBanner"));
    m_banner->setAutoFillBackground(true);
    QPalette bannerPalette = m_banner->palette();
    bannerPalette.setColor(QPalette::Window, QColor(0xfd, 0xec, 0xea));
    bannerPalette.setColor(QPalette::WindowText, QColor(0x8a, 0x10, 0x10));
    m_banner->setPalette(bannerPalette);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bannerClose = new QPushButton(tr("Dismiss"), m_banner);
    connect(bannerClose, &QPushButton::clicked, m_banner, &QWidget::hide);
    auto* bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 8, 4);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(bannerClose);
    m_banner->hide();
}

// Inspector on the left under the Dumps (tabbed with Minimize); Replay and the Compile report tabbed below.
void MainWindow::createPanelDocks()
{
    m_inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspectorDock->setWidget(m_inspector);
    // Left, under the Dumps: the centre keeps room for the graph and 80+ columns of code side by side.
    addDockWidget(Qt::LeftDockWidgetArea, m_inspectorDock);
    splitDockWidget(m_dumpsDock, m_inspectorDock, Qt::Vertical);
    tabifyDockWidget(m_inspectorDock, m_minimizeDock);
    m_inspectorDock->raise();
    m_replayDock->setObjectName(QStringLiteral("replayDock"));
    m_replayDock->setWidget(m_replayPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_replayDock);
    // The compile report of the open trace log(s), a tab beside Replay; its graph links open graphs here.
    m_reportDock->setObjectName(QStringLiteral("compileReportDock"));
    m_reportDock->setWidget(m_reportPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_reportDock);
    tabifyDockWidget(m_replayDock, m_reportDock);
    m_replayDock->raise();
    connect(m_reportPanel, &CompileReportPanel::ranksRequested, this, [this](const QString& path) { openRanks(path); });
    connect(m_reportPanel, &CompileReportPanel::graphActivated, this, [this](const QString& address) {
        if (!openGraphAddress(address))
            statusBar()->showMessage(tr("%1 is not among the graphs of %2").arg(address, m_model->path()), 8000);
    });
}

// The panels' signals: one node selection for all of them, replay results and failures in the status bar.
void MainWindow::connectPanels()
{
    connect(m_graphPanel, &GraphPanel::nodeSelected, this, &MainWindow::selectNode);
    connect(m_textPanel, &GraphTextPanel::nodeSelected, this, &MainWindow::selectNode);
    connect(m_inspector, &InspectorPanel::nodeActivated, this, &MainWindow::selectNode);
    connect(m_replayPanel, &ReplayPanel::nodeActivated, this, &MainWindow::selectNode);
    connect(m_replayPanel, &ReplayPanel::reportChanged, this, &MainWindow::onReplayReport);
    connect(m_replayPanel, &ReplayPanel::finished, this, [this](const QString& summary) {
        statusBar()->showMessage(tr("Replay: %1").arg(summary));
        if (const auto report = m_replayPanel->report(); report && m_current)
            m_model->setReplayVerdict(QString::fromStdString(m_current->entry.address),
                                      report->fatal.empty() ? QString::fromStdString(report->verdict()) : QStringLiteral("error"));
    });
    connect(m_replayPanel, &ReplayPanel::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Replay failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)), 10000);
    });
    connect(m_graphPanel, &GraphPanel::layoutFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Graph drawing failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)), 10000);
    });
    m_textPanel->showMessage(tr("No graph selected"),
                             tr("Open a dump folder, a TORCH_TRACE log or a TORCH_COMPILE_DEBUG directory "
                                "(File > Open), then pick a graph in the Dumps list."));
    statusBar()->addPermanentWidget(m_statusCounts);
}

// Picking a graph in the Dumps list shows it; the model's loading reports its progress.
void MainWindow::connectDumpTree()
{
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        // Picking a graph shows it, also while a diff tab is in front; the automatic first selection after
        // loading does not take the front away from a diff.
        if (m_tree->hasFocus())
            m_tabs->setCurrentWidget(m_graphSplit);
        showCurrentGraph();
    });
    connect(m_tree, &QAbstractItemView::clicked, this, [this] { m_tabs->setCurrentWidget(m_graphSplit); });
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &MainWindow::showDumpTreeMenu);
    connect(m_model, &DumpBrowserModel::loadingStarted, this, &MainWindow::onLoadingStarted);
    connect(m_model, &DumpBrowserModel::discovered, this, &MainWindow::onDiscovered);
    connect(m_model, &DumpBrowserModel::graphLoaded, this, &MainWindow::onGraphLoaded);
    connect(m_model, &DumpBrowserModel::progress, this, &MainWindow::onProgress);
    connect(m_model, &DumpBrowserModel::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_model, &DumpBrowserModel::loadingFinished, this, &MainWindow::onLoadingFinished);
    // A model reset replaces the selection model's indexes; the tree keeps its selection model object.
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::showCurrentGraph);
}

void MainWindow::createOutlineDock()
{
    m_outline = new OutlinePanel(this);
    m_outlineDock = new QDockWidget(tr("Outline"), this);
    m_outlineDock->setObjectName(QStringLiteral("outlineDock"));
    m_outlineDock->setWidget(m_outline);
    addDockWidget(Qt::LeftDockWidgetArea, m_outlineDock);
    tabifyDockWidget(m_dumpsDock, m_outlineDock);
    m_dumpsDock->raise();
    connect(m_graphPanel, &GraphPanel::scopeTreeChanged, this, [this] {
        const auto graph = m_graphPanel->graph();
        QString why;
        if (graph && !graph->modules.hasModules())
            why = tr("This graph's nodes do not say which module they come from (no node_meta.json beside the dump, no "
                     "parameter names to derive it from).");
        else if (graph && !m_graphPanel->scopeTree())
            why = tr("Small graph (%1 nodes): drawn node by node.").arg(graph->graph.nodes.size());
        m_outline->setTree(m_graphPanel->sharedScopeTree(), why);
        // A large graph with a hierarchy: show the outline rather than the list of dumps.
        if (m_graphPanel->scopeTree() && graph && graph->graph.nodes.size() > kGroupAboveNodes)
            m_outlineDock->raise();
    });
    connect(m_graphPanel, &GraphPanel::focusScopeChanged, m_outline, &OutlinePanel::selectScope);
    connect(m_outline, &OutlinePanel::scopeActivated, m_graphPanel, &GraphPanel::revealScope);
    connect(m_outline, &OutlinePanel::scopeOpened, m_graphPanel, &GraphPanel::openScope);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open F&ile…"), this, &MainWindow::openFileDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction* reload = file->addAction(tr("&Reload"), m_model, &DumpBrowserModel::reload);
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* exportGraph = file->addAction(tr("&Export Graph…"), this, &MainWindow::exportGraphDialog);
    exportGraph->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export Replay &Report…"), this, &MainWindow::exportReportDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* copy = edit->addAction(tr("&Copy Node Details"), m_inspector, &InspectorPanel::copyDetails);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QAction* find = edit->addAction(tr("&Find Node…"), this, [this] {
        m_tabs->setCurrentWidget(m_graphSplit);
        if (auto* search = m_graphPanel->findChild<QLineEdit*>(QStringLiteral("graphSearch"))) {
            search->setFocus();
            search->selectAll();
        }
    });
    find->setShortcut(QKeySequence::Find);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_dumpsDock->toggleViewAction());
    view->addAction(m_outlineDock->toggleViewAction());
    view->addAction(m_inspectorDock->toggleViewAction());
    view->addAction(m_replayDock->toggleViewAction());
    view->addAction(m_minimizeDock->toggleViewAction());
    view->addAction(m_reportDock->toggleViewAction());

    QMenu* replay = menuBar()->addMenu(tr("&Replay"));
    QAction* run = replay->addAction(tr("&Run"), m_replayPanel, &ReplayPanel::start);
    run->setShortcut(QKeySequence(Qt::Key_F5));
    QAction* stop = replay->addAction(tr("&Cancel"), m_replayPanel, &ReplayPanel::cancel);
    stop->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About fxray"), this, [this] {
        QMessageBox::about(this, tr("About fxray"),
                           tr("<b>fxray</b> — look at, replay, minimize and diff torch.compile graphs."));
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::openPath(const QString& path)
{
    m_banner->hide();
    m_model->setPath(path);
}

void MainWindow::setDumpFilter(const QString& text)
{
    m_dumpFilter->setText(text);  // applyDumpFilter through textChanged
}

void MainWindow::applyDumpFilter()
{
    // Rows are hidden in the view rather than filtered through a proxy model: every index the window and the
    // panels pass around stays the browser model's own.
    const QString text = m_dumpFilter->text().trimmed();
    const auto matches = [&](const QModelIndex& graphRow) {
        if (text.isEmpty())
            return true;
        for (int c : {int(DumpBrowserModel::NameColumn), int(DumpBrowserModel::KindColumn), int(DumpBrowserModel::AddressColumn)})
            if (graphRow.siblingAtColumn(c).data().toString().contains(text, Qt::CaseInsensitive))
                return true;
        return false;
    };
    // Returns whether anything under `parent` stays visible.
    const auto walk = [&](auto& self, const QModelIndex& parent) -> bool {
        bool any = false;
        for (int r = 0; r < m_model->rowCount(parent); ++r) {
            const QModelIndex row = m_model->index(r, 0, parent);
            const bool graph = m_model->entry(row) != nullptr;
            const bool visible = graph ? matches(row) : self(self, row);
            m_tree->setRowHidden(r, parent, !visible);
            any = any || visible;
        }
        return any;
    };
    walk(walk, QModelIndex());
}

void MainWindow::setStartupActions(const QString& selectName, bool replay)
{
    m_startupSelect = selectName;
    m_startupReplay = replay;
}

QString MainWindow::errorBannerText() const
{
    return m_banner->isVisibleTo(this) ? m_bannerText->text() : QString();
}

void MainWindow::showError(const QString& message)
{
    m_bannerText->setText(message);
    m_banner->show();
    statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
}

void MainWindow::selectNode(int node)
{
    if (m_syncing)
        return;
    m_syncing = true;
    m_selectedNode = node;
    if (m_graphPanel->selectedNode() != node)
        m_graphPanel->selectNode(node);
    if (m_textPanel->selectedNode() != node)
        m_textPanel->selectNode(node);
    m_inspector->showNode(node);
    m_replayPanel->selectNode(node);
    m_syncing = false;
}

void MainWindow::onReplayReport()
{
    const auto report = m_replayPanel->report();
    m_graphPanel->setReport(report);
    m_textPanel->setReport(report.get());
    m_inspector->setReport(report);
}

bool MainWindow::exportGraph(const QString& path)
{
    if (!m_current) {
        statusBar()->showMessage(tr("Export: no graph selected"), 8000);
        return false;
    }
    const std::string format = render::formatForPath(path.toStdString());
    if (format.empty()) {
        statusBar()->showMessage(tr("Export: %1 — use .dot, .svg, .png or .pdf").arg(path), 8000);
        return false;
    }
    if (render::formatNeedsGraphviz(format) && !render::graphvizAvailable()) {
        statusBar()->showMessage(tr("Export: this build has no Graphviz; save as .dot"), 8000);
        return false;
    }
    // The whole graph, as `fxray dot` draws it (stubs and tuned limits for large graphs). Rendering runs in the job
    // tracker (untagged: each export runs to its end); the file appears when it is done.
    const auto graph = m_current;
    const std::string file = path.toStdString();
    statusBar()->showMessage(tr("Exporting %1 …").arg(path));
    m_jobs->run(this, QString(), [graph, file, format](const JobContext&) -> QString {
        try {
            const std::string dot = render::writeDot(graph->graph);
            if (format == "dot") {
                QSaveFile out(QString::fromStdString(file));
                if (!out.open(QIODevice::WriteOnly) || out.write(dot.data(), static_cast<qint64>(dot.size())) < 0 || !out.commit())
                    return QStringLiteral("cannot write %1").arg(QString::fromStdString(file));
            } else {
                render::renderDotToFile(dot, format, file);
            }
            return {};
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    }, [this, path](const QString& error) {
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
        else
            showError(tr("Could not export %1: %2").arg(path, error));
        Q_EMIT exportFinished(path, error);
    });
    return true;
}

bool MainWindow::exportReport(const QString& path)
{
    const auto report = m_replayPanel->report();
    if (!report) {
        statusBar()->showMessage(tr("Export: no replay report yet (Replay > Run)"), 8000);
        return false;
    }
    QSaveFile out(path);
    const std::string text = replay::reportToJson(*report).dump(json::Style::Pretty) + "\n";
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), static_cast<qint64>(text.size())) < 0 || !out.commit()) {
        showError(tr("Could not write %1: %2").arg(path, out.errorString()));
        return false;
    }
    statusBar()->showMessage(tr("Wrote the replay report to %1").arg(path), 8000);
    return true;
}

void MainWindow::exportGraphDialog()
{
    if (!m_current)
        return;
    const QString name = QString::fromStdString(m_current->entry.title.empty() ? "graph" : m_current->entry.title);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QDir::home().filePath(name + QStringLiteral(".svg")),
                                                      tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;DOT (*.dot)"));
    if (!path.isEmpty())
        exportGraph(path);
}

void MainWindow::exportReportDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export replay report"), QDir::home().filePath(QStringLiteral("replay.json")),
                                                      tr("JSON (*.json)"));
    if (!path.isEmpty())
        exportReport(path);
}

void MainWindow::addRecent(const QString& path)
{
    m_recent.removeAll(path);
    m_recent.prepend(path);
    while (m_recent.size() > 10)
        m_recent.removeLast();
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& path : std::as_const(m_recent))
        m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

namespace {

// Keeps the code panel (the splitter's second widget) 80 columns wide, plus what it spends beside its text (line
// numbers, scroll bar, margins), through every resize of the window, until the user drags the handle (then the
// sizes are theirs and are saved). Stretch factors alone shrink both sides in proportion.
class CodeWidthKeeper : public QObject {
public:
    explicit CodeWidthKeeper(QSplitter* splitter)
        : QObject(splitter)
        , m_splitter(splitter)
    {
        connect(splitter, &QSplitter::splitterMoved, this, [this] {
            if (!m_applying) {
                m_splitter->removeEventFilter(this);
                deleteLater();
            }
        });
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_splitter && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
            const int column = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).horizontalAdvance(QLatin1Char('x'));
            const int code = 85 * column + m_splitter->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 20;
            const int total = m_splitter->width();
            m_applying = true;
            m_splitter->setSizes({std::max(total / 3, total - code), std::min(code, total * 2 / 3)});
            m_applying = false;
        }
        return false;
    }

private:
    QSplitter* m_splitter;
    bool m_applying = false;
};

}  // namespace

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (!m_graphSplit->restoreState(settings.value(QStringLiteral("window/graphSplit")).toByteArray())) {
        // No saved sizes: the code keeps 80 columns whatever size the window gets; the graph the rest.
        m_graphSplit->installEventFilter(new CodeWidthKeeper(m_graphSplit));
    }
    m_recent = settings.value(QStringLiteral("recent")).toStringList();
    updateRecentMenu();
    m_replayPanel->restoreSettings(settings);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/graphSplit"), m_graphSplit->saveState());
    settings.setValue(QStringLiteral("recent"), m_recent);
    m_replayPanel->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        openPath(QDir::cleanPath(urls.front().toLocalFile()));
        event->acceptProposedAction();
    }
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a dump folder"), m_model->path());
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::openFileDialog()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open a trace log or graph file"), m_model->path(),
                                                      tr("Graphs (*.log *.py);;All files (*)"));
    if (!file.isEmpty())
        openPath(file);
}

void MainWindow::showDumpTreeMenu(const QPoint& pos)
{
    const QModelIndex index = m_tree->indexAt(pos).siblingAtColumn(DumpBrowserModel::NameColumn);
    QMenu menu(this);
    if (index.isValid() && !m_model->entry(index)) {
        // A compile's group row of a trace log: its stages can be compared (found through its first graph).
        for (int r = 0; r < m_model->rowCount(index); ++r)
            if (const io::GraphEntry* child = m_model->entry(m_model->index(r, 0, index))) {
                const QString compile = QString::fromStdString(io::compileAddressOf(*child));
                if (!compile.isEmpty())
                    menu.addAction(tr("Compare stages…"), this, [this, compile] { openStages(compile); });
                break;
            }
    } else if (index.isValid()) {
        QAction* diffWith = menu.addAction(tr("Diff with…"), this, [this, index] { diffWithDialog(index); });
        diffWith->setEnabled(m_model->graphCount() > 1);
        menu.addAction(tr("Minimize…"), this, [this, index] {
            showMinimize(index.data(DumpBrowserModel::AddressRole).toString(), index.data().toString());
        });
        const QString compile = QString::fromStdString(io::compileAddressOf(*m_model->entry(index)));
        if (!compile.isEmpty())
            menu.addAction(tr("Compare stages…"), this, [this, compile] { openStages(compile); });
    }
    if (m_model->rankCount() >= 2) {  // a distributed job: its ranks replay together, from any row
        if (!menu.isEmpty())
            menu.addSeparator();
        menu.addAction(tr("Replay ranks together…"), this, [this] { openRanks(m_model->path()); });
    }
    if (!menu.isEmpty())
        menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

void MainWindow::diffWithDialog(const QModelIndex& graphA)
{
    const QModelIndex a = graphA.siblingAtColumn(DumpBrowserModel::NameColumn);
    if (!m_model->entry(a))
        return;
    const QString addressA = a.data(DumpBrowserModel::AddressRole).toString();
    QStringList addresses;
    QList<QModelIndex> rows;
    int preselect = 0;
    for (int e = 0; e < m_model->graphCount(); ++e) {
        const QModelIndex i = m_model->indexForEntry(e);
        const QString address = i.data(DumpBrowserModel::AddressRole).toString();
        if (address == addressA)
            continue;
        if (address == m_lastDiffPartner)
            preselect = static_cast<int>(addresses.size());
        addresses << address;
        rows << i;
    }
    if (addresses.isEmpty())
        return;
    bool ok = false;
    const QString chosen = QInputDialog::getItem(this, tr("Diff with…"),
                                                 tr("Diff %1 (A) with graph B:").arg(a.data().toString()), addresses,
                                                 preselect, false, &ok);
    if (!ok || chosen.isEmpty())
        return;
    m_lastDiffPartner = chosen;
    const QModelIndex b = rows.value(static_cast<int>(addresses.indexOf(chosen)));
    DiffPanel* panel = addDiffTab(tr("%1 ↔ %2").arg(a.data().toString(), b.data().toString()));
    // Graphs the browser already loaded are not read again; the others are loaded by the diff job.
    const auto loadedA = m_model->loadedGraph(a);
    const auto loadedB = m_model->loadedGraph(b);
    if (loadedA && loadedB)
        panel->diffLoaded(loadedA, loadedB);
    else
        panel->diffAddresses(addressA, chosen);
}

DiffPanel* MainWindow::openDiff(const QString& addressA, const QString& addressB)
{
    // Tab title: the last path component of each, plus the first component where they differ when those are equal
    // ("h100/…/mlp_forward_0 ↔ cpu/…/mlp_forward_0").
    const QStringList partsA = QDir::cleanPath(addressA).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QStringList partsB = QDir::cleanPath(addressB).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString nameA = partsA.value(partsA.size() - 1, addressA);
    QString nameB = partsB.value(partsB.size() - 1, addressB);
    if (nameA == nameB && partsA.size() == partsB.size()) {
        qsizetype k = 0;
        while (k + 1 < partsA.size() && partsA[k] == partsB[k])
            ++k;
        if (k + 1 < partsA.size()) {
            const QString gap = k + 2 < partsA.size() ? QStringLiteral("/…/") : QStringLiteral("/");
            nameA = partsA[k] + gap + nameA;
            nameB = partsB[k] + gap + nameB;
        }
    }
    DiffPanel* panel = addDiffTab(tr("%1 ↔ %2").arg(nameA, nameB));
    panel->diffAddresses(addressA, addressB);
    return panel;
}

DiffPanel* MainWindow::addDiffTab(const QString& title)
{
    auto* panel = new DiffPanel(m_tabs);
    panel->setObjectName(QStringLiteral("diffPanel"));
    const int index = m_tabs->addTab(panel, tr("Diff: %1").arg(title));
    m_tabs->setTabToolTip(index, title);
    m_tabs->setCurrentIndex(index);
    connect(panel, &DiffPanel::diffFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Diff failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)), 8000);
    });
    return panel;
}

StagesPanel* MainWindow::openStages(const QString& compileAddress, bool run)
{
    auto* panel = new StagesPanel(m_tabs);
    panel->setCompile(compileAddress);
    connect(panel, &StagesPanel::openGraph, this, [this](const QString& address) {
        if (!openGraphAddress(address))
            statusBar()->showMessage(tr("%1 is not in the open path").arg(address), 8000);
    });
    const int index = m_tabs->addTab(panel, tr("Stages: %1").arg(compileAddress.section(QLatin1Char('#'), -1)));
    m_tabs->setTabToolTip(index, compileAddress);
    m_tabs->setCurrentIndex(index);
    if (run)
        panel->start();
    return panel;
}

RanksPanel* MainWindow::openRanks(const QString& path, bool run)
{
    auto* panel = new RanksPanel(m_tabs);
    panel->setPath(path);
    connect(panel, &RanksPanel::openGraph, this, [this](const QString& address) {
        if (!openGraphAddress(address))
            statusBar()->showMessage(tr("%1 is not in the open path").arg(address), 8000);
    });
    connect(panel, &RanksPanel::finished, this, [this, panel](const QString&) {
        statusBar()->showMessage(tr("Ranks: %1").arg(panel->summaryText().section(QLatin1Char('\n'), 0, 0)), 8000);
    });
    const int index = m_tabs->addTab(panel, tr("Ranks: %1").arg(QFileInfo(path).fileName()));
    m_tabs->setTabToolTip(index, path);
    m_tabs->setCurrentIndex(index);
    if (run)
        panel->start();
    return panel;
}

void MainWindow::showMinimize(const QString& address, const QString& title)
{
    m_minimizePanel->setGraph(address, title);
    m_minimizeDock->show();
    m_minimizeDock->raise();
}

GraphTextPanel* MainWindow::openMinimized(const QString& dumpFolder, const QString& title, int nodes)
{
    auto* panel = new GraphTextPanel(m_tabs);
    panel->setObjectName(QStringLiteral("minimizedPanel"));
    try {
        panel->showGraph(std::make_shared<const io::LoadedGraph>(io::loadAddress(dumpFolder.toStdString())));  // a few nodes: loads at once
    } catch (const std::exception& e) {
        panel->showMessage(tr("Could not load %1").arg(dumpFolder), QString::fromUtf8(e.what()));
    }
    const int index = m_tabs->addTab(panel, tr("Minimized: %1 (%2 nodes)").arg(title).arg(nodes));
    m_tabs->setTabToolTip(index, dumpFolder);
    m_tabs->setCurrentIndex(index);
    statusBar()->showMessage(tr("Minimized %1 to %2 nodes: %3").arg(title).arg(nodes).arg(dumpFolder), 8000);
    return panel;
}

void MainWindow::showCurrentGraph()
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid()) {
        if (m_model->graphCount() == 0 && !m_model->failure().isEmpty())
            return;  // keep the failure message on screen
        m_textPanel->showMessage(tr("No graph selected"), tr("Pick a graph in the Dumps list."));
        return;
    }
    const QModelIndex nameIndex = current.siblingAtColumn(DumpBrowserModel::NameColumn);
    if (!m_model->entry(nameIndex)) {
        const QString name = nameIndex.data().toString();
        m_textPanel->showMessage(name, tr("%1 — pick one of its graphs.").arg(nameIndex.data(Qt::ToolTipRole).toString()));
        return;
    }
    if (!m_minimizePanel->isRunning())
        m_minimizePanel->setGraph(nameIndex.data(DumpBrowserModel::AddressRole).toString(), nameIndex.data().toString());
    if (const auto loaded = m_model->loadedGraph(nameIndex)) {
        if (loaded == m_current)
            return;
        m_current = loaded;
        m_selectedNode = -1;
        m_textPanel->showGraph(loaded);
        m_graphPanel->setGraph(loaded);
        if (m_graphPanel->scopeTreePending())  // scopeTreeChanged comes with the first drawing
            m_outline->setTree(nullptr, tr("Finding the module scopes of %1 nodes …").arg(loaded->graph.nodes.size()));
        m_inspector->setGraph(loaded);
        m_replayPanel->setGraph(loaded, nameIndex.data(DumpBrowserModel::AddressRole).toString(), nameIndex.data().toString());
        if (!m_startupSelect.isEmpty()) {
            selectNode(loaded->graph.findNode(m_startupSelect.toStdString()));
            m_startupSelect.clear();
        }
        if (m_startupReplay) {
            m_startupReplay = false;
            m_replayPanel->start();
        }
        return;
    }
    m_current.reset();
    m_graphPanel->clear();
    m_inspector->setGraph(nullptr);
    m_replayPanel->setGraph(nullptr, {}, {});
    const QString address = nameIndex.data(DumpBrowserModel::AddressRole).toString();
    if (m_model->isGraphDone(nameIndex))
        m_textPanel->showMessage(tr("Could not load %1").arg(nameIndex.data().toString()),
                                 address + QStringLiteral("\n\n") + m_model->loadError(nameIndex));
    else
        m_textPanel->showMessage(nameIndex.data().toString(), tr("Loading %1 …").arg(address));
}

void MainWindow::onLoadingStarted(const QString& path)
{
    statusBar()->showMessage(tr("Looking for graphs under %1 …").arg(path));
    m_statusCounts->setText(tr("opening %1 …").arg(QFileInfo(path).fileName()));
    if (!m_current)
        m_textPanel->showMessage(tr("Loading"), tr("Looking for graphs under %1 …").arg(path));
}

void MainWindow::showCompileReport()
{
    m_reportDock->show();
    m_reportDock->raise();
    resizeDocks({m_reportDock}, {height() * 2 / 5}, Qt::Vertical);  // breaks and stacks need room
}

bool MainWindow::openGraphAddress(const QString& address)
{
    for (int e = 0; e < m_model->graphCount(); ++e) {
        const QModelIndex index = m_model->indexForEntry(e);
        const io::GraphEntry* entry = m_model->entry(index);
        if (!entry || QString::fromStdString(entry->address) != address)
            continue;
        m_dumpFilter->clear();  // a filtered-out row could not be shown
        m_tree->setCurrentIndex(index);
        m_tree->scrollTo(index);
        m_tabs->setCurrentWidget(m_graphSplit);
        return true;
    }
    return false;
}

void MainWindow::onDiscovered(int graphs)
{
    if (m_reportPanel->path() != m_model->path())
        m_reportPanel->setPath(m_model->path());
    applyDumpFilter();
    addRecent(m_model->path());
    m_tree->expandAll();
    // Fit the columns, but keep the name column from pushing kind and node count out of the dock.
    for (int c = 0; c < DumpBrowserModel::ColumnCount - 1; ++c)
        m_tree->resizeColumnToContents(c);
    const int maxNameWidth = std::max(200, m_dumpsDock->width() / 2);
    if (m_tree->columnWidth(DumpBrowserModel::NameColumn) > maxNameWidth)
        m_tree->setColumnWidth(DumpBrowserModel::NameColumn, maxNameWidth);
    if (graphs > 0 && !m_tree->currentIndex().isValid()) {
        const QModelIndex first = m_model->firstGraphIndex();
        m_tree->setCurrentIndex(first);
        m_tree->scrollTo(first);
    }
    const QStringList errors = m_model->discoveryErrors();
    if (!errors.isEmpty())
        statusBar()->showMessage(tr("%1 file(s) could not be read while looking: %2")
                                     .arg(errors.size())
                                     .arg(errors.front()));
}

void MainWindow::onGraphLoaded(const QModelIndex& index)
{
    if (index.row() == m_tree->currentIndex().row() && index.parent() == m_tree->currentIndex().parent())
        showCurrentGraph();
}

void MainWindow::onProgress(int done, int total)
{
    m_statusCounts->setText(tr("loading %1/%2").arg(done).arg(total));
}

void MainWindow::onLoadFailed(const QString& message)
{
    // The model kept what was open before (if anything); say what went wrong above it.
    showError(tr("Could not open: %1").arg(message));
    if (m_model->graphCount() == 0)
        m_textPanel->showMessage(tr("Could not open %1").arg(m_model->path()), message);
}

void MainWindow::onLoadingFinished()
{
    if (!m_model->failure().isEmpty() && m_model->graphCount() == 0) {
        m_statusCounts->setText(tr("no graphs"));
        return;
    }
    QString counts = tr("%1 graphs in %2 groups").arg(m_model->graphCount()).arg(m_model->groupCount());
    if (m_model->failedCount() > 0)
        counts += tr(", %1 failed to load").arg(m_model->failedCount());
    m_statusCounts->setText(counts);
    m_tree->resizeColumnToContents(DumpBrowserModel::NodesColumn);
    if (m_model->discoveryErrors().isEmpty())
        statusBar()->showMessage(tr("Ready"), 3000);
}

}  // namespace fxray::views
