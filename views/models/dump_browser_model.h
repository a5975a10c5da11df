#pragma once
// The "Dumps" tree: source (dump root, trace log, debug run) -> group (model name / compile id) -> graphs,
// with columns name, kind, nodes, address. Discovery and loading (for node counts and the text view) run as one job
// of the GUI's JobTracker, which posts each result as it is made; a new path supersedes the job of the old one, so
// results of a path that was replaced meanwhile are dropped there.
#include "io/graph_source.h"
#include "views/services/job_tracker.h"

#include <QAbstractItemModel>
#include <QIcon>
#include <QMap>
#include <QStringList>

#include <memory>
#include <vector>

namespace fxray::views {

namespace detail {
// One message from the worker: the discovery, then one per graph (loaded or failed), or a discovery failure.
struct BrowseResult {
    enum class Type { Discovered, GraphLoaded, GraphFailed, Failed };
    Type type = Type::Failed;
    quint64 generation = 0;
    std::shared_ptr<const io::Discovery> discovery;
    int entry = -1;
    std::shared_ptr<const io::LoadedGraph> graph;
    std::uint64_t hash = 0;  // structural hash of a loaded graph (graph/algorithms.h), computed on the worker
    QString error;
};
}  // namespace detail

class DumpBrowserModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, NodesColumn, AddressColumn, ColumnCount };
    enum class ItemType { Source, Group, Graph };
    enum Role {
        AddressRole = Qt::UserRole + 1,  // graph address (QString), empty for sources and groups
        ItemTypeRole,                    // ItemType as int
        NodeCountRole,                   // int, -1 while unknown or failed
        EntryRole,                       // index into the discovered graphs (int), -1 for sources and groups
        VerdictRole,                     // the last replay's verdict for the graph ("pass", "mismatch", ...), or empty
        RankRole,                        // int: the rank of a source or graph of a distributed job, -1 otherwise
    };

    explicit DumpBrowserModel(QObject* parent = nullptr);
    ~DumpBrowserModel() override;

    // Replaces the contents with the graphs found under `path`; returns at once (the work runs on a worker).
    void setPath(const QString& path);
    // Looks at the current path again.
    void reload();
    QString path() const { return m_path; }
    bool isLoading() const { return m_loading; }
    quint64 generation() const { return m_generation; }

    int graphCount() const { return static_cast<int>(m_graphs.size()); }
    int loadedCount() const { return m_done; }
    int failedCount() const { return m_failed; }
    int groupCount() const;
    // A distributed job: two ranks or more, every graph with a rank (their sources are titled "rank N · …").
    int rankCount() const { return m_ranks; }
    QStringList discoveryErrors() const { return m_discoveryErrors; }
    // Why the last setPath failed (path missing, no graphs, or none of its graphs loads while something else was
    // open): the previous contents and path() stay then.
    QString failure() const { return m_failure; }

    // For graph rows (any column); nullptr / empty otherwise or while not loaded yet.
    const io::GraphEntry* entry(const QModelIndex& index) const;
    std::shared_ptr<const io::LoadedGraph> loadedGraph(const QModelIndex& index) const;
    QString loadError(const QModelIndex& index) const;
    bool isGraphDone(const QModelIndex& index) const;  // loaded or failed
    QModelIndex indexForEntry(int entry, int column = NameColumn) const;
    QModelIndex firstGraphIndex() const;
    // Graphs structurally identical to this one (same ops, arguments and recorded metadata; names aside), loaded
    // ones only; the Kind column marks them "≡ n" and the tooltip lists them.
    QStringList identicalGraphs(const QModelIndex& index) const;
    // The last replay's verdict of a graph: shown as a coloured dot on its row (kept across reloads of the path).
    void setReplayVerdict(const QString& address, const QString& verdict);
    static QIcon verdictIcon(const QString& verdict);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void loadingStarted(const QString& path);
    void discovered(int graphs);                 // the tree is filled; node counts follow
    void graphLoaded(const QModelIndex& index);  // a graph row became loaded or failed
    void progress(int done, int total);
    void loadFailed(const QString& message);     // discovery failed: the tree stays empty
    void loadingFinished();                      // the worker is done (after loadFailed too)

private:
    struct Item;
    struct GraphState {
        std::shared_ptr<const io::LoadedGraph> graph;
        std::uint64_t hash = 0;
        QString error;
        bool done = false;
        Item* item = nullptr;
    };

    void cancelWorker();
    void startWorker();
    void handleResult(const detail::BrowseResult& r);
    void applyGraphResult(const detail::BrowseResult& r);
    void markRanks();
    void commit(std::shared_ptr<const io::Discovery> discovery);
    void keepPrevious(const QString& error);
    void handleFinished();
    void buildTree(std::shared_ptr<const io::Discovery> found);
    Item* itemFor(const QModelIndex& index) const;
    const GraphState* stateFor(const QModelIndex& index) const;

    QString m_path;
    QString m_previousPath;          // what to go back to when the new path fails; empty: nothing was open
    bool m_previousComplete = true;  // the previous path had finished loading
    std::shared_ptr<const io::Discovery> m_pending;     // discovered, not shown until a graph loads
    std::vector<detail::BrowseResult> m_pendingResults;
    quint64 m_generation = 0;
    int m_ranks = 0;
    bool m_loading = false;
    std::unique_ptr<Item> m_root;
    std::shared_ptr<const io::Discovery> m_discovery;
    std::vector<GraphState> m_graphs;
    int m_done = 0;
    int m_failed = 0;
    QStringList m_discoveryErrors;
    QString m_failure;
    QMap<QString, QString> m_verdicts;  // address -> last replay verdict
    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    JobId m_job = 0;
};

}  // namespace fxray::views
