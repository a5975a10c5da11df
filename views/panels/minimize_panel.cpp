#include "views/panels/minimize_panel.h"

#include "base/error.h"
#include "io/graph_source.h"
#include "io/text_file.h"
#include "minimize/minimizer.h"
#include "minimize/result_export.h"
#include "views/services/replay_service.h"
#include "worker/replay_worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <filesystem>

namespace fxray::views {

MinimizePanel::MinimizePanel(QWidget* parent)
    : QWidget(parent)
    , m_service(ReplayService::shared())
    , m_program(m_service->defaultProgram())
    , m_outputRoot(QDir::temp().filePath(QStringLiteral("fxray-minimized")))
    , m_graphLabel(new QLabel(tr("No graph selected")))
    , m_until(new QComboBox)
    , m_device(new QComboBox)
    , m_seed(new QSpinBox)
    , m_keepStatement(new QCheckBox(tr("Keep a NaN's statement whole")))
    , m_run(new QPushButton(tr("Minimize")))
    , m_stop(new QPushButton(tr("Cancel")))
    , m_busy(new QProgressBar)
    , m_live(new QLabel)
    , m_log(new QPlainTextEdit)
{
    setObjectName(QStringLiteral("minimizePanel"));
    m_graphLabel->setWordWrap(true);
    m_graphLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_until->setEditable(true);
    m_until->setObjectName(QStringLiteral("minimizeUntil"));
    m_until->addItems({QStringLiteral("mismatch,error,nan"), QStringLiteral("mismatch"), QStringLiteral("error"),
                       QStringLiteral("nan"), QStringLiteral("diverge:cpu"), QStringLiteral("cmd:python {} --compile")});
    m_until->setToolTip(tr("What counts as failing: mismatch, error[:REGEX], nan, diverge[:DEVICE], cmd:COMMAND "
                           "({} is the repro's path); several joined by ','"));
    m_device->setEditable(true);
    m_device->addItems({QStringLiteral("cpu"), QStringLiteral("cuda")});
    m_seed->setRange(0, 1 << 30);
    m_keepStatement->setChecked(true);
    m_keepStatement->setToolTip(tr("For NaN/Inf: keep the nodes of the failing model statement together, so the repro "
                                   "shows the statement that made the NaN"));
    m_stop->setEnabled(false);
    m_busy->setRange(0, 1);
    m_busy->setTextVisible(false);
    m_live->setObjectName(QStringLiteral("minimizeLive"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);

    auto* form = new QFormLayout;
    form->addRow(tr("Graph"), m_graphLabel);
    form->addRow(tr("Fails with"), m_until);
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(QString(), m_keepStatement);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_busy);
    layout->addWidget(m_live);
    layout->addWidget(m_log, 1);

    connect(m_run, &QPushButton::clicked, this, &MinimizePanel::start);
    connect(m_stop, &QPushButton::clicked, this, &MinimizePanel::cancel);
    setRunning(false);
}

MinimizePanel::~MinimizePanel()
{
    m_service->discard(m_job);  // stops at its next query; nothing waits for it
}

void MinimizePanel::setGraph(const QString& address, const QString& title)
{
    m_address = address;
    m_title = title.isEmpty() ? QDir(address).dirName() : title;
    m_graphLabel->setText(address.isEmpty() ? tr("No graph selected") : m_title);
    m_graphLabel->setToolTip(address);
    setRunning(m_running);
}

void MinimizePanel::setUntil(const QString& spec)
{
    m_until->setCurrentText(spec);
}

void MinimizePanel::setDevice(const QString& device)
{
    m_device->setCurrentText(device);
}

QString MinimizePanel::liveText() const
{
    return m_live->text();
}

QString MinimizePanel::logText() const
{
    return m_log->toPlainText();
}

void MinimizePanel::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running && !m_address.isEmpty());
    m_stop->setEnabled(running);
    m_until->setEnabled(!running);
    m_device->setEnabled(!running);
    m_seed->setEnabled(!running);
    m_keepStatement->setEnabled(!running);
    m_busy->setRange(0, running ? 0 : 1);  // a busy indicator while running
    m_busy->setValue(0);
}

