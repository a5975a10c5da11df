#pragma once
// The app's main window: a "Dumps" dock with the graphs found under a path; in the centre the "Graph" tab (the
// graph view and the code side by side) and one closable tab per diff or minimized result; docks for the node
// Inspector, Replay and Minimize. One node selection is shared by graph, code, inspector and replay results
// (selectNode is the hub: whoever changes it, the others follow without echoing back).
// Settings (window layout, recent paths, replay options) persist in QSettings; paths can be opened by dialog,
// command line, drag and drop, or File > Recent. Opening something broken shows an error banner and keeps what
// was open.
#include "views/services/job_tracker.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;
class QSplitter;
class QTreeView;
class QDockWidget;
class QTabWidget;
class QToolButton;

namespace fxray::io {
struct LoadedGraph;
}

namespace fxray::views {

class CompileReportPanel;
class DumpBrowserModel;
class GraphTextPanel;
class DiffPanel;
class MinimizePanel;
class GraphPanel;
class InspectorPanel;
class RanksPanel;
class ReplayPanel;
class StagesPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Looks for graphs under `path` (a folder, trace log or .py file); returns at once.
    void openPath(const QString& path);

    DumpBrowserModel* dumpBrowserModel() const { return m_model; }
    QTreeView* dumpTree() const { return m_tree; }
    // The Dumps filter: graphs whose name, kind or address contains the text (case-insensitive) stay visible.
    void setDumpFilter(const QString& text);
    GraphTextPanel* graphTextPanel() const { return m_textPanel; }
    QTabWidget* centralTabs() const { return m_tabs; }
    MinimizePanel* minimizePanel() const { return m_minimizePanel; }
    GraphPanel* graphPanel() const { return m_graphPanel; }
    InspectorPanel* inspectorPanel() const { return m_inspector; }
    ReplayPanel* replayPanel() const { return m_replayPanel; }
    CompileReportPanel* compileReportPanel() const { return m_reportPanel; }
    // Shows and raises the Compile report dock (fxray-gui --report).
    void showCompileReport();
    // Selects the graph with this address (as the compile report links it) in the Dumps list and shows it in the
    // Graph tab; false when the open path has no such graph.
    bool openGraphAddress(const QString& address);
    std::shared_ptr<const io::LoadedGraph> currentGraph() const { return m_current; }
    QString errorBannerText() const;  // empty when no error is shown

    // The shared node selection (graph, code, inspector, replay rows); -1 clears.
    void selectNode(int node);
    int selectedNode() const { return m_selectedNode; }

    // Export the current graph (.dot/.gv, .svg, .png, .pdf by extension; Graphviz renders off the GUI thread) and
    // the last replay report (.json). Return false with the reason in the status bar when they cannot.
    bool exportGraph(const QString& path);
    bool exportReport(const QString& path);
    // What to do once the first graph is on screen (fxray-gui --select NODE --replay): select a node by name, and
    // run a replay of the graph.
    void setStartupActions(const QString& selectName, bool replay);
    QStringList recentPaths() const { return m_recent; }
    // Shows the Minimize dock set to this graph (as "Minimize…" in the Dumps list does).
    void showMinimize(const QString& address, const QString& title);
    // Opens a Stages tab for a compile ("<log>#<frame>/<compile>", as "Compare stages…" in the Dumps list does) and
    // with `run` starts comparing its stages; clicking a stage shows its graph in the Graph tab.
    StagesPanel* openStages(const QString& compileAddress, bool run = true);
    // A Ranks tab: the distributed job of a folder of per-rank logs or dumps, its ranks side by side (run: started).
    RanksPanel* openRanks(const QString& path, bool run = true);
    // Opens a minimized graph (a seed-layout folder) in a new tab titled after its original.
    GraphTextPanel* openMinimized(const QString& dumpFolder, const QString& title, int nodes);

    // Opens a diff tab for two graph addresses (or paths holding one graph) and returns its panel; the diff runs
    // in the background.
    DiffPanel* openDiff(const QString& addressA, const QString& addressB);
    // "Diff with…" on a graph row: asks for the other graph (B) among the discovered ones and opens the diff.
    void diffWithDialog(const QModelIndex& graphA);

Q_SIGNALS:
    void exportFinished(const QString& path, const QString& error);  // error empty: written

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // The constructor's steps, in the order it takes them.
    void createDumpsDock();
    void createMinimizeDock();
    void createCentre();
    void createErrorBanner();
    void createPanelDocks();
    void connectPanels();
    void connectDumpTree();
    void createActions();
    void createOutlineDock();  // the module hierarchy of the graph shown (views/panels/outline_panel.h)
    void restoreSettings();
    void saveSettings() const;
    void addRecent(const QString& path);
    void updateRecentMenu();
    void showError(const QString& message);
    void exportGraphDialog();
    void exportReportDialog();
    void onReplayReport();
    void applyDumpFilter();
    void showCurrentGraph();
    void onLoadingStarted(const QString& path);
    void onDiscovered(int graphs);
    void onGraphLoaded(const QModelIndex& index);
    void onProgress(int done, int total);
    void onLoadFailed(const QString& message);
    void onLoadingFinished();
    void openFolderDialog();
    void openFileDialog();
    void showDumpTreeMenu(const QPoint& pos);
    DiffPanel* addDiffTab(const QString& title);

    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();  // exports; held for the window's life
    DumpBrowserModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    class QLineEdit* m_dumpFilter = nullptr;
    QDockWidget* m_dumpsDock = nullptr;
    QDockWidget* m_minimizeDock = nullptr;
    MinimizePanel* m_minimizePanel = nullptr;
    GraphTextPanel* m_textPanel = nullptr;
    QTabWidget* m_tabs = nullptr;
    QString m_lastDiffPartner;  // the B last chosen in "Diff with…", offered first next time
    QLabel* m_statusCounts = nullptr;
    GraphPanel* m_graphPanel = nullptr;
    QSplitter* m_graphSplit = nullptr;
    QDockWidget* m_inspectorDock = nullptr;
    InspectorPanel* m_inspector = nullptr;
    QDockWidget* m_replayDock = nullptr;
    ReplayPanel* m_replayPanel = nullptr;
    QDockWidget* m_reportDock = nullptr;
    QDockWidget* m_outlineDock = nullptr;
    class OutlinePanel* m_outline = nullptr;
    CompileReportPanel* m_reportPanel = nullptr;
    QWidget* m_banner = nullptr;
    QLabel* m_bannerText = nullptr;
    QMenu* m_recentMenu = nullptr;
    QStringList m_recent;
    std::shared_ptr<const io::LoadedGraph> m_current;
    int m_selectedNode = -1;
    bool m_syncing = false;  // selectNode at work
    QString m_startupSelect;
    bool m_startupReplay = false;
};

}  // namespace fxray::views
