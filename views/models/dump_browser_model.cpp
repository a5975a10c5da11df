#include "views/models/dump_browser_model.h"

#include "base/error.h"
#include "graph/algorithms.h"
#include "worker/rank_set.h"

#include <QDir>
#include <QHash>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QFileInfo>

#include <exception>
#include <functional>
#include <map>

namespace fxray::views {

struct DumpBrowserModel::Item {
    Item* parent = nullptr;
    int row = 0;
    ItemType type = ItemType::Source;
    QString name;
    QString kind;
    QString address;
    QString tooltip;
    int entry = -1;
    int rank = -1;  // a distributed job's rank (sources and graphs)
    std::vector<std::unique_ptr<Item>> children;

    Item* add(std::unique_ptr<Item> child)
    {
        child->parent = this;
        child->row = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
};

namespace {

using detail::BrowseResult;

QString errorText(const std::exception& e)
{
    return QString::fromStdString(e.what());
}

// Runs on the job tracker's pool, handing each result to `emit` (which posts it to the GUI thread). Copies only:
// nothing here touches the model, so a replaced or destroyed model is fine.
void browse(const JobContext& job, const std::string& path, quint64 generation, const std::function<void(BrowseResult)>& emit)
{
    BrowseResult found;
    found.generation = generation;
    try {
        found.discovery = std::make_shared<const io::Discovery>(io::discover(path));
        found.type = BrowseResult::Type::Discovered;
    } catch (const std::exception& e) {  // fxray::Error (path missing, nothing found) or anything unexpected
        found.type = BrowseResult::Type::Failed;
        found.error = errorText(e);
        emit(std::move(found));
        return;
    }
    const std::shared_ptr<const io::Discovery> discovery = found.discovery;
    emit(std::move(found));

    for (std::size_t i = 0; i < discovery->graphs.size(); ++i) {
        if (job.cancelled())
            return;
        BrowseResult r;
        r.generation = generation;
        r.entry = static_cast<int>(i);
        try {
            r.graph = std::make_shared<const io::LoadedGraph>(io::loadGraph(discovery->graphs[i]));
            r.hash = graph::structuralHash(r.graph->graph);
            r.type = BrowseResult::Type::GraphLoaded;
        } catch (const std::exception& e) {
            r.type = BrowseResult::Type::GraphFailed;
            r.error = errorText(e);
        }
        emit(std::move(r));
    }
}

// What a graph belongs to at the top level: the folder that holds its group's folder (seed dump root: the group
// is the model folder; TORCH_COMPILE_DEBUG root: the group is the run folder), else the file itself (a trace log,
// whose groups are compile ids).
QString sourceOf(const io::GraphEntry& e)
{
    const QString path = QDir::cleanPath(QString::fromStdString(e.path));
    const QString group = QString::fromStdString(e.group);
    if (!group.isEmpty()) {
        const QString marker = QLatin1Char('/') + group + QLatin1Char('/');
        const qsizetype at = (path + QLatin1Char('/')).lastIndexOf(marker);
        if (at > 0)
            return path.left(at);
    }
    return path;
}

}  // namespace

DumpBrowserModel::DumpBrowserModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Item>())
{
}

DumpBrowserModel::~DumpBrowserModel()
{
    cancelWorker();
}

void DumpBrowserModel::cancelWorker()
{
    // The old job may still have results on their way: discarded, none of them arrives.
    m_jobs->discard(m_job);
    m_job = 0;
}

void DumpBrowserModel::reload()
{
    if (!m_path.isEmpty())
        setPath(m_path);
}

void DumpBrowserModel::setPath(const QString& path)
{
    // What is on screen stays until the new path has given at least one graph that loads (or there was nothing
    // before): opening a broken file reports an error and keeps the user's previous state.
    const bool wasComplete = !m_loading;
    cancelWorker();
    ++m_generation;
    m_previousPath = m_graphs.empty() ? QString() : m_path;
    m_previousComplete = wasComplete;
    m_pending.reset();
    m_pendingResults.clear();
    m_failure.clear();
    m_path = path;
    startWorker();
}

void DumpBrowserModel::startWorker()
{
    m_loading = true;
    Q_EMIT loadingStarted(m_path);
    const std::string path = m_path.toStdString();
    const quint64 generation = m_generation;
    m_job = m_jobs->start(this, QStringLiteral("browse"), [this, path, generation](const JobContext& job) {
        browse(job, path, generation, [this, &job](BrowseResult r) { job.post([this, r = std::move(r)] { handleResult(r); }); });
        job.post([this] { handleFinished(); });
    });
}

void DumpBrowserModel::handleResult(const BrowseResult& r)
{
    if (r.generation != m_generation)
        return;  // stale: belongs to a path that was replaced
    switch (r.type) {
    case BrowseResult::Type::Failed:
        keepPrevious(r.error);
        return;
    case BrowseResult::Type::Discovered:
        if (m_previousPath.isEmpty()) {
            commit(r.discovery);
        } else {
            m_pending = r.discovery;  // shown once one of its graphs loads
        }
        return;
    case BrowseResult::Type::GraphLoaded:
    case BrowseResult::Type::GraphFailed: break;
    }
    if (m_pending) {
        m_pendingResults.push_back(r);
        if (r.type != BrowseResult::Type::GraphLoaded)
            return;
        commit(std::move(m_pending));
        std::vector<BrowseResult> buffered;
        buffered.swap(m_pendingResults);
        for (const BrowseResult& b : buffered)
            applyGraphResult(b);
        return;
    }
    applyGraphResult(r);
}

void DumpBrowserModel::commit(std::shared_ptr<const io::Discovery> discovery)
{
    m_pending.reset();
    m_previousPath.clear();
    buildTree(std::move(discovery));
    Q_EMIT discovered(graphCount());
    Q_EMIT progress(0, graphCount());
}

void DumpBrowserModel::keepPrevious(const QString& error)
{
    m_failure = error;
    m_pending.reset();
    m_pendingResults.clear();
    if (!m_previousPath.isEmpty())
        m_path = m_previousPath;
    Q_EMIT loadFailed(error);
}

void DumpBrowserModel::applyGraphResult(const BrowseResult& r)
{
    if (r.entry < 0 || static_cast<std::size_t>(r.entry) >= m_graphs.size())
        return;
    GraphState& state = m_graphs[static_cast<std::size_t>(r.entry)];
    if (state.done)
        return;
    state.done = true;
    state.graph = r.graph;
    state.hash = r.hash;
    state.error = r.error;
    ++m_done;
    if (r.type == BrowseResult::Type::GraphFailed)
        ++m_failed;
    const QModelIndex first = indexForEntry(r.entry, NameColumn);
    Q_EMIT dataChanged(first, indexForEntry(r.entry, ColumnCount - 1));
    if (state.graph)  // its structural twins now have one more
        for (std::size_t e = 0; e < m_graphs.size(); ++e)
            if (static_cast<int>(e) != r.entry && m_graphs[e].graph && m_graphs[e].hash == state.hash) {
                const QModelIndex kind = indexForEntry(static_cast<int>(e), KindColumn);
                Q_EMIT dataChanged(kind, kind, {Qt::DisplayRole, Qt::ToolTipRole});
            }
    Q_EMIT graphLoaded(first);
    Q_EMIT progress(m_done, graphCount());
}

void DumpBrowserModel::handleFinished()
{
    m_job = 0;
    if (m_pending) {
        // Every graph of the new path failed to load and something was open before: keep that.
        QString why = m_pendingResults.empty() ? tr("no graph could be loaded") : m_pendingResults.front().error;
        keepPrevious(tr("%1: none of its %2 graph(s) loads; first error: %3").arg(m_path).arg(m_pending->graphs.size()).arg(why));
    }
    m_loading = false;
    Q_EMIT loadingFinished();
    if (!m_failure.isEmpty() && !m_previousComplete && !m_path.isEmpty() && !m_graphs.empty()) {
        // The previous path was still loading when the new one was asked for: finish loading it.
        m_previousComplete = true;
        setPath(m_path);
    }
}

void DumpBrowserModel::buildTree(std::shared_ptr<const io::Discovery> found)
{
    beginResetModel();
    m_discovery = std::move(found);
    const io::Discovery& discovery = *m_discovery;
    m_root = std::make_unique<Item>();
    m_graphs.assign(discovery.graphs.size(), GraphState{});
    for (const std::string& e : discovery.errors)
        m_discoveryErrors << QString::fromStdString(e);

    const QFileInfo rootInfo(m_path);
    const QDir rootDir(rootInfo.isDir() ? rootInfo.absoluteFilePath() : rootInfo.absolutePath());
    std::map<QString, Item*> sources;
    std::map<std::pair<Item*, QString>, Item*> groups;
    const bool ranks = worker::isRankJob(discovery);
    m_ranks = ranks ? static_cast<int>(worker::entriesByRank(discovery).size()) : 0;
    for (std::size_t i = 0; i < discovery.graphs.size(); ++i) {
        const io::GraphEntry& e = discovery.graphs[i];
        const QString sourcePath = sourceOf(e);
        Item*& source = sources[sourcePath];
        if (!source) {
            auto item = std::make_unique<Item>();
            item->type = ItemType::Source;
            QString label = rootDir.relativeFilePath(QFileInfo(sourcePath).absoluteFilePath());
            if (label.isEmpty() || label == QLatin1String("."))
                label = QFileInfo(sourcePath).fileName();
            item->name = label;
            item->kind = QString::fromUtf8(io::sourceFormatName(e.format).data(),
                                           static_cast<qsizetype>(io::sourceFormatName(e.format).size()));
            item->tooltip = sourcePath;
            source = m_root->add(std::move(item));
        }
        const QString groupName = QString::fromStdString(e.group);
        Item*& group = groups[{source, groupName}];
        if (!group) {
            auto item = std::make_unique<Item>();
            item->type = ItemType::Group;
            item->name = groupName.isEmpty() ? tr("(no group)") : groupName;
            item->tooltip = item->name;
            group = source->add(std::move(item));
        }
        auto graphItem = std::make_unique<Item>();
        graphItem->type = ItemType::Graph;
        graphItem->name = QString::fromStdString(e.title);
        const std::string_view kind = io::graphKindName(e.kind);
        graphItem->kind = QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size()));
        graphItem->address = QString::fromStdString(e.address);
        graphItem->tooltip = graphItem->address;
        graphItem->entry = static_cast<int>(i);
        graphItem->rank = ranks ? worker::graphRank(e) : -1;
        m_graphs[i].item = group->add(std::move(graphItem));
    }
    if (ranks)
        markRanks();
    endResetModel();
}

