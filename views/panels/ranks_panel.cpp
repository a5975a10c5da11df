#include "views/panels/ranks_panel.h"

#include "graph/collective_check.h"
#include "views/models/rank_results_model.h"
#include "views/services/replay_service.h"
#include "worker/distributed_job.h"
#include "worker/dtensor_reference.h"
#include "worker/rank_job_check.h"
#include "worker/rank_set.h"
#include "worker/temp_dir.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace fxray::views {

// What the job hands back: the rows and each rank's column, and how the job went.
struct RanksRun {
    QStringList rows;
    std::vector<RankColumn> ranks;
    QString outcome;   // as RanksPanel::finished says it
    QString summary;   // the line above the table
};

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Each rank's graphs loaded in run order (graphs[r]), the rows and columns set up in `out`; the load errors.
QStringList loadRanks(const io::Discovery& d, RanksRun& out, std::vector<std::vector<io::LoadedGraph>>& graphs)
{
    const auto byRank = worker::entriesByRank(d);
    QStringList loadErrors;
    for (const auto& [rank, entries] : byRank) {
        RankColumn column;
        column.rank = rank;
        auto& list = graphs.emplace_back();
        for (std::size_t k = 0; k < entries.size(); ++k) {
            if (out.rows.size() <= static_cast<qsizetype>(k))
                out.rows << qs(worker::rankRowLabel(*entries[k]));
            try {
                list.push_back(io::loadGraph(*entries[k]));
                column.addresses.push_back(qs(entries[k]->address));
            } catch (const std::exception& e) {
                loadErrors << RanksPanel::tr("rank %1: %2").arg(rank).arg(QString::fromUtf8(e.what()));
            }
        }
        out.ranks.push_back(std::move(column));
    }
    return loadErrors;
}

// The line above the table, and the verdict, once the job ran; each rank's reports into its column.
void takeOutcome(const worker::DistributedOutcome& o, const std::string& backend, RanksRun& out)
{
    bool allPass = !o.stoppedEarly;
    QStringList collectives;
    for (std::size_t r = 0; r < o.ranks.size() && r < out.ranks.size(); ++r) {
        out.ranks[r].reports = o.ranks[r].reports;
        out.ranks[r].pending = qs(o.ranks[r].pending);
        int run = 0, total = 0;
        for (const auto& rep : o.ranks[r].reports) {
            const auto [a, b] = RankResultsModel::collectivesRun(rep);
            run += a;
            total += b;
            allPass = allPass && rep.verdict() == "pass";
        }
        collectives << RanksPanel::tr("rank %1 %2/%3").arg(o.ranks[r].rank).arg(run).arg(total);
    }
    out.outcome = o.cancelled ? QStringLiteral("cancelled") : allPass ? QStringLiteral("pass") : QStringLiteral("fail");
    out.summary = RanksPanel::tr("distributed replay: %1 ranks over %2, %3 s · collectives run: %4")
                      .arg(o.ranks.size())
                      .arg(qs(backend))
                      .arg(o.seconds, 0, 'f', 1)
                      .arg(collectives.join(QLatin1Char(' ')));
    if (o.cancelled)
        out.summary += RanksPanel::tr(" · cancelled");
    else if (o.stoppedEarly)
        out.summary += RanksPanel::tr("\njob stopped (a hang, a broken group or a rank that failed): %1").arg(qs(o.why));
}

// The job's body, on the tracker's pool: discover, load by rank, check the collectives, run.
RanksRun runRanks(const std::string& path, const std::string& program, const replay::ReplayOptions& options,
                  std::chrono::milliseconds collectiveTimeout, const JobContext& job)
{
    RanksRun out;
    const io::Discovery d = io::discover(path);
    if (!worker::isRankJob(d)) {
        out.outcome = QStringLiteral("error");
        out.summary = RanksPanel::tr("%1 is not a distributed job: it needs graphs of two ranks or more (rank in the log's "
                                     "or the dump's name), and no graph without a rank").arg(qs(path));
        return out;
    }
    std::vector<std::vector<io::LoadedGraph>> graphs;
    if (const QStringList loadErrors = loadRanks(d, out, graphs); !loadErrors.isEmpty()) {
        out.outcome = QStringLiteral("error");
        out.summary = RanksPanel::tr("not every rank's graphs load, so the ranks cannot run together: %1").arg(loadErrors.join(QStringLiteral("; ")));
        return out;
    }
    std::vector<std::vector<const io::LoadedGraph*>> perRank;
    for (const auto& list : graphs) {
        auto& ptrs = perRank.emplace_back();
        for (const io::LoadedGraph& g : list)
            ptrs.push_back(&g);
    }
    // The same check as the CLI's: group members from the recorded mesh where the logs name none.
    const worker::RankJobCheck rankCheck = worker::checkRankJob(perRank);
    const graph::CollectiveCheck& check = rankCheck.check;
    if (!check.ok()) {
        out.outcome = QStringLiteral("refused");
        out.summary = RanksPanel::tr("collective check failed before anything ran (the ranks would hang or pair wrong "
                                     "buffers): %1").arg(qs(check.mismatches.front()));
        return out;
    }
    worker::DistributedJobConfig config;
    config.program = program;
    config.groups = check.groups;
    if (config.groups.empty())  // no collective at all: the world group still exists, as in the run
        for (std::size_t r = 0; r < graphs.size(); ++r)
            config.groups["0"].push_back(static_cast<int>(r));
    config.collectiveTimeout = collectiveTimeout;
    config.backend = options.device.rfind("cuda", 0) == 0 ? "nccl" : "gloo";
    config.cancel = job.cancelToken();
    // DTensor compiles: inputs cut from one global tensor and the single-rank reference (cells "=ref" / "!=ref").
    worker::TempDir referenceDir("fxray-reference-");
    const worker::DtensorReferences refs = worker::prepareDtensorReferences(perRank, rankCheck.meshes, options, program, referenceDir.path);
    config.stages = refs.stages;
    config.unsharded = refs.unsharded;
    config.skip = rankCheck.skip;  // graphs with collectives some rank cannot start: run by no rank
    takeOutcome(worker::runDistributedJob(perRank, options, config), config.backend, out);
    for (const auto& ref : refs.references)
        out.summary += RanksPanel::tr("\nsingle-rank reference of compile %1 (dynamo graph, unsharded): %2 %3/%4")
                           .arg(qs(ref.compile), qs(ref.report.verdict()))
                           .arg(ref.report.count(replay::NodeStatus::Passed))
                           .arg(ref.report.nodes.size());
    for (const std::string& note : refs.notes)  // compiles left out of the reference and why, as the CLI prints them
        out.summary += "\n" + qs(note);
    return out;
}

}  // namespace

