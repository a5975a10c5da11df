// The Replay panel against a real LibTorch `fxray worker` (FXRAY_TEST_WORKER, else this build's fxray; skipped
// when that has no worker): the results model stays consistent (QAbstractItemModelTester) while a CPU replay
// streams into it and ends with every node passed; a planted stride fault is a mismatch row at its node (and the
// only row under "problems only"); cancelling a hung replay leaves the panel idle with a cancelled report that
// keeps the nodes before the hang, and the next run passes; a worker that aborts or is SIGKILLed mid-replay is an
// error naming the node, and the next run passes on a fresh worker; a new graph drops a running replay's results;
// selectNode and user selection round-trip without a signal loop; settings round-trip; a seed sweep of the
// sharp_softmax dump stops at the seed that makes Inf, names it and puts it in the Seed box, "Replay seed S"
// replays that seed alone, and a sweep is cancellable; repeat runs name (and select) the first node whose output
// bits differ between runs (planted in the worker: FXRAY_WORKER_FAULT=nondeterministic:relu, no CPU op is
// nondeterministic), and say so when every run agrees.
#include "../core/test_support.h"
#include "io/graph_source.h"
#include "views/models/replay_results_model.h"
#include "views/panels/graph_panel.h"
#include "views/panels/replay_panel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <csignal>
#include <memory>
#include <unistd.h>

using fxray::views::ReplayPanel;
using fxray::views::ReplayResultsModel;
using Status = fxray::replay::NodeStatus;

namespace {

const QString kClean = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps/mlp/mlp_forward_0");
const QString kWrongStride = QStringLiteral(FXRAY_TEST_DATA_DIR "/faults/wrong_stride/mlp_forward_0");
const QString kSharpSoftmax = QStringLiteral(FXRAY_TEST_DATA_DIR "/sweep/sharp_softmax/sharp_softmax_forward_0");
const QString kMutation = QStringLiteral(FXRAY_TEST_DATA_DIR "/cuda_graph/cg_mutation/cg_mutation_forward_0");
constexpr int kTimeoutMs = 120000;
// For QTRY_*: on a failure they try again for twice as long (to say whether more time would help), which must
// stay within QtTest's 300 s per function.
constexpr int kTryTimeoutMs = 60000;

// A build without LibTorch has a `fxray` that cannot replay: FXRAY_TEST_WORKER names one that can.
QString workerProgram()
{
    const QByteArray env = qgetenv("FXRAY_TEST_WORKER");
    return env.isEmpty() ? QStringLiteral(FXRAY_BINARY_DIR "/app/cli/fxray") : QString::fromLocal8Bit(env);
}

std::shared_ptr<const fxray::io::LoadedGraph> load(const QString& path)
{
    return std::make_shared<const fxray::io::LoadedGraph>(fxray::io::loadAddress(path.toStdString()));
}

int nodeIndex(const fxray::io::LoadedGraph& g, const std::string& name)
{
    for (std::size_t k = 0; k < g.graph.nodes.size(); ++k)
        if (g.graph.nodes[k].name == name)
            return static_cast<int>(k);
    return -1;
}

Status statusAt(const ReplayPanel& panel, int row)
{
    const ReplayResultsModel* m = panel.resultsModel();
    return static_cast<Status>(m->data(m->index(row, 0), ReplayResultsModel::StatusRole).toInt());
}

// The panel's worker processes: children of this process running the worker program.
QList<pid_t> workerPids()
{
    QList<pid_t> out;
    const QString self = QString::number(::getpid());
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QString dir = it.next();
        bool isPid = false;
        const pid_t pid = static_cast<pid_t>(QFileInfo(dir).fileName().toInt(&isPid));
        if (!isPid)
            continue;
        QFile stat(dir + QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
        const QString text = QString::fromLocal8Bit(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        QFile cmdline(dir + QStringLiteral("/cmdline"));
        if (fields.size() > 1 && fields[1] == self && cmdline.open(QIODevice::ReadOnly) &&
            cmdline.readAll().split('\0').contains("worker"))
            out << pid;
    }
    return out;
}

void configure(ReplayPanel& panel, const QString& path, std::shared_ptr<const fxray::io::LoadedGraph>* out = nullptr)
{
    panel.setWorkerProgram(workerProgram());
    auto graph = load(path);
    if (out)
        *out = graph;
    panel.setGraph(graph, path, QStringLiteral("mlp_forward_0"));
}

// A run of the clean sample after a fault: passes (a fresh worker, without the fault).
void expectCleanRunPasses(ReplayPanel& panel)
{
    QSignalSpy finished(&panel, &ReplayPanel::finished);
    QSignalSpy failed(&panel, &ReplayPanel::failed);
    panel.start();
    QVERIFY(panel.isRunning());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!panel.isRunning());
    QCOMPARE(panel.report()->verdict(), std::string("pass"));
    QVERIFY2(panel.summaryText().startsWith(QStringLiteral("pass — ")), qPrintable(panel.summaryText()));
}

}  // namespace

class TestReplayPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!fxray::test::fxrayHasWorker(workerProgram().toStdString()))
            QSKIP("no `fxray worker` with LibTorch: set FXRAY_TEST_WORKER to a LibTorch build's fxray");
    }

    void init() { qunsetenv("FXRAY_WORKER_FAULT"); }

    void modelStaysConsistentWhileARealReplayStreamsIn()
    {
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        QAbstractItemModelTester tester(panel.resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.resultsView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int nodes = static_cast<int>(graph->graph.nodes.size());
        QCOMPARE(panel.resultsModel()->rowCount(), nodes);  // the graph's nodes, not run yet
        QVERIFY(!panel.report());
        QVERIFY(panel.summaryText().isEmpty());

        QSignalSpy finished(&panel, &ReplayPanel::finished);
        QSignalSpy failed(&panel, &ReplayPanel::failed);
        QSignalSpy changed(&panel, &ReplayPanel::reportChanged);
        panel.start();
        QVERIFY(panel.isRunning());
        QVERIFY(panel.report());  // the partial report, all not run
        QCOMPARE(panel.report()->count(Status::NotRun), nodes);
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(failed.count(), 0);
        QVERIFY(!panel.isRunning());
        QVERIFY(changed.count() >= 2);  // the start and the end at least
        QCOMPARE(panel.resultsModel()->rowCount(), nodes);
        for (int row = 0; row < nodes; ++row) {
            QCOMPARE(statusAt(panel, row), Status::Passed);
            QCOMPARE(panel.resultsModel()->data(panel.resultsModel()->index(row, 0), ReplayResultsModel::NodeIndexRole).toInt(), row);
            QCOMPARE(panel.resultsModel()->index(row, ReplayResultsModel::NodeColumn).data().toString(),
                     QString::fromStdString(graph->graph.nodes[static_cast<std::size_t>(row)].name));
        }
        const auto report = panel.report();
        QVERIFY(report);
        QCOMPARE(report->verdict(), std::string("pass"));
        QCOMPARE(report->nodes.size(), graph->graph.nodes.size());
        const QString summary = finished.at(0).at(0).toString();
        QCOMPARE(summary, panel.summaryText());
        QVERIFY2(summary.startsWith(QStringLiteral("pass — %1 passed, 0 mismatch, 0 errors · ").arg(nodes)), qPrintable(summary));
        QVERIFY2(summary.endsWith(QStringLiteral(" ms · cpu seed 0")), qPrintable(summary));
        auto* progress = panel.findChild<QProgressBar*>(QStringLiteral("replayProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->value(), nodes);
        // An op row says what it made.
        const int addmm = nodeIndex(*graph, "addmm");
        QVERIFY2(panel.resultsModel()->index(addmm, ReplayResultsModel::OutputColumn).data().toString().startsWith(QStringLiteral("f32[")),
                 qPrintable(panel.resultsModel()->index(addmm, ReplayResultsModel::OutputColumn).data().toString()));
        QCOMPARE(panel.resultsModel()->index(addmm, ReplayResultsModel::OpColumn).data().toString(), QStringLiteral("aten.addmm.default"));

        // Again, on the same worker: the rows change in place (no reset), the results stay consistent.
        QSignalSpy resets(panel.resultsModel(), &QAbstractItemModel::modelReset);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(resets.count(), 0);
        QCOMPARE(panel.report()->verdict(), std::string("pass"));
    }

    void aPlantedStrideFaultIsAMismatchRowAtItsNode()
    {
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kWrongStride, &graph);
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        const int t = nodeIndex(*graph, "t");
        QVERIFY(t >= 0);
        QCOMPARE(statusAt(panel, t), Status::Mismatch);
        const ReplayResultsModel* m = panel.resultsModel();
        QVERIFY(m->data(m->index(t, 0), ReplayResultsModel::ProblemRole).toBool());
        const QString details = m->index(t, ReplayResultsModel::DetailsColumn).data().toString();
        QVERIFY2(details.contains(QStringLiteral("stride: expected [128, 1] actual [1, 64]")), qPrintable(details));
        QVERIFY(m->index(t, ReplayResultsModel::StatusColumn).data(Qt::DecorationRole).canConvert<QColor>());
        for (int row = 0; row < m->rowCount(); ++row)
            if (row != t)
                QCOMPARE(statusAt(panel, row), Status::Passed);
        const QString summary = finished.at(0).at(0).toString();
        QVERIFY2(summary.startsWith(QStringLiteral("mismatch — %1 passed, 1 mismatch, 0 errors").arg(m->rowCount() - 1)), qPrintable(summary));

        // Problems only: the one mismatch row, which still names its node.
        auto* check = panel.findChild<QCheckBox*>(QStringLiteral("replayProblemsOnly"));
        QVERIFY(check);
        check->setChecked(true);
        const QAbstractItemModel* shown = panel.resultsView()->model();
        QCOMPARE(shown->rowCount(), 1);
        QCOMPARE(shown->data(shown->index(0, 0), ReplayResultsModel::NodeIndexRole).toInt(), t);
        check->setChecked(false);
        QCOMPARE(shown->rowCount(), m->rowCount());
    }

    void cancellingAHungReplayLeavesThePanelIdleAndTheNextRunPasses()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");  // the worker inherits it: the replay stops at relu
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        QAbstractItemModelTester tester(panel.resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int relu = nodeIndex(*graph, "relu");
        const int addmm = nodeIndex(*graph, "addmm");
        QVERIFY(relu > addmm && addmm > 0);
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        QSignalSpy failed(&panel, &ReplayPanel::failed);
        panel.start();
        // The nodes before the hang arrive while the replay runs: streamed, not at the end.
        QTRY_VERIFY_WITH_TIMEOUT(statusAt(panel, addmm) == Status::Passed, kTryTimeoutMs);
        QVERIFY(panel.isRunning());
        QCOMPARE(statusAt(panel, relu), Status::NotRun);
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("running — %1 of").arg(relu)), qPrintable(panel.summaryText()));
        QCOMPARE(panel.report()->count(Status::Passed), relu);

        QElapsedTimer clock;
        clock.start();
        panel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 10000);
        QVERIFY(clock.elapsed() < 10000);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(failed.count(), 0);
        QVERIFY(panel.report()->cancelled);
        QVERIFY(panel.report()->fatal.empty());
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("cancelled — %1 passed").arg(relu)), qPrintable(panel.summaryText()));
        QCOMPARE(statusAt(panel, addmm), Status::Passed);  // kept
        QCOMPARE(statusAt(panel, relu), Status::NotRun);

        qunsetenv("FXRAY_WORKER_FAULT");
        expectCleanRunPasses(panel);
    }

    void aWorkerThatAbortsMidReplayIsAnErrorAtTheNode()
    {
        qputenv("FXRAY_WORKER_FAULT", "abort:relu");
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        const int relu = nodeIndex(*graph, "relu");
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        QSignalSpy failed(&panel, &ReplayPanel::failed);
        panel.start();
        QVERIFY(failed.wait(kTimeoutMs));
        QCOMPARE(finished.count(), 0);
        QVERIFY(!panel.isRunning());
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("'relu'")) && message.contains(QStringLiteral("died")), qPrintable(message));
        QCOMPARE(QString::fromStdString(panel.report()->fatal), message);
        QCOMPARE(statusAt(panel, relu), Status::Error);
        QCOMPARE(statusAt(panel, relu - 1), Status::Passed);
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("error — node 'relu'")), qPrintable(panel.summaryText()));
        const QString details = panel.resultsModel()->index(relu, ReplayResultsModel::DetailsColumn).data().toString();
        QVERIFY2(details.contains(QStringLiteral("died")), qPrintable(details));

        qunsetenv("FXRAY_WORKER_FAULT");
        expectCleanRunPasses(panel);
    }

    void aWorkerKilledMidReplayIsAnErrorAtTheNode()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");  // so that the kill lands at a known node
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        const int relu = nodeIndex(*graph, "relu");
        QSignalSpy failed(&panel, &ReplayPanel::failed);
        panel.start();
        QTRY_VERIFY_WITH_TIMEOUT(statusAt(panel, relu - 1) == Status::Passed, kTryTimeoutMs);
        const QList<pid_t> pids = workerPids();
        QCOMPARE(pids.size(), 1);
        QCOMPARE(::kill(pids.front(), SIGKILL), 0);
        QVERIFY(failed.wait(kTimeoutMs));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("'relu'")) && message.contains(QStringLiteral("signal 9")), qPrintable(message));
        QCOMPARE(statusAt(panel, relu), Status::Error);

        qunsetenv("FXRAY_WORKER_FAULT");
        expectCleanRunPasses(panel);
    }

    void aNewGraphDropsTheRunningReplaysResults()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        const int relu = nodeIndex(*graph, "relu");
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        QSignalSpy failed(&panel, &ReplayPanel::failed);
        panel.start();
        QTRY_VERIFY_WITH_TIMEOUT(statusAt(panel, relu - 1) == Status::Passed, kTryTimeoutMs);
        qunsetenv("FXRAY_WORKER_FAULT");
        auto other = load(kWrongStride);
        panel.setGraph(other, kWrongStride, QStringLiteral("mlp_forward_0 (wrong stride)"));
        QVERIFY(!panel.isRunning());
        QVERIFY(!panel.report());
        QTest::qWait(500);  // the superseded job ends (its worker killed); what it says must not show
        QCOMPARE(finished.count() + failed.count(), 0);
        for (int row = 0; row < panel.resultsModel()->rowCount(); ++row)
            QCOMPARE(statusAt(panel, row), Status::NotRun);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(panel.report()->verdict(), std::string("mismatch"));
        QCOMPARE(panel.report()->address, other->entry.address);
    }

    void selectNodeAndUserSelectionRoundTrip()
    {
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kWrongStride, &graph);
        QTableView* view = panel.resultsView();
        QSignalSpy activated(&panel, &ReplayPanel::nodeActivated);

        // From the outside: the row is selected, and no signal comes back.
        panel.selectNode(7);
        QCOMPARE(view->currentIndex().data(ReplayResultsModel::NodeIndexRole).toInt(), 7);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(activated.count(), 0);
        panel.selectNode(-1);
        QVERIFY(view->selectionModel()->selectedRows().isEmpty());
        QCOMPARE(activated.count(), 0);

        // From the user: keyboard / programmatic current row and a mouse click.
        view->selectionModel()->setCurrentIndex(view->model()->index(3, 0),
                                                QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 3);
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QRect rect = view->visualRect(view->model()->index(5, ReplayResultsModel::NodeColumn));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toInt(), 5);

        // Under "problems only" after a run: a node the filter hides selects nothing; the mismatch row maps back.
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        panel.findChild<QCheckBox*>(QStringLiteral("replayProblemsOnly"))->setChecked(true);
        const int t = nodeIndex(*graph, "t");
        panel.selectNode(0);
        QVERIFY(view->selectionModel()->selectedRows().isEmpty());
        panel.selectNode(t);
        QCOMPARE(view->currentIndex().data(ReplayResultsModel::NodeIndexRole).toInt(), t);
        QCOMPARE(activated.count(), 2);

        // Shown, the panel asked its worker for CUDA devices (off the GUI thread): "cpu" first, then cuda:N.
        auto* device = panel.findChild<QComboBox*>(QStringLiteral("replayDevice"));
        QVERIFY(device);
        QTRY_VERIFY_WITH_TIMEOUT(device->toolTip().contains(QStringLiteral("replay worker sees")) ||
                                     device->toolTip().contains(QStringLiteral("seen by the replay worker")),
                                 kTryTimeoutMs);
        QCOMPARE(device->itemText(0), QStringLiteral("cpu"));
        for (int k = 1; k < device->count(); ++k)
            QCOMPARE(device->itemText(k), QStringLiteral("cuda:%1").arg(k - 1));
    }

    void cudaGraphOptionBringsTheAnalysisToTheRowsTheMarksAndTheSummary()
    {
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kMutation, &graph);
        auto* box = panel.findChild<QCheckBox*>(QStringLiteral("replayCudaGraph"));
        QVERIFY(box);
        box->setChecked(true);
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        // The eager replay passes; on the CPU the analysis still names what would block a capture on a GPU.
        const auto report = panel.report();
        QCOMPARE(report->verdict(), std::string("pass"));
        QVERIFY(report->cudaGraph);
        QCOMPARE(report->cudaGraph->status, std::string("unsafe"));
        const int copy = nodeIndex(*graph, "copy_");
        QVERIFY(copy >= 0);
        QVERIFY(report->cudaGraph->blocks("copy_"));
        const ReplayResultsModel* m = panel.resultsModel();
        const QString details = m->index(copy, ReplayResultsModel::DetailsColumn).data().toString();
        QVERIFY2(details.contains(QStringLiteral("CUDA graph: aten.copy_.default writes into graph input 'arg0_1'")),
                 qPrintable(details));
        const auto marks = fxray::views::marksFromReport(report.get(), graph->graph.nodes.size());
        QCOMPARE(marks[static_cast<std::size_t>(copy)], fxray::views::NodeMark::CudaGraphBlocker);
        QCOMPARE(marks[static_cast<std::size_t>(nodeIndex(*graph, "sub"))], fxray::views::NodeMark::Passed);
        QVERIFY2(panel.summaryText().contains(QStringLiteral("CUDA graph unsafe: CUDA graphs need a CUDA device")),
                 qPrintable(panel.summaryText()));
        // Without the option there is no analysis.
        box->setChecked(false);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!panel.report()->cudaGraph);
    }

    void aBackwardGraphRunsChainedAndTheSummarySaysSo()
    {
        ReplayPanel panel;
        panel.setWorkerProgram(workerProgram());
        const QString path = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps/mlp/mlp_backward_0");
        panel.setGraph(load(path), path, QStringLiteral("mlp_backward_0"));
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(panel.report()->verdict(), std::string("pass"));
        QVERIFY(panel.report()->chainedFrom.ends_with("mlp_forward_0"));
        QVERIFY2(panel.summaryText().contains(QStringLiteral("5 inputs chained from its forward")), qPrintable(panel.summaryText()));
    }

    void aSweepStopsAtTheSeedThatMakesInfAndPutsItInTheSeedBox()
    {
        ReplayPanel panel;
        configure(panel, kSharpSoftmax);
        panel.setSweep(1000, QStringLiteral("nan"));
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        const auto result = panel.sweepResult();
        QVERIFY(result && result->found);
        QCOMPARE(panel.findChild<QSpinBox*>(QStringLiteral("replaySeed"))->value(), static_cast<int>(result->seed));
        QCOMPARE(panel.report()->seed, result->seed);
        QCOMPARE(panel.report()->firstNanNode, std::string("exp"));
        auto* bar = panel.findChild<QProgressBar*>(QStringLiteral("replayProgress"));
        QCOMPARE(bar->maximum(), 1000);
        QCOMPARE(bar->value(), static_cast<int>(result->seedsRun));
        const QString head = QStringLiteral("seed %1 fails: inf at node 'exp'").arg(result->seed);
        QVERIFY2(finished.at(0).at(0).toString().startsWith(head), qPrintable(finished.at(0).at(0).toString()));
        // Run again as a single replay of that seed: the same NaN origin.
        panel.setSweep(1, QStringLiteral("nan"));
        QVERIFY(!finished.isEmpty());
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(panel.report()->firstNanNode, std::string("exp"));
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("nan — ")), qPrintable(panel.summaryText()));
    }

    void aSweepIsCancellableAndSaysHowManySeedsWereClean()
    {
        ReplayPanel panel;
        configure(panel, kSharpSoftmax);
        panel.setSweep(100000000, QStringLiteral("mismatch"));  // never fails on this graph: runs until cancelled
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        auto* bar = panel.findChild<QProgressBar*>(QStringLiteral("replayProgress"));
        QTRY_VERIFY_WITH_TIMEOUT(bar->value() >= 20, kTryTimeoutMs);
        QVERIFY(panel.isRunning());
        panel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 10000);
        QCOMPARE(finished.count(), 1);
        QVERIFY(panel.sweepResult() && panel.sweepResult()->cancelled && !panel.sweepResult()->found);
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("sweep cancelled after ")), qPrintable(panel.summaryText()));
    }

    void theReplaySeedButtonReplaysTheFailingSeedAlone()
    {
        ReplayPanel panel;
        configure(panel, kSharpSoftmax);
        panel.setSweep(1000, QStringLiteral("nan"));
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        auto* button = panel.findChild<QPushButton*>(QStringLiteral("replayFailingSeed"));
        QVERIFY(button && button->isHidden());
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        const auto result = panel.sweepResult();
        QVERIFY(result && result->found);
        QVERIFY(!button->isHidden());
        QCOMPARE(button->text(), QStringLiteral("Replay seed %1").arg(result->seed));
        button->click();
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(panel.findChild<QSpinBox*>(QStringLiteral("replaySweepSeeds"))->value(), 1);
        QCOMPARE(panel.report()->seed, result->seed);
        QCOMPARE(panel.report()->firstNanNode, std::string("exp"));
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("nan — ")), qPrintable(panel.summaryText()));
    }

    void aRepeatRunNamesAndSelectsTheFirstNodeThatIsNotDeterministic()
    {
        qputenv("FXRAY_WORKER_FAULT", "nondeterministic:relu");
        ReplayPanel panel;
        std::shared_ptr<const fxray::io::LoadedGraph> graph;
        configure(panel, kClean, &graph);
        panel.findChild<QSpinBox*>(QStringLiteral("replaySeed"))->setValue(7);
        panel.setRepeatRuns(3);
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        QSignalSpy activated(&panel, &ReplayPanel::nodeActivated);
        panel.start();
        QVERIFY(panel.isRunning());
        auto* bar = panel.findChild<QProgressBar*>(QStringLiteral("replayProgress"));
        QCOMPARE(bar->maximum(), 0);  // one seed: a busy bar until its runs are compared
        QVERIFY(finished.wait(kTimeoutMs));
        const auto result = panel.sweepResult();
        QVERIFY(result && result->found);
        QCOMPARE(result->divergentNode, std::string("relu"));
        QCOMPARE(result->divergentRun, 2);
        QCOMPARE(result->seed, std::uint64_t(7));
        const int relu = nodeIndex(*graph, "relu");
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), relu);
        const QModelIndex current = panel.resultsView()->currentIndex();
        QCOMPARE(current.data(ReplayResultsModel::NodeIndexRole).toInt(), relu);
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("seed 7: node relu is not deterministic (run 2 differs from run 1)")),
                 qPrintable(panel.summaryText()));
        QCOMPARE(panel.findChild<QPushButton*>(QStringLiteral("replayFailingSeed"))->text(), QStringLiteral("Replay seed 7"));
    }

    void aRepeatRunOfADeterministicGraphSaysEveryRunAgrees()
    {
        ReplayPanel panel;
        configure(panel, kClean);
        panel.setRepeatRuns(2);
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(panel.sweepResult() && !panel.sweepResult()->found);
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("deterministic: 3 runs of seed 0 agree at every node")),
                 qPrintable(panel.summaryText()));
        QVERIFY(panel.findChild<QPushButton*>(QStringLiteral("replayFailingSeed"))->isHidden());
    }

    void settingsRoundTrip()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("fxray.ini")), QSettings::IniFormat);
        {
            ReplayPanel panel;
            configure(panel, kClean);
            panel.findChild<QSpinBox*>(QStringLiteral("replaySeed"))->setValue(42);
            panel.findChild<QSpinBox*>(QStringLiteral("replayIntLow"))->setValue(-3);
            panel.findChild<QSpinBox*>(QStringLiteral("replayIntHigh"))->setValue(7);
            panel.findChild<QCheckBox*>(QStringLiteral("replayStopOnFirst"))->setChecked(true);
            panel.findChild<QCheckBox*>(QStringLiteral("replayCudaGraph"))->setChecked(true);
            auto* inputs = panel.findChild<QComboBox*>(QStringLiteral("replayInputs"));
            QVERIFY(inputs->itemData(1).toString() == QStringLiteral("saved"));
            // The user picks saved inputs (the sample has them).
            inputs->setCurrentIndex(1);
            Q_EMIT inputs->activated(1);
            panel.saveSettings(settings);
        }
        ReplayPanel panel;
        panel.restoreSettings(settings);
        QCOMPARE(panel.findChild<QSpinBox*>(QStringLiteral("replaySeed"))->value(), 42);
        QCOMPARE(panel.findChild<QSpinBox*>(QStringLiteral("replayIntLow"))->value(), -3);
        QCOMPARE(panel.findChild<QSpinBox*>(QStringLiteral("replayIntHigh"))->value(), 7);
        QVERIFY(panel.findChild<QCheckBox*>(QStringLiteral("replayStopOnFirst"))->isChecked());
        QVERIFY(panel.findChild<QCheckBox*>(QStringLiteral("replayCudaGraph"))->isChecked());
        auto* inputs = panel.findChild<QComboBox*>(QStringLiteral("replayInputs"));
        QCOMPARE(inputs->currentIndex(), 0);  // no graph: no saved inputs to use
        configure(panel, kClean);
        QCOMPARE(inputs->currentData().toString(), QStringLiteral("saved"));

        // The saved inputs are what the replay uses.
        QSignalSpy finished(&panel, &ReplayPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(panel.report()->inputs, std::string("saved"));
        QCOMPARE(panel.report()->seed, std::uint64_t(42));
        QVERIFY2(panel.summaryText().endsWith(QStringLiteral("cpu seed 42 saved inputs")), qPrintable(panel.summaryText()));
    }
};

QTEST_MAIN(TestReplayPanel)
#include "test_replay_panel.moc"
