// The Stages tab (stage compare in the GUI). The model alone (QAbstractItemModelTester): rows before the replays,
// results filling in, the first divergent stage highlighted and bold, the reference stage marked. The panel
// against the real `fxray worker` of this build (skipped without LibTorch): the samples' MLP training compile runs
// off the GUI thread with progress and ends "agree" with three stages; a compile without an AOT graph ends "failed"
// naming why; a new run drops the results of the one it replaces (generations); clicking a stage asks for its
// graph, and the main window opens a Stages tab and shows a clicked stage's graph in the Graph tab.
#include "../core/test_support.h"
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/models/stage_compare_model.h"
#include "views/panels/stages_panel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QtTest/QtTest>

using fxray::replay::StageCompareReport;
using fxray::replay::StageResult;
using fxray::views::StageCompareModel;
using fxray::views::StagesPanel;

namespace {

const QString kMlp = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/trace/mlp_inductor.log");
const QString kBreaks = QStringLiteral(FXRAY_TEST_DATA_DIR "/report/graph_breaks.log");
const QString kFxray = QStringLiteral(FXRAY_BINARY_DIR "/app/cli/fxray");
constexpr int kTimeoutMs = 180000;

StageResult stageRow(const std::string& name, const std::string& status)
{
    StageResult s;
    s.stage = name;
    s.record = name + "_graph";
    s.address = "log#0/0/" + name + "_graph";
    s.status = status;
    s.nodes = 7;
    return s;
}

}  // namespace

class TestStagesPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelFillsInAndHighlightsTheFirstDivergentStage()
    {
        StageCompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStages({stageRow("dynamo", "not run"), stageRow("aot_forward", "not run"), stageRow("post_grad", "not run")});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(1, StageCompareModel::VerdictColumn).data().toString(), QStringLiteral("not compared"));
        StageResult ref = stageRow("dynamo", "clean");
        ref.reference = true;
        model.setResult(0, ref);
        QCOMPARE(model.index(0, StageCompareModel::VerdictColumn).data().toString(), QStringLiteral("reference"));
        StageResult agree = stageRow("aot_forward", "clean");
        agree.compared = 1;
        agree.comparisons.resize(1);
        model.setResult(1, agree);
        QCOMPARE(model.index(1, StageCompareModel::VerdictColumn).data().toString(), QStringLiteral("agree"));
        QCOMPARE(model.firstDivergentRow(), -1);
        StageResult bad = stageRow("post_grad", "clean");
        bad.compared = bad.divergent = 1;
        bad.maxAbs = 0.5;
        bad.maxRel = 2;
        bad.comparisons.resize(1);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setResult(2, bad);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(model.firstDivergentRow(), 2);
        const QModelIndex verdict = model.index(2, StageCompareModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QStringLiteral("first divergence"));
        QVERIFY(verdict.data(StageCompareModel::FirstDivergentRole).toBool());
        QVERIFY(verdict.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(verdict.data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.index(2, StageCompareModel::MaxDiffColumn).data().toString(), QStringLiteral("0.5 (rel 2)"));
        QCOMPARE(model.index(2, 0).data(StageCompareModel::AddressRole).toString(), QStringLiteral("log#0/0/post_grad_graph"));
        // The whole report replaces the rows.
        StageCompareReport report;
        report.stages = {ref, bad};
        report.firstDivergentStage = 1;
        model.setReport(report);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.firstDivergentRow(), 1);
    }

    void runAgreesOnTheSamplesTrainingCompile()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        StagesPanel panel;
        panel.setWorkerProgram(kFxray);
        panel.setDevice(QStringLiteral("cpu"));
        panel.setCompile(kMlp + QStringLiteral("#0/0"));
        panel.setOutputCode(false);  // the FX stages; the generated code has a test of its own below
        QSignalSpy finished(&panel, &StagesPanel::finished);
        QSignalSpy progressed(&panel, &StagesPanel::progressed);
        panel.start();
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("agree"));
        QVERIFY(!panel.isRunning());
        QVERIFY(progressed.count() >= 1);
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.model()->index(0, 0).data().toString(), QStringLiteral("dynamo"));
        QCOMPARE(panel.model()->index(0, StageCompareModel::VerdictColumn).data().toString(), QStringLiteral("reference"));
        QCOMPARE(panel.model()->index(2, StageCompareModel::VerdictColumn).data().toString(), QStringLiteral("agree"));
        QVERIFY(panel.summaryText().startsWith(QStringLiteral("agree")));
        // Clicking a stage asks for its graph.
        QSignalSpy open(&panel, &StagesPanel::openGraph);
        panel.table()->show();
        const QRect cell = panel.table()->visualRect(panel.model()->index(1, 0));
        QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(open.count(), 1);
        QVERIFY(open.at(0).at(0).toString().endsWith(QStringLiteral("#0/0/aot_forward_graph")));
    }

    // Inductor's planted relu bug (tests/data/output_code): the generated code is the last row, divergent, and the
    // kernel found is shown with its call and its C++ definition.
    void aDivergentGeneratedKernelIsShownWithItsCode()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        StagesPanel panel;
        panel.setWorkerProgram(kFxray);
        panel.setDevice(QStringLiteral("cpu"));
        panel.setCompile(QStringLiteral(FXRAY_TEST_DATA_DIR "/output_code/planted.log#0/0"));
        QSignalSpy finished(&panel, &StagesPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("diverge"));
        QCOMPARE(panel.model()->rowCount(), 4);
        QCOMPARE(panel.model()->index(3, 0).data().toString(), QStringLiteral("output_code"));
        QCOMPARE(panel.model()->firstDivergentRow(), 3);
        const QString kernel = panel.kernelText();
        QVERIFY2(kernel.contains(QStringLiteral("first divergent kernel: cpp_fused_relu_0")), qPrintable(kernel));
        QVERIFY2(kernel.contains(QStringLiteral("cpp_fused_relu_0(buf1)")) && kernel.contains(QStringLiteral("decltype(tmp0)(1)")),
                 qPrintable(kernel));
    }

    // graph_breaks.log's frame 4: its backend raised, so dynamo graph-broke and ran the frame eagerly.
    void aCompileTorchFailedIsNotCompiledSayingWhy()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        StagesPanel panel;
        panel.setWorkerProgram(kFxray);
        panel.setCompile(kBreaks + QStringLiteral("#4/0"));
        QSignalSpy finished(&panel, &StagesPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("not compiled"));
        QVERIFY2(panel.summaryText().contains(QStringLiteral("RuntimeError: broken backend")), qPrintable(panel.summaryText()));
        // A bad address is an error in the panel, not a crash.
        QSignalSpy failed(&panel, &StagesPanel::failed);
        panel.setCompile(kBreaks + QStringLiteral("#9/9"));
        panel.start();
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("logged no graph")));
    }

    void aNewRunReplacesTheOldOneAndItsResultsAreDropped()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        StagesPanel panel;
        panel.setWorkerProgram(kFxray);
        panel.setCompile(kMlp + QStringLiteral("#0/0"));
        QSignalSpy finished(&panel, &StagesPanel::finished);
        panel.start();
        const int first = panel.generation();
        panel.start();  // replaces it at once
        QCOMPARE(panel.generation(), first + 1);
        QVERIFY(finished.wait(kTimeoutMs));
        QTest::qWait(500);  // the first run's results, had they not been dropped, would arrive too
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("agree"));
    }

    void mainWindowOpensAStagesTabAndAClickedStageInTheGraphTab()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        fxray::views::MainWindow window;
        window.openPath(kMlp);
        QTRY_VERIFY_WITH_TIMEOUT(window.dumpBrowserModel()->graphCount() > 0, 30000);
        const int tabs = window.centralTabs()->count();
        StagesPanel* panel = window.openStages(kMlp + QStringLiteral("#0/0"), false);
        QCOMPARE(window.centralTabs()->count(), tabs + 1);
        QCOMPARE(window.centralTabs()->currentWidget(), panel);
        QVERIFY(window.centralTabs()->tabText(window.centralTabs()->currentIndex()).contains(QStringLiteral("0/0")));
        Q_EMIT panel->openGraph(kMlp + QStringLiteral("#0/0/inductor_post_grad_graph"));
        QCOMPARE(window.centralTabs()->currentIndex(), 0);  // the Graph tab
    }
};

QTEST_MAIN(TestStagesPanel)
#include "test_stages_panel.moc"
