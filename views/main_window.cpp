#include "views/main_window.h"

#include "views/models/dump_browser_model.h"
#include "views/panels/graph_text_panel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeView>

#include <algorithm>

namespace fxray::views {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new DumpBrowserModel(this))
    , m_tree(new QTreeView)
    , m_dumpsDock(new QDockWidget(tr("Dumps"), this))
    , m_textPanel(new GraphTextPanel(this))
    , m_statusCounts(new QLabel(this))
{
    setWindowTitle(QStringLiteral("fxray"));
    setObjectName(QStringLiteral("MainWindow"));

    m_tree->setModel(m_model);
    m_tree->setObjectName(QStringLiteral("dumpTree"));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setTextElideMode(Qt::ElideMiddle);  // long source paths keep both ends

    m_dumpsDock->setObjectName(QStringLiteral("dumpsDock"));
    m_dumpsDock->setWidget(m_tree);
    m_dumpsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                             QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dumpsDock);

    setCentralWidget(m_textPanel);
    m_textPanel->showMessage(tr("No graph selected"),
                             tr("Open a dump folder, a TORCH_TRACE log or a TORCH_COMPILE_DEBUG directory "
                                "(File > Open), then pick a graph in the Dumps list."));
    statusBar()->addPermanentWidget(m_statusCounts);

    createActions();

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::showCurrentGraph);
    connect(m_model, &DumpBrowserModel::loadingStarted, this, &MainWindow::onLoadingStarted);
    connect(m_model, &DumpBrowserModel::discovered, this, &MainWindow::onDiscovered);
    connect(m_model, &DumpBrowserModel::graphLoaded, this, &MainWindow::onGraphLoaded);
    connect(m_model, &DumpBrowserModel::progress, this, &MainWindow::onProgress);
    connect(m_model, &DumpBrowserModel::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_model, &DumpBrowserModel::loadingFinished, this, &MainWindow::onLoadingFinished);
    // A model reset replaces the selection model's indexes; the tree keeps its selection model object.
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::showCurrentGraph);

    resize(1360, 860);
    resizeDocks({m_dumpsDock}, {560}, Qt::Horizontal);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open F&ile…"), this, &MainWindow::openFileDialog);
    QAction* reload = file->addAction(tr("&Reload"), m_model, &DumpBrowserModel::reload);
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_dumpsDock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About fxray"), this, [this] {
        QMessageBox::about(this, tr("About fxray"),
                           tr("<b>fxray</b> — look at, replay, minimize and diff torch.compile graphs."));
    });
}

void MainWindow::openPath(const QString& path)
{
    m_model->setPath(path);
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
    if (const auto loaded = m_model->loadedGraph(nameIndex)) {
        m_textPanel->showGraph(*loaded);
        return;
    }
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
    m_statusCounts->clear();
    m_textPanel->showMessage(tr("Loading"), tr("Looking for graphs under %1 …").arg(path));
}

void MainWindow::onDiscovered(int graphs)
{
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
    statusBar()->showMessage(message);
    m_textPanel->showMessage(tr("Could not open %1").arg(m_model->path()), message);
}

void MainWindow::onLoadingFinished()
{
    if (!m_model->failure().isEmpty()) {
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
