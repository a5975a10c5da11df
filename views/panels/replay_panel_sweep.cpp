// The Replay panel's fault hunts (replay_panel.h, issue 24): the "Sweep seeds … until …" and "Repeat runs" options,
// the sweep job on the replay service (worker::ReplayWorker::sweep: the whole sweep or repeat run in the worker, one
// line per seed back), its end (the failing seed, the first node that is not deterministic), and "Replay seed S".
#include "views/panels/replay_panel.h"

#include "base/error.h"
#include "views/models/replay_results_model.h"
#include "views/panels/replay_panel_stream.h"
#include "views/services/replay_service.h"
#include "worker/replay_worker.h"

#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

#include <limits>
#include <mutex>

namespace fxray::views {

namespace {
int clampInt(std::uint64_t v) { return static_cast<int>(std::min<std::uint64_t>(v, std::numeric_limits<int>::max())); }
}  // namespace

void ReplayPanel::buildSweepOptions()
{
    m_sweepSeeds = new QSpinBox;
    m_sweepSeeds->setObjectName(QStringLiteral("replaySweepSeeds"));
    m_sweepSeeds->setRange(1, std::numeric_limits<int>::max());
    m_sweepSeeds->setValue(1);
    m_sweepSeeds->setToolTip(tr("Above 1: Run replays this many seeds from Seed on, in one worker, and stops at the "
                                "first seed that fails; 1: one replay of Seed"));
    m_sweepUntil = new QComboBox;
    m_sweepUntil->setObjectName(QStringLiteral("replaySweepUntil"));
    m_sweepUntil->addItem(tr("any failure"), QStringLiteral("nan,mismatch,error"));
    m_sweepUntil->addItem(tr("NaN/Inf"), QStringLiteral("nan"));
    m_sweepUntil->addItem(tr("mismatch"), QStringLiteral("mismatch"));
    m_sweepUntil->addItem(tr("error"), QStringLiteral("error"));
    m_sweepUntil->addItem(tr("outputs differ from cpu"), QStringLiteral("diverge:cpu"));
    m_sweepUntil->setToolTip(tr("What makes a seed fail. \"outputs differ from cpu\": each seed's outputs are compared "
                                "with a replay of the same inputs on the CPU (for a CUDA device)"));
    m_repeatRuns = new QSpinBox;
    m_repeatRuns->setObjectName(QStringLiteral("replayRepeatRuns"));
    m_repeatRuns->setRange(0, 100000);
    m_repeatRuns->setValue(0);
    m_repeatRuns->setSpecialValueText(tr("off"));
    m_repeatRuns->setToolTip(tr("Above 0: each seed's inputs are replayed this many more times and every node's output "
                                "bits compared between runs; Run stops at the first node that is not deterministic "
                                "(fxray replay --repeat N --until diverge)"));
    m_replaySeed = new QPushButton;
    m_replaySeed->setObjectName(QStringLiteral("replayFailingSeed"));
    m_replaySeed->setToolTip(tr("Replay the seed the last sweep stopped at, alone"));
    m_replaySeed->hide();
    connect(m_replaySeed, &QPushButton::clicked, this, &ReplayPanel::replayFailingSeed);
}

void ReplayPanel::setSweep(int seeds, const QString& until)
{
    m_sweepSeeds->setValue(std::max(seeds, 1));
    int at = m_sweepUntil->findData(until);
    if (at < 0) {
        m_sweepUntil->addItem(until, until);
        at = m_sweepUntil->count() - 1;
    }
    m_sweepUntil->setCurrentIndex(at);
}

void ReplayPanel::setRepeatRuns(int runs) { m_repeatRuns->setValue(std::max(runs, 0)); }

int ReplayPanel::repeatRuns() const { return m_repeatRuns->value(); }

bool ReplayPanel::huntsFaults() const { return m_sweepSeeds->value() > 1 || m_repeatRuns->value() > 0; }

replay::SweepSpec ReplayPanel::sweepSpec(const replay::ReplayOptions& o) const
{
    replay::SweepSpec spec;
    spec.first = o.seed;
    spec.last = o.seed + static_cast<std::uint64_t>(m_sweepSeeds->value()) - 1;
    QString until = m_sweepUntil->currentData().toString();
    if (m_repeatRuns->value() > 0)
        until += QStringLiteral(",diverge");  // the runs compared too (--repeat N --until ...,diverge)
    replay::parseUntil(until.toStdString(), spec);
    spec.repeat = m_repeatRuns->value();
    if (o.inputs == replay::ReplayOptions::Inputs::Saved && spec.count() > 1)
        throw Error("Sweep seeds with saved inputs: the seed makes generated inputs; saved inputs are the same for every seed");
    return spec;
}

void ReplayPanel::startSweep(replay::ReplayOptions o)
{
    replay::SweepSpec spec;
    try {
        spec = sweepSpec(o);
    } catch (const Error& e) {
        m_sweeping = false;
        m_status->setText(QString::fromUtf8(e.what()));
        Q_EMIT failed(QString::fromUtf8(e.what()));
        return;
    }
    o.cudaGraph = false;  // a sweep replays each seed once, checked (as the CLI insists)
    m_replaySeed->hide();
    m_sweepSpec = spec;
    // Seeds are counted as the worker starts them; one seed's repeat runs come back as one answer: a busy bar.
    m_progress->setRange(0, spec.count() > 1 ? clampInt(spec.count()) : 0);
    m_progress->setValue(0);
    setRunning(true);
    m_status->setText(spec.count() > 1 ? tr("sweeping %1 seeds from %2…").arg(spec.count()).arg(spec.first)
                                       : tr("replaying seed %1 %2 times, comparing the runs…").arg(spec.first).arg(spec.repeat + 1));
    auto graph = m_graph;
    auto stream = m_stream;
    const QString label = spec.count() > 1 ? tr("seed sweep of %1").arg(m_title) : tr("repeat runs of %1").arg(m_title);
    m_job = m_service->submit(this, runRequest(o, label), [this, graph, stream, o, spec](worker::ReplayWorker& w, const JobContext& job) {
        auto progress = [&](std::uint64_t, std::uint64_t done, std::uint64_t total) {
            std::lock_guard lock(stream->mutex);
            stream->done = done;
            stream->total = total;
            stream->requestDrain(job, [this] { drain(); });
        };
        replay::SweepResult result;
        if (job.cancelled()) {
            result.cancelled = true;
            result.seed = spec.first;
        } else {
            result = w.sweep(*graph, o, spec, job.cancelToken(), progress);
        }
        auto shared = std::make_shared<const replay::SweepResult>(std::move(result));
        job.post([this, shared] { onSweepFinished(shared); });
    });
    showQueue();
}

QString ReplayPanel::sweepLineFor(const replay::SweepResult& r) const
{
    const QString secs = QString::number(r.seconds, 'f', 2);
    const QString runs = m_sweepSpec.divergeRuns ? tr(", %1 runs each").arg(m_sweepSpec.repeat + 1) : QString();
    if (r.found && !r.divergentNode.empty()) {
        // "diverge between runs at node 'relu' (aten.relu.default): output 0 (...) differs ...": what differs.
        QString what = QString::fromStdString(r.failure);
        if (const int at = what.indexOf(QStringLiteral("): ")); what.startsWith(QLatin1String("diverge between runs at ")) && at > 0)
            what = what.mid(at + 3);
        return tr("seed %1: node %2 is not deterministic (run %3 differs from run 1): %4 (%5 of %6 seeds%7, %8 s)")
            .arg(r.seed)
            .arg(QString::fromStdString(r.divergentNode))
            .arg(r.divergentRun)
            .arg(what)
            .arg(r.seedsRun)
            .arg(m_sweepSpec.count())
            .arg(runs, secs);
    }
    if (r.found)
        return tr("seed %1 fails: %2 (%3 of %4 seeds%5, %6 s)")
            .arg(r.seed)
            .arg(QString::fromStdString(r.failure))
            .arg(r.seedsRun)
            .arg(m_sweepSpec.count())
            .arg(runs, secs);
    if (r.cancelled)
        return tr("sweep cancelled after %1 clean seed(s) (%2 s)").arg(r.seedsRun).arg(secs);
    if (m_sweepSpec.divergeRuns && m_sweepSpec.count() == 1)
        return tr("deterministic: %1 runs of seed %2 agree at every node (%3 s)").arg(m_sweepSpec.repeat + 1).arg(r.seed).arg(secs);
    return tr("no seed fails: %1 seeds clean%2 (%3 s)").arg(r.seedsRun).arg(runs, secs);
}

void ReplayPanel::onSweepFinished(std::shared_ptr<const replay::SweepResult> result)
{
    if (!m_running)
        return;
    m_sweepResult = result;
    m_sweeping = false;
    m_sweepLine = sweepLineFor(*result);
    if (result->found) {
        m_seed->setValue(clampInt(result->seed));
        m_replaySeed->setText(tr("Replay seed %1").arg(result->seed));
        m_replaySeed->show();
    }
    const std::uint64_t seedsRun = result->seedsRun;
    if (result->found || !result->report.nodes.empty()) {
        onFinished(std::make_shared<const replay::ReplayReport>(result->report));
    } else {  // cancelled before any seed's report: keep the rows, stop
        m_stream.reset();
        m_job = 0;
        m_cancelling = false;
        setRunning(false);
        m_status->setText(m_sweepLine);
        Q_EMIT finished(m_sweepLine);
    }
    // The bar counts seeds, not the last report's nodes.
    m_progress->setRange(0, std::max(clampInt(m_sweepSpec.count()), 1));
    m_progress->setValue(clampInt(seedsRun));
    // The first node that is not deterministic: shown, as if its row had been clicked.
    if (!result->divergentNode.empty() && m_graph)
        for (std::size_t i = 0; i < m_graph->graph.nodes.size(); ++i)
            if (m_graph->graph.nodes[i].name == result->divergentNode) {
                selectNode(static_cast<int>(i));
                Q_EMIT nodeActivated(static_cast<int>(i));
                break;
            }
}

void ReplayPanel::replayFailingSeed()
{
    if (!m_sweepResult || !m_sweepResult->found || m_running)
        return;
    m_seed->setValue(clampInt(m_sweepResult->seed));
    m_sweepSeeds->setValue(1);  // that seed alone; repeat runs stay as they were (a nondeterminism reproduces)
    start();
}

}  // namespace fxray::views
