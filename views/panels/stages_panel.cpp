#include "views/panels/stages_panel.h"

#include "base/error.h"
#include "io/compile_stages.h"
#include "replay/stage_compare.h"
#include "views/models/stage_compare_model.h"
#include "worker/replay_worker.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace fxray::views {

StagesPanel::StagesPanel(QWidget* parent)
    : QWidget(parent)
    , m_program(QString::fromStdString(worker::ReplayWorker::locateProgram(QCoreApplication::applicationFilePath().toStdString())))
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
    if (m_cancel)
        m_cancel->cancelled.store(true);
    m_job.waitForFinished();
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
    if (m_running)
        cancel();  // a new run replaces it; its results are dropped by generation
    const int generation = ++m_generation;
    replay::StageCompareOptions options;
    options.replay.device = m_device->currentText().trimmed().toStdString();
    options.replay.seed = static_cast<std::uint64_t>(m_seed->value());
    options.outputCode.enabled = m_outputCode;
    m_cancel = std::make_shared<replay::CancelToken>();
    m_model->clear();
    m_kernel->hide();
    m_summary->setText(tr("starting the replay worker…"));
    m_progress->setRange(0, 0);
    setRunning(true);
    const std::string address = m_address.toStdString(), program = m_program.toStdString();
    auto cancelToken = m_cancel;
    QPointer<StagesPanel> self(this);
    m_job = QtConcurrent::run([self, options, address, program, cancelToken, generation] {
        auto post = [self](auto fn) {
            QMetaObject::invokeMethod(self.data(), [self, fn] {
                if (self)
                    fn(self.data());
            }, Qt::QueuedConnection);
        };
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
            post([=](StagesPanel* p) { p->onStages(generation, rows); });
            worker::WorkerConfig wc;
            wc.program = program;
            worker::ReplayWorker runner(wc);
            // Progress at most every 50 ms: a large graph reports every node.
            QElapsedTimer throttle;
            throttle.start();
            auto progress = [&](std::size_t done, std::size_t total) {
                if (done != total && throttle.elapsed() < 50)
                    return;
                throttle.restart();
                post([=](StagesPanel* p) { p->onProgress(generation, static_cast<int>(done), static_cast<int>(total)); });
            };
            auto stageDone = [&](std::size_t index, const replay::StageResult& r) {
                post([=](StagesPanel* p) { p->onStageDone(generation, static_cast<int>(index), r); });
            };
            const replay::StageCompareReport report = replay::compareStages(stages, runner, options, cancelToken.get(), progress, stageDone);
            post([=](StagesPanel* p) { p->onDone(generation, report); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            post([=](StagesPanel* p) { p->onError(generation, message); });
        }
    });
}

void StagesPanel::cancel()
{
    if (m_cancel)
        m_cancel->cancelled.store(true);
    if (m_running)
        m_summary->setText(tr("cancelling…"));
}

void StagesPanel::onStages(int generation, const std::vector<replay::StageResult>& stages)
{
    if (generation != m_generation)
        return;
    m_model->setStages(stages);
    m_table->resizeColumnsToContents();
    m_summary->setText(tr("replaying %1 stage(s)…").arg(stages.size()));
}

void StagesPanel::onStageDone(int generation, int row, const replay::StageResult& result)
{
    if (generation != m_generation)
        return;
    m_model->setResult(row, result);
    m_table->resizeColumnsToContents();
}

void StagesPanel::onProgress(int generation, int done, int total)
{
    if (generation != m_generation)
        return;
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    Q_EMIT progressed(done, total);
}

void StagesPanel::onDone(int generation, const replay::StageCompareReport& report)
{
    if (generation != m_generation)
        return;
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

void StagesPanel::onError(int generation, const QString& message)
{
    if (generation != m_generation)
        return;
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_summary->setText(message);
    Q_EMIT failed(message);
}

}  // namespace fxray::views