RanksPanel::RanksPanel(QWidget* parent)
    : QWidget(parent)
    , m_program(ReplayService::shared()->defaultProgram())
    , m_pathLabel(new QLabel)
    , m_device(new QComboBox)
    , m_seed(new QSpinBox)
    , m_timeout(new QSpinBox)
    , m_run(new QPushButton(tr("Run")))
    , m_stop(new QPushButton(tr("Cancel")))
    , m_busy(new QProgressBar)
    , m_summary(new QLabel)
    , m_table(new QTableView)
    , m_model(new RankResultsModel(this))
{
    setObjectName(QStringLiteral("ranksPanel"));
    m_pathLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_device->setEditable(true);
    m_device->addItems({QStringLiteral("cpu"), QStringLiteral("cuda")});
    m_device->setToolTip(tr("cpu: the ranks run over Gloo; cuda: over NCCL, rank r on cuda:r"));
    m_seed->setRange(0, 1 << 30);
    m_seed->setPrefix(tr("seed "));
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(30);
    m_timeout->setPrefix(tr("collective timeout "));
    m_timeout->setSuffix(tr(" s"));
    m_busy->setRange(0, 1);
    m_busy->setTextVisible(false);
    m_summary->setObjectName(QStringLiteral("ranksSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Click a rank's cell to open that rank's graph in the Graph tab"));

    auto* top = new QHBoxLayout;
    top->addWidget(m_pathLabel, 1);
    top->addWidget(m_device);
    top->addWidget(m_seed);
    top->addWidget(m_timeout);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    connect(m_run, &QPushButton::clicked, this, &RanksPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &RanksPanel::cancel);
    connect(m_table, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        const QString address = index.data(RankResultsModel::AddressRole).toString();
        if (!address.isEmpty())
            Q_EMIT openGraph(address);
    });
    setRunning(false);
}

RanksPanel::~RanksPanel()
{
    m_jobs->discard(m_job);  // every rank's worker is killed by the job's watchdog
}

void RanksPanel::setPath(const QString& path)
{
    m_path = path;
    m_pathLabel->setText(path);
    setRunning(m_running);
}

void RanksPanel::setDevice(const QString& device) { m_device->setCurrentText(device); }

void RanksPanel::setCollectiveTimeout(int seconds) { m_timeout->setValue(seconds); }

QString RanksPanel::summaryText() const { return m_summary->text(); }

void RanksPanel::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running && !m_path.isEmpty());
    m_stop->setEnabled(running);
    m_device->setEnabled(!running);
    m_seed->setEnabled(!running);
    m_timeout->setEnabled(!running);
    m_busy->setRange(0, running ? 0 : 1);
    m_busy->setValue(0);
}

void RanksPanel::start()
{
    if (m_path.isEmpty())
        return;
    replay::ReplayOptions options;
    options.device = m_device->currentText().trimmed().toStdString();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    const std::string path = m_path.toStdString(), program = m_program.toStdString();
    const auto timeout = std::chrono::milliseconds(static_cast<std::int64_t>(m_timeout->value()) * 1000);
    m_model->clear();
    m_summary->setText(tr("checking the ranks' collectives, then starting one worker per rank…"));
    setRunning(true);
    m_job = m_jobs->run(
        this, QStringLiteral("ranks"),
        [path, program, options, timeout](const JobContext& job) {
            try {
                return runRanks(path, program, options, timeout, job);
            } catch (const std::exception& e) {
                RanksRun failed;
                failed.outcome = QStringLiteral("error");
                failed.summary = QString::fromUtf8(e.what());
                return failed;
            }
        },
        [this](const RanksRun& run) { onDone(run); });
}

void RanksPanel::cancel()
{
    m_jobs->cancel(m_job);
    if (m_running)
        m_summary->setText(tr("cancelling: stopping every rank…"));
}

void RanksPanel::onDone(const RanksRun& run)
{
    m_job = 0;
    setRunning(false);
    m_model->setRanks(run.rows, run.ranks);
    m_table->resizeColumnsToContents();
    m_summary->setText(run.summary);
    Q_EMIT finished(run.outcome);
}

}  // namespace fxray::views
