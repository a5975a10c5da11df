#include "views/panels/stages_panel.h"

#include "base/error.h"
#include "io/compile_stages.h"
#include "replay/api/stage_compare.h"
#include "views/models/stage_compare_model.h"
#include "views/services/replay_service.h"
#include "worker/replay_worker.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace fxray::views {

StagesPanel::StagesPanel(QWidget* parent)
    : QWidget(parent)
    , m_service(ReplayService::shared())
    , m_program(m_service->defaultProgram())
    , m_compileLabel(new QLabel(tr("No compile selected")))
    , m_device(new QComboBox)
    , m_seed(new QSpinBox)
    , m_run(new QPushButton(tr("Run")))
    , m_stop(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_summary(new QLabel)
    , m_kernel(new QPlainTextEdit)
    , m_table(new QTableView)
    , m_model(new StageCompareModel(this))
{
    setObjectName(QStringLiteral("stagesPanel"));
    m_compileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_device->setEditable(true);
    m_device->addItems({QStringLiteral("cpu"), QStringLiteral("cuda")});
    m_seed->setRange(0, 1 << 30);
    m_seed->setPrefix(tr("seed "));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_summary->setObjectName(QStringLiteral("stagesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kernel->setObjectName(QStringLiteral("stagesKernel"));
    m_kernel->setReadOnly(true);
    m_kernel->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_kernel->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_kernel->hide();
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Click a stage to open its graph in the Graph tab"));

    auto* top = new QHBoxLayout;
    top->addWidget(m_compileLabel, 1);
    top->addWidget(m_device);
    top->addWidget(m_seed);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_progress);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_kernel, 1);

    connect(m_run, &QPushButton::clicked, this, &StagesPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &StagesPanel::cancel);
    connect(m_table, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        const QString address = index.data(StageCompareModel::AddressRole).toString();
        if (!address.isEmpty())
            Q_EMIT openGraph(address);
    });
    setRunning(false);
}

StagesPanel::~StagesPanel()
{
    m_service->discard(m_job);  // its worker's replay is killed; nothing waits for it
}

void StagesPanel::setCompile(const QString& address)
{
    m_address = address;
    m_compileLabel->setText(address.isEmpty() ? tr("No compile selected") : address);
    setRunning(m_running);
}

void StagesPanel::setDevice(const QString& device)
{
    m_device->setCurrentText(device);
}

void StagesPanel::setSeed(int seed)
{
    m_seed->setValue(seed);
}

QString StagesPanel::summaryText() const
{
    return m_summary->text();
}

void StagesPanel::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running && !m_address.isEmpty());
    m_stop->setEnabled(running);
    m_device->setEnabled(!running);
    m_seed->setEnabled(!running);
}

QString StagesPanel::kernelText() const
{
    return m_kernel->isHidden() ? QString() : m_kernel->toPlainText();
}

void StagesPanel::start()
{
    if (m_address.isEmpty())
        return;
    ++m_generation;  // a new run replaces a running one: the service drops the older one's results
    replay::StageCompareOptions options;
    options.replay.device = m_device->currentText().trimmed().toStdString();
    options.replay.seed = static_cast<std::uint64_t>(m_seed->value());
    options.outputCode.enabled = m_outputCode;
    m_model->clear();
    m_kernel->hide();
    m_summary->setText(tr("starting the replay worker…"));
    m_progress->setRange(0, 0);
    setRunning(true);
    ReplayRequest request;
    request.program = m_program;
    request.device = m_device->currentText();
    request.tag = QStringLiteral("compare");
    request.label = tr("stage compare of %1").arg(m_address);
    const std::string address = m_address.toStdString();
    m_job = m_service->submit(this, request, [this, options, address](worker::ReplayWorker& runner, const JobContext& job) {
        try {
            const io::CompileStages stages = io::compileStages(address, options.withRunnable);
            std::vector<replay::StageResult> rows;
            for (const io::CompileStage& st : stages.stages) {
                replay::StageResult r;
                r.stage = st.name;
                r.record = st.entry.trace ? st.entry.trace->record : st.entry.title;
                r.address = st.entry.address;
                rows.push_back(std::move(r));
            }
            job.post([this, rows] { onStages(rows); });
            // Progress at most every 50 ms: a large graph reports every node.
            QElapsedTimer throttle;
            throttle.start();
            auto progress = [&](std::size_t done, std::size_t total) {
                if (done != total && throttle.elapsed() < 50)
                    return;
                throttle.restart();
                job.post([this, done, total] { onProgress(static_cast<int>(done), static_cast<int>(total)); });
            };
            auto stageDone = [&](std::size_t index, const replay::StageResult& r) {
                job.post([this, index, r] { onStageDone(static_cast<int>(index), r); });
            };
            const replay::StageCompareReport report = replay::compareStages(stages, runner, options, job.cancelToken(), progress, stageDone);
            job.post([this, report] { onDone(report); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            job.post([this, message] { onError(message); });
        }
    });
    const QString busy = m_service->runningLabel(request.device, m_program);
    if (!busy.isEmpty())
        m_summary->setText(tr("waiting for the %1 worker: it runs %2").arg(ReplayService::laneDevice(request.device), busy));
}

void StagesPanel::cancel()
{
    m_service->cancel(m_job);
    if (m_running)
        m_summary->setText(tr("cancelling…"));
}

void StagesPanel::onStages(const std::vector<replay::StageResult>& stages)
{
    m_model->setStages(stages);
    m_table->resizeColumnsToContents();
    m_summary->setText(tr("replaying %1 stage(s)…").arg(stages.size()));
}

void StagesPanel::onStageDone(int row, const replay::StageResult& result)
{
    m_model->setResult(row, result);
    m_table->resizeColumnsToContents();
}

void StagesPanel::onProgress(int done, int total)
{
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    Q_EMIT progressed(done, total);
}

void StagesPanel::onDone(const replay::StageCompareReport& report)
{
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_model->setReport(report);
    m_table->resizeColumnsToContents();
    QString text = QString::fromStdString(report.verdict);
    if (!report.reason.empty())
        text += QStringLiteral(": ") + QString::fromStdString(report.reason);
    text += tr(" (%1 s, device %2, seed %3)").arg(report.seconds, 0, 'f', 1).arg(QString::fromStdString(report.device)).arg(report.seed);
    m_summary->setText(text);
    // Inductor's generated code diverged: the kernel found, its call and its definition, beside the table (a click
    // on the output_code row opens the post-grad graph, whose nodes the kernel computes).
    m_kernel->hide();
    for (const replay::StageResult& s : report.stages)
        if (s.kernel) {
            QString code = QString::fromStdString(replay::formatKernelFinding(*s.kernel));
            if (!s.kernel->definition.empty())
                code += QStringLiteral("\n\n") + QString::fromStdString(s.kernel->definition);
            m_kernel->setPlainText(code);
            m_kernel->show();
        }
    if (report.firstDivergentStage >= 0)  // scrolled to, not selected: the selection colour would hide its highlight
        m_table->scrollTo(m_model->index(report.firstDivergentStage, 0));
    Q_EMIT finished(QString::fromStdString(report.verdict));
}

void StagesPanel::onError(const QString& message)
{
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_summary->setText(message);
    Q_EMIT failed(message);
}

}  // namespace fxray::views
