#pragma once
// The app's main window (shell): a "Dumps" dock with the graphs found under a path, the selected graph's text in
// the centre, loading progress and errors in the status bar. Later issues add the graph view and replay panels.
// The centre is a tab widget: the "Graph" tab (the selected graph's text) and one closable tab per diff, opened by
// "Diff with…" in the Dumps list's context menu. A "Minimize" dock shrinks the selected graph; its result opens
// in a closable tab.
#include <QMainWindow>

class QLabel;
class QTreeView;
class QDockWidget;
class QTabWidget;

namespace fxray::views {

class DumpBrowserModel;
class GraphTextPanel;
class DiffPanel;
class MinimizePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Looks for graphs under `path` (a folder, trace log or .py file); returns at once.
    void openPath(const QString& path);

    DumpBrowserModel* dumpBrowserModel() const { return m_model; }
    QTreeView* dumpTree() const { return m_tree; }
    GraphTextPanel* graphTextPanel() const { return m_textPanel; }
    QTabWidget* centralTabs() const { return m_tabs; }
    MinimizePanel* minimizePanel() const { return m_minimizePanel; }
    // Shows the Minimize dock set to this graph (as "Minimize…" in the Dumps list does).
    void showMinimize(const QString& address, const QString& title);
    // Opens a minimized graph (a seed-layout folder) in a new tab titled after its original.
    GraphTextPanel* openMinimized(const QString& dumpFolder, const QString& title, int nodes);

    // Opens a diff tab for two graph addresses (or paths holding one graph) and returns its panel; the diff runs
    // in the background.
    DiffPanel* openDiff(const QString& addressA, const QString& addressB);
    // "Diff with…" on a graph row: asks for the other graph (B) among the discovered ones and opens the diff.
    void diffWithDialog(const QModelIndex& graphA);

private:
    void createActions();
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

    DumpBrowserModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    QDockWidget* m_dumpsDock = nullptr;
    QDockWidget* m_minimizeDock = nullptr;
    MinimizePanel* m_minimizePanel = nullptr;
    GraphTextPanel* m_textPanel = nullptr;
    QTabWidget* m_tabs = nullptr;
    QString m_lastDiffPartner;  // the B last chosen in "Diff with…", offered first next time
    QLabel* m_statusCounts = nullptr;
};

}  // namespace fxray::views
