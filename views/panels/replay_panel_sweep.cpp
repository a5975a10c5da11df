// The Replay panel's seed sweep (replay_panel.h): the "Sweep seeds … until …" options, the sweep job on the
// panel's pool (worker::ReplayWorker::sweep: the whole sweep in the worker, one line per seed back), and its end.
#include "views/panels/replay_panel.h"

#include "base/error.h"
#include "views/models/replay_results_model.h"
#include "views/panels/replay_panel_engine.h"
#include "worker/replay_worker.h"

#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>

#include <limits>
#include <mutex>

namespace fxray::views {


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

replay::SweepSpec ReplayPanel::sweepSpec(const replay::ReplayOptions& o) const
{
    replay::SweepSpec spec;
    spec.first = o.seed;
    spec.last = o.seed + static_cast<std::uint64_t>(m_sweepSeeds->value()) - 1;
    replay::parseUntil(m_sweepUntil->currentData().toString().toStdString(), spec);
    return spec;
}

void ReplayPanel::startSweep(const replay::ReplayOptions& o, quint64 generation)
{
    replay::SweepSpec spec;
    try {
        spec = sweepSpec(o);
    } catch (const Error& e) {
        m_status->setText(QString::fromUtf8(e.what()));
        Q_EMIT failed(QString::fromUtf8(e.what()));
        return;
    }
    m_progress->setRange(0, static_cast<int>(std::min<std::uint64_t>(spec.count(), std::numeric_limits<int>::max())));
    m_progress->setValue(0);
    setRunning(true);
    m_status->setText(tr("sweeping %1 seeds from %2…").arg(spec.count()).arg(spec.first));
    auto engine = m_engine;
    auto graph = m_graph;
    auto cancel = m_cancel;
    auto stream = m_stream;
    const std::string program = m_program.toStdString();
    m_pool.start([this, engine, graph, cancel, stream, program, o, spec, generation] {
        auto progress = [&](std::uint64_t, std::uint64_t done, std::uint64_t total) {
            std::lock_guard lock(stream->mutex);
            stream->done = done;
            stream->total = total;
            if (stream->posted)
                return;
            stream->posted = true;
            QMetaObject::invokeMethod(this, [this, generation] { drain(generation); }, Qt::QueuedConnection);
        };
        replay::SweepResult result;
        if (cancel->cancelled.load()) {
            result.cancelled = true;
            result.seed = spec.first;
        } else {
            result = engine->workerFor(program).sweep(*graph, o, spec, cancel.get(), progress);
        }
        auto shared = std::make_shared<const replay::SweepResult>(std::move(result));
        QMetaObject::invokeMethod(this, [this, generation, shared] { onSweepFinished(generation, shared); }, Qt::QueuedConnection);
    });
}

void ReplayPanel::onSweepFinished(quint64 generation, std::shared_ptr<const replay::SweepResult> result)
{
    if (generation != m_generation || !m_running)
        return;
    m_sweepResult = result;
    m_sweeping = false;
    const QString secs = QString::number(result->seconds, 'f', 2);
    if (result->found) {
        m_sweepLine = tr("seed %1 fails: %2 (%3 of %4 seeds, %5 s)")
                          .arg(result->seed)
                          .arg(QString::fromStdString(result->failure))
                          .arg(result->seedsRun)
                          .arg(m_sweepSeeds->value())
                          .arg(secs);
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(result->seed, std::numeric_limits<int>::max())));
    } else {
        m_sweepLine = result->cancelled ? tr("sweep cancelled after %1 clean seed(s) (%2 s)").arg(result->seedsRun).arg(secs)
                                        : tr("no seed fails: %1 seeds clean (%2 s)").arg(result->seedsRun).arg(secs);
    }
    const std::uint64_t seedsRun = result->seedsRun;
    if (result->found || !result->report.nodes.empty()) {
        onFinished(generation, std::make_shared<const replay::ReplayReport>(result->report));
    } else {  // cancelled before any seed's report: keep the rows, stop
        m_stream.reset();
        m_cancel.reset();
        setRunning(false);
        m_status->setText(m_sweepLine);
        Q_EMIT finished(m_sweepLine);
    }
    // The bar counts seeds, not the last report's nodes.
    m_progress->setRange(0, std::max(m_sweepSeeds->value(), 1));
    m_progress->setValue(static_cast<int>(std::min<std::uint64_t>(seedsRun, std::numeric_limits<int>::max())));
}

}  // namespace fxray::views