// A distributed job: the highest level whose rows hold one rank's graphs (a per-rank log, or a per-rank model of a
// seed-dump folder) is titled with its rank.
void DumpBrowserModel::markRanks()
{
    const auto rankOf = [](const Item& item) {
        int rank = -2;  // none seen yet
        std::function<bool(const Item&)> walk = [&](const Item& it) {
            if (it.type == ItemType::Graph) {
                if (rank != -2 && rank != it.rank)
                    return false;
                rank = it.rank;
            }
            for (const auto& c : it.children)
                if (!walk(*c))
                    return false;
            return true;
        };
        return walk(item) && rank >= 0 ? rank : -1;
    };
    const auto mark = [this](Item& item, int rank) {
        item.rank = rank;
        item.name = tr("rank %1 · %2").arg(rank).arg(item.name);
        item.tooltip = tr("rank %1 of a %2-rank job (Replay ranks together… in the context menu): %3")
                           .arg(rank)
                           .arg(m_ranks)
                           .arg(item.tooltip);
    };
    for (auto& source : m_root->children) {
        if (const int rank = rankOf(*source); rank >= 0) {
            mark(*source, rank);
            continue;
        }
        for (auto& group : source->children)
            if (const int rank = rankOf(*group); rank >= 0)
                mark(*group, rank);
    }
}

