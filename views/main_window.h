#pragma once
// The app's main window (shell): a "Dumps" dock with the graphs found under a path, the selected graph's text in
// the centre, loading progress and errors in the status bar. Later issues add the graph view and replay panels.
#include <QMainWindow>

class QLabel;
class QTreeView;
class QDockWidget;

namespace fxray::views {

class DumpBrowserModel;
class GraphTextPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Looks for graphs under `path` (a folder, trace log or .py file); returns at once.
    void openPath(const QString& path);

    DumpBrowserModel* dumpBrowserModel() const { return m_model; }
    QTreeView* dumpTree() const { return m_tree; }
    GraphTextPanel* graphTextPanel() const { return m_textPanel; }

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

    DumpBrowserModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    QDockWidget* m_dumpsDock = nullptr;
    GraphTextPanel* m_textPanel = nullptr;
    QLabel* m_statusCounts = nullptr;
};

}  // namespace fxray::views
