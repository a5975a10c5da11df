#include "views/panels/replay_panel.h"

#include "base/error.h"
#include "views/models/replay_results_model.h"
#include "views/panels/replay_panel_stream.h"
#include "views/services/replay_service.h"
#include "worker/replay_worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <limits>
#include <mutex>
#include <utility>

namespace fxray::views {


namespace {

constexpr int kReportThrottleMs = 100;

const QString kSettingsDevice = QStringLiteral("replay/device");
const QString kSettingsSeed = QStringLiteral("replay/seed");
const QString kSettingsInputs = QStringLiteral("replay/inputs");
const QString kSettingsIntLow = QStringLiteral("replay/intLow");
const QString kSettingsIntHigh = QStringLiteral("replay/intHigh");
const QString kSettingsStopOnFirst = QStringLiteral("replay/stopOnFirst");
const QString kSettingsCudaGraph = QStringLiteral("replay/cudaGraph");
const QString kSettingsProblemsOnly = QStringLiteral("replay/problemsOnly");
const QString kSettingsSweepSeeds = QStringLiteral("replay/sweepSeeds");
const QString kSettingsSweepUntil = QStringLiteral("replay/sweepUntil");
const QString kSettingsRepeatRuns = QStringLiteral("replay/repeatRuns");

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Rows of not-run nodes: what the table shows before the worker's first result.
replay::ReplayReport skeletonFor(const io::LoadedGraph& g, const replay::ReplayOptions& o)
{
    replay::ReplayReport r;
    r.address = g.entry.address;
    r.device = o.device;
    r.seed = o.seed;
    r.inputs = o.inputs == replay::ReplayOptions::Inputs::Saved ? "saved" : "random";
    r.nodes.reserve(g.graph.nodes.size());
    for (const graph::Node& n : g.graph.nodes) {
        replay::NodeResult nr;
        nr.name = n.name;
        nr.target = n.target.str();
        r.nodes.push_back(std::move(nr));
    }
    return r;
}

QString countsText(const replay::ReplayReport& r)
{
    using replay::NodeStatus;
    QString s = QStringLiteral("%1 passed, %2 mismatch, %3 errors")
                    .arg(r.count(NodeStatus::Passed))
                    .arg(r.count(NodeStatus::Mismatch))
                    .arg(r.count(NodeStatus::Error));
    if (const int n = r.count(NodeStatus::Skipped))
        s += QStringLiteral(", %1 skipped").arg(n);
    if (const int n = r.count(NodeStatus::Unsupported))
        s += QStringLiteral(", %1 unsupported").arg(n);
    if (const int n = r.count(NodeStatus::NotRun))
        s += QStringLiteral(", %1 not run").arg(n);
    return s;
}

QString whereText(const replay::ReplayReport& r)
{
    QString s = QStringLiteral("%1 seed %2").arg(qs(r.device)).arg(r.seed);
    if (r.inputs == "saved")
        s += QStringLiteral(" saved inputs");
    return s;
}

}  // namespace

ReplayPanel::ReplayPanel(QWidget* parent)
    : QWidget(parent)
    , m_service(ReplayService::shared())
    , m_program(m_service->defaultProgram())
    , m_model(new ReplayResultsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_reportTimer(new QTimer(this))
    , m_graphLabel(new QLabel(tr("No graph selected")))
    , m_device(new QComboBox)
    , m_seed(new QSpinBox)
    , m_inputs(new QComboBox)
    , m_intLow(new QSpinBox)
    , m_intHigh(new QSpinBox)
    , m_stopOnFirst(new QCheckBox(tr("Stop at the first failing node")))
    , m_cudaGraph(new QCheckBox(tr("CUDA graph: capture, replay, compare")))
    , m_run(new QPushButton(tr("Run")))
    , m_stop(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_problemsOnly(new QCheckBox(tr("Problems only")))
    , m_table(new QTableView)
{
    setObjectName(QStringLiteral("replayPanel"));
    setUpOptions();
    setUpResultsTable();
    m_reportTimer->setSingleShot(true);
    m_reportTimer->setInterval(kReportThrottleMs);
    layOut();
    connectControls();
    updateInputsChoice();
    setRunning(false);
}

// The options' names (tests and settings find them by name), ranges, defaults and tooltips.
void ReplayPanel::setUpOptions()
{
    m_graphLabel->setWordWrap(true);
    m_graphLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_device->setObjectName(QStringLiteral("replayDevice"));
    m_device->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
    m_device->setToolTip(tr("CUDA devices are listed once the replay worker has reported them"));
    m_seed->setObjectName(QStringLiteral("replaySeed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_inputs->setObjectName(QStringLiteral("replayInputs"));
    m_inputs->addItem(tr("random"), QStringLiteral("random"));
    m_inputs->addItem(tr("saved"), QStringLiteral("saved"));
    m_inputs->setToolTip(tr("Random inputs from the recorded metadata, or the example inputs the dump saved (<name>.pt)"));
    m_intLow->setObjectName(QStringLiteral("replayIntLow"));
    m_intHigh->setObjectName(QStringLiteral("replayIntHigh"));
    for (QSpinBox* s : {m_intLow, m_intHigh})
        s->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    m_intLow->setValue(0);
    m_intHigh->setValue(16);
    m_intHigh->setToolTip(tr("Int inputs nothing constrains are drawn from [low, high)"));
    m_stopOnFirst->setObjectName(QStringLiteral("replayStopOnFirst"));
    m_cudaGraph->setObjectName(QStringLiteral("replayCudaGraph"));
    m_cudaGraph->setToolTip(tr("After the checked replay: check whether the graph can be captured as one CUDA graph "
                               "(input mutation, host syncs, CPU values, devices), capture it on a side stream, "
                               "replay it and compare its outputs with the eager replay. Findings show on the nodes."));
    m_run->setObjectName(QStringLiteral("replayRun"));
    m_stop->setObjectName(QStringLiteral("replayCancel"));
    m_progress->setObjectName(QStringLiteral("replayProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    m_status->setObjectName(QStringLiteral("replayStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemsOnly->setObjectName(QStringLiteral("replayProblemsOnly"));
    m_problemsOnly->setToolTip(tr("Show only mismatches, errors, skipped and unsupported nodes and the NaN origin"));
}

// A row per node, through a proxy that "Problems only" filters.
void ReplayPanel::setUpResultsTable()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(ReplayResultsModel::ProblemRole);
    m_proxy->setFilterKeyColumn(0);
    m_proxy->setDynamicSortFilter(true);
    m_table->setObjectName(QStringLiteral("replayResults"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights: with tens of thousands of rows, content-sized rows make every layout walk them all.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(ReplayResultsModel::NodeColumn, 140);
    m_table->setColumnWidth(ReplayResultsModel::OpColumn, 180);
    m_table->setColumnWidth(ReplayResultsModel::StatusColumn, 100);
    m_table->setColumnWidth(ReplayResultsModel::DetailsColumn, 320);
    m_table->setColumnWidth(ReplayResultsModel::TimeColumn, 80);
}

// Options in a column on the left, results on the right: the dock sits under the graph, wide and low.
void ReplayPanel::layOut()
{
    auto* intRange = new QHBoxLayout;
    intRange->addWidget(m_intLow);
    intRange->addWidget(new QLabel(tr("to")));
    intRange->addWidget(m_intHigh);
    auto* form = new QFormLayout;
    form->addRow(tr("Graph"), m_graphLabel);
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Inputs"), m_inputs);
    form->addRow(tr("Int range"), intRange);
    form->addRow(QString(), m_stopOnFirst);
    form->addRow(QString(), m_cudaGraph);
    buildSweepOptions();
    auto* sweep = new QHBoxLayout;
    sweep->addWidget(m_sweepSeeds);
    sweep->addWidget(new QLabel(tr("until")));
    sweep->addWidget(m_sweepUntil, 1);
    form->addRow(tr("Sweep seeds"), sweep);
    form->addRow(tr("Repeat runs"), m_repeatRuns);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    auto* hunt = new QHBoxLayout;
    hunt->addWidget(m_replaySeed);
    hunt->addStretch(1);
    auto* filter = new QHBoxLayout;
    filter->addWidget(m_status, 1);
    filter->addWidget(m_problemsOnly);
    auto* options = new QWidget(this);
    auto* optionsLayout = new QVBoxLayout(options);
    optionsLayout->setContentsMargins(0, 0, 0, 0);
    optionsLayout->addLayout(form);
    optionsLayout->addLayout(buttons);
    optionsLayout->addLayout(hunt);
    optionsLayout->addStretch(1);
    options->setMaximumWidth(340);
    auto* results = new QVBoxLayout;
    results->addLayout(filter);
    results->addWidget(m_table, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(options);
    layout->addLayout(results, 1);
}

void ReplayPanel::connectControls()
{
    connect(m_run, &QPushButton::clicked, this, &ReplayPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &ReplayPanel::cancel);
    connect(m_inputs, &QComboBox::activated, this,
            [this] { m_preferSaved = m_inputs->currentData().toString() == QLatin1String("saved"); });
    connect(m_problemsOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setFilterFixedString(on ? QStringLiteral("true") : QString());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentRowChanged(current); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) { onCurrentRowChanged(index); });
    connect(m_reportTimer, &QTimer::timeout, this, [this] {
        if (m_running && !m_cancelling)
            m_status->setText(summaryText());
        Q_EMIT reportChanged();
    });
}

ReplayPanel::~ReplayPanel()
{
    // Nothing waits: the service kills the worker's replay and drops what the jobs would still say.
    m_service->discard(m_job);
    m_service->discard(m_probeJob);
    m_jobs->discard(m_skeletonJob);
}

void ReplayPanel::setGraph(std::shared_ptr<const io::LoadedGraph> graph, const QString& address, const QString& title)
{
    const bool same = graph && graph == m_graph && address == m_address;
    m_title = title.isEmpty() ? QDir(address).dirName() : title;
    m_graphLabel->setText(graph ? m_title : tr("No graph selected"));
    m_graphLabel->setToolTip(address);
    if (same) {
        setRunning(m_running);
        return;
    }
    if (m_running)
        supersede();
    m_graph = std::move(graph);
    m_address = address;
    m_reportLive = false;
    m_report.reset();
    m_sweepResult.reset();
    m_sweepLine.clear();
    m_replaySeed->hide();
    m_reportTimer->stop();
    updateInputsChoice();
    m_jobs->discard(m_skeletonJob);
    m_skeletonJob = 0;
    if (!m_graph) {
        m_model->clear();
    } else if (m_graph->graph.nodes.size() <= kSkeletonAsyncAbove) {
        m_model->setReport(skeletonFor(*m_graph, options()));
    } else {
        m_model->clear();
        m_skeletonJob = m_jobs->run(this, QStringLiteral("skeleton"),
                                    [graph = m_graph, o = options()](const JobContext&) { return skeletonFor(*graph, o); },
                                    [this](replay::ReplayReport skeleton) {
                                        m_skeletonJob = 0;
                                        m_model->setReport(std::move(skeleton));
                                    });
    }
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status->clear();
    setRunning(false);
    Q_EMIT reportChanged();
}

void ReplayPanel::setWorkerProgram(const QString& path)
{
    if (path == m_program)
        return;
    m_program = path;
    m_cudaDevices = -1;
    m_probedProgram.clear();
    setDevices(m_program, -1, {});
    if (isVisible())
        probeDevices();
}

void ReplayPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_probedProgram != m_program)
        probeDevices();
}

// Asks the CPU worker which CUDA devices it sees, through the replay service (starting a worker loads LibTorch and
// CUDA). The worker stays up for the first run.
void ReplayPanel::probeDevices()
{
    m_probedProgram = m_program;
    ReplayRequest request;
    request.program = m_program;
    request.tag = QStringLiteral("probe");
    request.label = tr("device probe");
    const QString program = m_program;
    m_probeJob = m_service->submit(this, request, [this, program](worker::ReplayWorker& w, const JobContext& job) {
        if (job.cancelled())
            return;
        int devices = -1;
        QString why;
        try {
            devices = w.cudaDevices(job.cancelToken());
        } catch (const Error& e) {
            why = QString::fromUtf8(e.what());
        }
        if (devices < 0 && why.isEmpty())
            return;  // cancelled: the next run asks again
        job.post([this, program, devices, why] { setDevices(program, devices, why); });
    });
}

void ReplayPanel::setDevices(const QString& program, int cudaDevices, const QString& why)
{
    if (program != m_program)
        return;
    if (cudaDevices < 0 && !why.isEmpty())
        m_probedProgram.clear();  // the worker did not start: ask again on the next show
    m_cudaDevices = cudaDevices;
    QString current = m_device->currentData().toString();
    if (!m_wantedDevice.isEmpty())
        current = m_wantedDevice;
    QStringList devices{QStringLiteral("cpu")};
    for (int k = 0; k < cudaDevices; ++k)
        devices << QStringLiteral("cuda:%1").arg(k);
    // A restored device stays listed until the worker has said what it has.
    if (cudaDevices < 0 && !current.isEmpty() && !devices.contains(current))
        devices << current;
    if (cudaDevices >= 0)
        m_wantedDevice.clear();
    m_device->clear();
    for (const QString& d : devices)
        m_device->addItem(d, d);
    const int at = m_device->findData(current);
    m_device->setCurrentIndex(at < 0 ? 0 : at);
    if (!why.isEmpty())
        m_device->setToolTip(tr("The replay worker did not start: %1").arg(why));
    else if (cudaDevices == 0)
        m_device->setToolTip(tr("The replay worker sees no CUDA device: CPU only"));
    else if (cudaDevices > 0)
        m_device->setToolTip(tr("%n CUDA device(s) seen by the replay worker", nullptr, cudaDevices));
    else
        m_device->setToolTip(tr("CUDA devices are listed once the replay worker has reported them"));
}

void ReplayPanel::updateInputsChoice()
{
    const bool haveSaved = m_graph && !m_graph->savedInputsPath.empty();
    if (auto* items = qobject_cast<QStandardItemModel*>(m_inputs->model()))
        if (QStandardItem* saved = items->item(1))
            saved->setEnabled(haveSaved);
    m_inputs->setCurrentIndex(haveSaved && m_preferSaved ? 1 : 0);
}

replay::ReplayOptions ReplayPanel::options() const
{
    replay::ReplayOptions o;
    o.device = m_device->currentData().toString().toStdString();
    if (o.device.empty())
        o.device = "cpu";
    o.seed = static_cast<std::uint64_t>(m_seed->value());
    o.inputs = m_inputs->currentData().toString() == QLatin1String("saved") ? replay::ReplayOptions::Inputs::Saved
                                                                            : replay::ReplayOptions::Inputs::Random;
    o.intLow = m_intLow->value();
    o.intHigh = m_intHigh->value();
    o.stopOnFirst = m_stopOnFirst->isChecked();
    o.cudaGraph = m_cudaGraph->isChecked();
    return o;
}

void ReplayPanel::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running && m_graph != nullptr);
    m_stop->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{m_device, m_seed, m_inputs, m_intLow, m_intHigh, m_stopOnFirst, m_cudaGraph,
                                                          m_sweepSeeds, m_sweepUntil, m_repeatRuns, m_replaySeed})
        w->setEnabled(!running);
}

void ReplayPanel::supersede()
{
    m_service->discard(m_job);
    m_job = 0;
    m_stream.reset();
    setRunning(false);
}

void ReplayPanel::start()
{
    if (!m_graph)
        return;
    if (m_running)
        supersede();
    const replay::ReplayOptions o = options();
    if (o.intLow >= o.intHigh) {
        const QString why = tr("The int range is empty: low (%1) must be below high (%2)").arg(o.intLow).arg(o.intHigh);
        m_status->setText(why);
        Q_EMIT failed(why);
        return;
    }
    m_cancelling = false;
    m_jobs->discard(m_skeletonJob);  // the run's own skeleton below replaces it
    m_skeletonJob = 0;
    m_stream = std::make_shared<detail::ReplayStream>();
    m_sweepLine.clear();
    m_sweeping = huntsFaults();
    if (m_sweeping)
        return startSweep(o);
    m_model->replaceReport(skeletonFor(*m_graph, o));  // same rows: the selection stays
    m_reportLive = true;
    m_reportDirty = true;
    m_progress->setRange(0, static_cast<int>(m_graph->graph.nodes.size()));
    m_progress->setValue(0);
    setRunning(true);
    m_status->setText(tr("starting the replay worker…"));
    Q_EMIT reportChanged();

    auto graph = m_graph;
    auto stream = m_stream;
    const QString programName = m_program;
    const bool askDevices = m_cudaDevices < 0;
    m_job = m_service->submit(this, runRequest(o, tr("replay %1").arg(m_title)),
                              [this, graph, stream, programName, o, askDevices](worker::ReplayWorker& w, const JobContext& job) {
        auto nodes = [&](std::size_t index, const replay::NodeResult& result) {
            std::lock_guard lock(stream->mutex);
            stream->nodes.emplace_back(index, result);
            stream->requestDrain(job, [this] { drain(); });
        };
        auto progress = [&](std::size_t done, std::size_t total) {
            std::lock_guard lock(stream->mutex);
            stream->done = done;
            stream->total = total;
            stream->requestDrain(job, [this] { drain(); });
        };
        std::shared_ptr<const replay::ReplayReport> report;
        int devices = -1;
        if (job.cancelled()) {
            // Cancelled while queued (behind the device probe or another panel's job): the worker is left alone.
            replay::ReplayReport r = skeletonFor(*graph, o);
            r.cancelled = true;
            report = std::make_shared<const replay::ReplayReport>(std::move(r));
        } else {
            report = std::make_shared<const replay::ReplayReport>(w.run(*graph, o, job.cancelToken(), progress, nodes));
            // The worker is up after a run that did not crash it: asking it costs nothing then.
            if (askDevices && w.pid() >= 0) {
                try {
                    devices = w.cudaDevices();
                } catch (const Error&) {
                }
            }
        }
        job.post([this, report, devices, programName] {
            if (devices >= 0 && devices != m_cudaDevices)
                setDevices(programName, devices, {});
            onFinished(report);
        });
    });
    showQueue();
}

ReplayRequest ReplayPanel::runRequest(const replay::ReplayOptions& o, const QString& label) const
{
    ReplayRequest request;
    request.program = m_program;
    request.device = QString::fromStdString(o.device);
    request.tag = QStringLiteral("run");
    request.label = label;
    return request;
}

// Another panel's job holds this device's worker: say so until this run starts (the service runs one at a time).
void ReplayPanel::showQueue()
{
    const QString device = m_device->currentData().toString();
    const QString busy = m_service->runningLabel(device, m_program);
    if (!busy.isEmpty() && m_service->isActive(m_job))
        m_status->setText(tr("waiting for the %1 worker: it runs %2").arg(ReplayService::laneDevice(device), busy));
}

void ReplayPanel::cancel()
{
    if (!m_running)
        return;
    m_cancelling = true;
    m_service->cancel(m_job);
    m_service->cancel(m_probeJob);  // a run queued behind the device probe must not wait for it
    m_status->setText(tr("cancelling…"));
}

void ReplayPanel::drain()
{
    if (!m_running || !m_stream)
        return;
    std::vector<std::pair<std::size_t, replay::NodeResult>> nodes;
    std::size_t done = 0, total = 0;
    {
        std::lock_guard lock(m_stream->mutex);
        nodes.swap(m_stream->nodes);
        done = m_stream->done;
        total = m_stream->total;
        m_stream->posted = false;
    }
    if (total > 0 && !(m_sweeping && total == 1)) {  // one seed's repeat runs: the bar stays busy
        m_progress->setRange(0, static_cast<int>(total));
        m_progress->setValue(static_cast<int>(done));
        if (m_sweeping && !m_cancelling)
            m_status->setText(tr("sweeping — %1 of %2 seeds clean so far").arg(done).arg(total));
    }
    if (!nodes.empty()) {
        m_model->updateNodes(std::move(nodes));
        m_reportDirty = true;
        if (!m_reportTimer->isActive())  // the status line and reportChanged: at most every kReportThrottleMs
            m_reportTimer->start();
    }
}

void ReplayPanel::onFinished(std::shared_ptr<const replay::ReplayReport> report)
{
    if (!m_running)
        return;
    m_stream.reset();
    m_job = 0;
    m_cancelling = false;
    m_reportTimer->stop();
    m_model->replaceReport(*report);
    m_report = std::move(report);
    m_reportDirty = false;
    m_reportLive = true;
    const int total = m_model->rowCount();
    const int done = total - m_report->count(replay::NodeStatus::NotRun);
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    setRunning(false);
    const QString summary = summaryText();
    m_status->setText(summary);
    Q_EMIT reportChanged();
    if (!m_report->fatal.empty())
        Q_EMIT failed(qs(m_report->fatal));
    else
        Q_EMIT finished(summary);
}

std::shared_ptr<const replay::ReplayReport> ReplayPanel::report() const
{
    if (!m_reportLive)
        return nullptr;
    if (m_reportDirty || !m_report) {
        m_report = std::make_shared<const replay::ReplayReport>(m_model->report());
        m_reportDirty = false;
    }
    return m_report;
}

void ReplayPanel::setCudaGraphMode(bool on) { m_cudaGraph->setChecked(on); }

QString ReplayPanel::cudaGraphText(const replay::CudaGraphReport& cg)
{
    if (cg.captured())
        return tr("CUDA graph captured: replay %1 µs, capture %2 ms, outputs %3")
            .arg(cg.medianReplayUs(), 0, 'f', 1)
            .arg(cg.captureUs / 1000.0, 0, 'f', 2)
            .arg(cg.matchesEager() ? tr("match eager") : tr("DIFFER from eager"));
    return tr("CUDA graph %1: %2").arg(qs(cg.status), qs(cg.reason));
}

QString ReplayPanel::summaryText() const
{
    if (!m_reportLive)
        return {};
    const replay::ReplayReport& r = m_model->report();
    if (m_running) {
        const int done = static_cast<int>(r.nodes.size()) - r.count(replay::NodeStatus::NotRun);
        return tr("running — %1 of %2 nodes · %3 · %4")
            .arg(done)
            .arg(r.nodes.size())
            .arg(countsText(r), whereText(r));
    }
    const QString verdict = qs(r.verdict());
    if (!r.fatal.empty()) {
        const QString fatal = qs(r.fatal);
        return QStringLiteral("%1 — %2 · %3").arg(verdict, fatal.section(QLatin1Char('\n'), 0, 0), whereText(r));
    }
    QString head = verdict;
    if (r.cancelled && verdict != QLatin1String("cancelled"))
        head = QStringLiteral("cancelled (%1)").arg(verdict);
    QString s = QStringLiteral("%1 — %2").arg(head, countsText(r));
    if (r.totalUs > 0)
        s += QStringLiteral(" · %1 ms").arg(r.totalUs / 1000.0, 0, 'f', 1);
    if (!r.firstNanNode.empty())
        s += QStringLiteral(" · NaN/Inf from %1").arg(qs(r.firstNanNode));
    if (!r.chainedFrom.empty())
        s += QStringLiteral(" · %1 inputs chained from its forward").arg(r.chainedInputs.size());
    if (r.cudaGraph)
        s += QStringLiteral(" · ") + cudaGraphText(*r.cudaGraph);
    s += QStringLiteral(" · ") + whereText(r);
    return m_sweepLine.isEmpty() ? s : m_sweepLine + QStringLiteral("\n") + s;
}

void ReplayPanel::selectNode(int nodeIndex)
{
    const QModelIndex source = nodeIndex >= 0 && nodeIndex < m_model->rowCount() ? m_model->index(nodeIndex, 0) : QModelIndex();
    const QModelIndex row = m_proxy->mapFromSource(source);
    m_selecting = true;
    if (row.isValid()) {
        m_table->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(row);
    } else {
        m_table->selectionModel()->clearSelection();
        m_table->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
    }
    m_selecting = false;
}

void ReplayPanel::onCurrentRowChanged(const QModelIndex& current)
{
    if (m_selecting || !current.isValid())
        return;
    Q_EMIT nodeActivated(m_proxy->data(current, ReplayResultsModel::NodeIndexRole).toInt());
}

void ReplayPanel::saveSettings(QSettings& settings) const
{
    settings.setValue(kSettingsDevice, m_wantedDevice.isEmpty() ? m_device->currentData().toString() : m_wantedDevice);
    settings.setValue(kSettingsSeed, m_seed->value());
    settings.setValue(kSettingsInputs, m_preferSaved ? QStringLiteral("saved") : QStringLiteral("random"));
    settings.setValue(kSettingsIntLow, m_intLow->value());
    settings.setValue(kSettingsIntHigh, m_intHigh->value());
    settings.setValue(kSettingsStopOnFirst, m_stopOnFirst->isChecked());
    settings.setValue(kSettingsCudaGraph, m_cudaGraph->isChecked());
    settings.setValue(kSettingsProblemsOnly, m_problemsOnly->isChecked());
    settings.setValue(kSettingsSweepSeeds, m_sweepSeeds->value());
    settings.setValue(kSettingsSweepUntil, m_sweepUntil->currentData().toString());
    settings.setValue(kSettingsRepeatRuns, m_repeatRuns->value());
}

void ReplayPanel::restoreSettings(const QSettings& settings)
{
    const QString device = settings.value(kSettingsDevice, QStringLiteral("cpu")).toString();
    if (m_device->findData(device) >= 0) {
        m_device->setCurrentIndex(m_device->findData(device));
    } else if (m_cudaDevices < 0 && device.startsWith(QLatin1String("cuda"))) {
        m_wantedDevice = device;  // listed (and chosen) until the worker says whether it has it
        setDevices(m_program, -1, {});
    }
    m_seed->setValue(settings.value(kSettingsSeed, 0).toInt());
    m_preferSaved = settings.value(kSettingsInputs).toString() == QLatin1String("saved");
    updateInputsChoice();
    m_intLow->setValue(settings.value(kSettingsIntLow, 0).toInt());
    m_intHigh->setValue(settings.value(kSettingsIntHigh, 16).toInt());
    m_stopOnFirst->setChecked(settings.value(kSettingsStopOnFirst, false).toBool());
    m_cudaGraph->setChecked(settings.value(kSettingsCudaGraph, false).toBool());
    m_problemsOnly->setChecked(settings.value(kSettingsProblemsOnly, false).toBool());
    setSweep(settings.value(kSettingsSweepSeeds, 1).toInt(), settings.value(kSettingsSweepUntil, QStringLiteral("nan,mismatch,error")).toString());
    setRepeatRuns(settings.value(kSettingsRepeatRuns, 0).toInt());
}

}  // namespace fxray::views