int DumpBrowserModel::groupCount() const
{
    int n = 0;
    for (const auto& source : m_root->children)
        n += static_cast<int>(source->children.size());
    return n;
}

DumpBrowserModel::Item* DumpBrowserModel::itemFor(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return static_cast<Item*>(index.internalPointer());
}

const DumpBrowserModel::GraphState* DumpBrowserModel::stateFor(const QModelIndex& index) const
{
    const Item* item = itemFor(index);
    if (!item || item->type != ItemType::Graph || item->entry < 0 ||
        static_cast<std::size_t>(item->entry) >= m_graphs.size())
        return nullptr;
    return &m_graphs[static_cast<std::size_t>(item->entry)];
}

const io::GraphEntry* DumpBrowserModel::entry(const QModelIndex& index) const
{
    const Item* item = itemFor(index);
    if (!item || item->type != ItemType::Graph || !m_discovery)
        return nullptr;
    return &m_discovery->graphs[static_cast<std::size_t>(item->entry)];
}

std::shared_ptr<const io::LoadedGraph> DumpBrowserModel::loadedGraph(const QModelIndex& index) const
{
    const GraphState* s = stateFor(index);
    return s ? s->graph : nullptr;
}

QString DumpBrowserModel::loadError(const QModelIndex& index) const
{
    const GraphState* s = stateFor(index);
    return s ? s->error : QString();
}

bool DumpBrowserModel::isGraphDone(const QModelIndex& index) const
{
    const GraphState* s = stateFor(index);
    return s && s->done;
}

QModelIndex DumpBrowserModel::indexForEntry(int entryIndex, int column) const
{
    if (entryIndex < 0 || static_cast<std::size_t>(entryIndex) >= m_graphs.size())
        return {};
    Item* item = m_graphs[static_cast<std::size_t>(entryIndex)].item;
    return item ? createIndex(item->row, column, item) : QModelIndex();
}

QModelIndex DumpBrowserModel::firstGraphIndex() const
{
    return indexForEntry(0);
}

QModelIndex DumpBrowserModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    const Item* p = parent.isValid() ? itemFor(parent) : m_root.get();
    if (!p || static_cast<std::size_t>(row) >= p->children.size())
        return {};
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex DumpBrowserModel::parent(const QModelIndex& child) const
{
    const Item* item = itemFor(child);
    if (!item || !item->parent || item->parent == m_root.get())
        return {};
    return createIndex(item->parent->row, 0, item->parent);
}

int DumpBrowserModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const Item* p = parent.isValid() ? itemFor(parent) : m_root.get();
    return p ? static_cast<int>(p->children.size()) : 0;
}

int DumpBrowserModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant DumpBrowserModel::data(const QModelIndex& index, int role) const
{
    const Item* item = itemFor(index);
    if (!item)
        return {};
    const GraphState* state = stateFor(index);
    const int nodes = state && state->graph ? static_cast<int>(state->graph->graph.nodes.size()) : -1;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return item->name;
        case KindColumn: {
            if (item->type == ItemType::Group)
                return item->children.size() == 1 ? tr("1 graph") : tr("%1 graphs").arg(item->children.size());
            const qsizetype twins = state ? identicalGraphs(index).size() : 0;
            return twins > 0 ? tr("%1  ≡%2").arg(item->kind).arg(twins + 1) : item->kind;
        }
        case NodesColumn:
            if (!state)
                return {};
            if (!state->done)
                return QStringLiteral("…");
            return nodes >= 0 ? QVariant(nodes) : QVariant(tr("error"));
        case AddressColumn: return item->type == ItemType::Source ? item->tooltip : item->address;
        default: return {};
        }
    case Qt::ToolTipRole:
        if (state && !state->error.isEmpty())
            return tr("Could not load %1:\n%2").arg(item->address, state->error);
        if (const QStringList twins = state ? identicalGraphs(index) : QStringList(); !twins.isEmpty() && index.column() == KindColumn)
            return tr("Structurally identical to:\n%1").arg(twins.join(QLatin1Char('\n')));
        if (const auto it = m_verdicts.find(item->address); it != m_verdicts.end() && index.column() == NameColumn)
            return tr("%1\nlast replay: %2").arg(item->tooltip, it.value());
        return item->tooltip;
    case Qt::DecorationRole:
        if (index.column() == NameColumn && item->type == ItemType::Graph) {
            if (state && state->done && !state->graph)
                return verdictIcon(QStringLiteral("error"));
            if (const auto it = m_verdicts.find(item->address); it != m_verdicts.end())
                return verdictIcon(it.value().section(QLatin1Char(' '), 0, 0));
        }
        return {};
    case VerdictRole: {
        const auto it = m_verdicts.find(item->address);
        return it != m_verdicts.end() ? it.value() : QString();
    }
    case Qt::TextAlignmentRole:
        if (index.column() == NodesColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case AddressRole: return item->address;
    case ItemTypeRole: return static_cast<int>(item->type);
    case NodeCountRole: return nodes;
    case EntryRole: return item->entry;
    case RankRole: return item->rank;
    default: return {};
    }
}

QStringList DumpBrowserModel::identicalGraphs(const QModelIndex& index) const
{
    const GraphState* state = stateFor(index);
    QStringList out;
    if (!state || !state->graph)
        return out;
    for (const GraphState& other : m_graphs)
        if (&other != state && other.graph && other.hash == state->hash && other.item)
            out << other.item->address;
    return out;
}

void DumpBrowserModel::setReplayVerdict(const QString& address, const QString& verdict)
{
    m_verdicts[address] = verdict;
    for (std::size_t e = 0; e < m_graphs.size(); ++e) {
        const QModelIndex i = indexForEntry(static_cast<int>(e));
        if (i.data(AddressRole).toString() == address)
            Q_EMIT dataChanged(i, i, {Qt::DecorationRole, Qt::ToolTipRole, VerdictRole});
    }
}

QIcon DumpBrowserModel::verdictIcon(const QString& verdict)
{
    // A filled dot: green pass, orange mismatch, red error (or not loadable), purple NaN, grey unsupported.
    static QHash<QString, QIcon> cache;
    if (const auto it = cache.find(verdict); it != cache.end())
        return *it;
    QColor c(0x90, 0x90, 0x90);
    if (verdict == QStringLiteral("pass"))
        c = QColor(0x2e, 0x9e, 0x44);
    else if (verdict == QStringLiteral("mismatch"))
        c = QColor(0xf0, 0x8c, 0x00);
    else if (verdict == QStringLiteral("error") || verdict == QStringLiteral("fatal"))
        c = QColor(0xd0, 0x20, 0x20);
    else if (verdict == QStringLiteral("nan"))
        c = QColor(0x9c, 0x27, 0xb0);
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(c);
    painter.setPen(c.darker(130));
    painter.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    painter.end();
    return *cache.insert(verdict, QIcon(pixmap));
}

QVariant DumpBrowserModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case KindColumn: return tr("Kind");
    case NodesColumn: return tr("Nodes");
    case AddressColumn: return tr("Address");
    default: return {};
    }
}

}  // namespace fxray::views