void MinimizePanel::start()
{
    if (m_running || m_address.isEmpty())
        return;
    minimize::MinimizeOptions options;
    const QString until = m_until->currentText().trimmed();
    try {
        options.failures = minimize::parseFailureSpecs(until.toStdString());
    } catch (const Error& e) {
        m_log->appendPlainText(QString::fromStdString(e.what()));
        Q_EMIT failed(QString::fromStdString(e.what()));
        return;
    }
    options.replay.device = m_device->currentText().trimmed().toStdString();
    options.replay.seed = static_cast<std::uint64_t>(m_seed->value());
    options.keepStatement = m_keepStatement->isChecked();
    // Each run gets a fresh folder: nothing a previous run produced is overwritten.
    QDir root(m_outputRoot);
    root.mkpath(QStringLiteral("."));
    QString outDir;
    for (int n = 1;; ++n) {
        outDir = root.filePath(QStringLiteral("%1-%2").arg(m_title).arg(n));
        if (!QFileInfo::exists(outDir))
            break;
    }
    m_log->appendPlainText(tr("Minimizing %1 until %2 on %3…").arg(m_title, until, m_device->currentText()));
    m_live->setText(tr("starting the replay worker…"));
    setRunning(true);

    ReplayRequest request;
    request.program = m_program;
    request.device = m_device->currentText();
    request.tag = QStringLiteral("minimize");
    request.label = tr("minimize %1").arg(m_title);
    request.timeout = std::chrono::minutes(2);  // a candidate that hangs ends its query, not the search
    const std::string address = m_address.toStdString();
    const std::string out = outDir.toStdString(), untilText = until.toStdString();
    m_job = m_service->submit(this, request, [this, options, address, out, untilText](worker::ReplayWorker& runner,
                                                                                     const JobContext& job) mutable {
        auto post = [&job, this](auto fn) { job.post([this, fn] { fn(this); }); };
        try {
            const io::LoadedGraph original = io::loadAddress(address);
            const int startsBefore = runner.starts();  // the device's worker is shared: count this search's starts
            const std::filesystem::path scratch = std::filesystem::path(out) / ".candidate";
            options.exportForCommand = minimize::candidateReproWriter(options, scratch.string());
            auto sink = [&](const minimize::MinimizeProgress& p) {
                const QString strategy = QString::fromStdString(p.strategy);
                post([=](MinimizePanel* panel) { panel->onProgress(strategy, p.nodesLeft, p.queries, p.elapsedS); });
            };
            const minimize::MinimizeResult res = minimize::minimizeGraph(original, options, runner, job.cancelToken(), sink);
            io::removeTree(scratch.string());
            QString log;
            for (const auto& l : res.log)
                log += QString::fromStdString(l) + QLatin1Char('\n');
            if (!res.reproduced) {
                const QString why = QString::fromStdString(res.why);
                post([=](MinimizePanel* panel) { panel->onDone({}, log + why, 0, false); });
                return;
            }
            json::Value summary = minimize::summaryJson(original, options, res, untilText, runner.starts() - startsBefore);
            const minimize::ExportedResult files = minimize::exportResult(res, options, out, summary);
            const QString text = log + QStringLiteral("%1 → %2 nodes in %3 queries, %4 s%5\nwritten to %6")
                                           .arg(res.originalNodes)
                                           .arg(res.minimizedNodes)
                                           .arg(res.queries)
                                           .arg(res.seconds, 0, 'f', 2)
                                           .arg(res.cancelled ? QStringLiteral(" (cancelled: the smallest so far)") : QString())
                                           .arg(QString::fromStdString(out));
            const QString dump = QString::fromStdString(files.dump);
            const int nodes = res.minimizedNodes;
            post([=](MinimizePanel* panel) { panel->onDone(dump, text, nodes, true); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            post([=](MinimizePanel* panel) { panel->onDone({}, message, 0, false); });
        }
    });
    const QString busy = m_service->runningLabel(request.device, m_program);
    if (!busy.isEmpty())
        m_live->setText(tr("waiting for the %1 worker: it runs %2").arg(ReplayService::laneDevice(request.device), busy));
}

void MinimizePanel::cancel()
{
    m_service->cancel(m_job);
    m_live->setText(tr("cancelling…"));
}

void MinimizePanel::onProgress(const QString& strategy, int nodesLeft, int queries, double seconds)
{
    m_live->setText(tr("%1 · %2 nodes · %3 queries · %4 s").arg(strategy).arg(nodesLeft).arg(queries).arg(seconds, 0, 'f', 1));
    Q_EMIT progressed(nodesLeft, queries);
}

void MinimizePanel::onDone(const QString& dump, const QString& message, int nodes, bool ok)
{
    setRunning(false);
    m_log->appendPlainText(message);
    if (ok) {
        m_live->setText(tr("done: %1 nodes").arg(nodes));
        Q_EMIT finished(dump, m_title, nodes);
    } else {
        m_live->setText(tr("failed"));
        Q_EMIT failed(message);
    }
}

}  // namespace fxray::views
