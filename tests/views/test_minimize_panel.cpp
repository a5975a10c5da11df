// The Minimize panel against the real `fxray worker` of this build (skipped in a build without LibTorch): a run on
// a planted stride mismatch streams a live node count (QSignalSpy) and ends with the one-node graph exported and
// opened in a new tab of the main window; a bad failure spec is an error in the panel, not a crash; cancelling a
// run whose worker hangs returns promptly and the next run works (a fresh worker); a graph that does not fail
// says so and changes nothing.
#include "../core/test_support.h"
#include "io/graph_source.h"
#include "views/main_window.h"
#include "views/panels/graph_text_panel.h"
#include "views/panels/minimize_panel.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using fxray::views::MinimizePanel;

namespace {

const QString kWrongStride = QStringLiteral(FXRAY_TEST_DATA_DIR "/faults/wrong_stride/mlp_forward_0");
const QString kClean = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps/mlp/mlp_forward_0");
const QString kFxray = QStringLiteral(FXRAY_BINARY_DIR "/app/cli/fxray");
constexpr int kTimeoutMs = 120000;

void configure(MinimizePanel& panel, const QTemporaryDir& out)
{
    panel.setWorkerProgram(kFxray);
    panel.setOutputRoot(out.path());
    panel.setDevice(QStringLiteral("cpu"));
}

}  // namespace

class TestMinimizePanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!fxray::test::fxrayHasWorker(kFxray.toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
    }

    void runStreamsProgressAndOpensTheResultInATab()
    {
        QTemporaryDir out;
        fxray::views::MainWindow window;
        MinimizePanel& panel = *window.minimizePanel();
        configure(panel, out);
        panel.setGraph(kWrongStride, QStringLiteral("mlp_forward_0"));
        panel.setUntil(QStringLiteral("mismatch"));
        QSignalSpy progressed(&panel, &MinimizePanel::progressed);
        QSignalSpy finished(&panel, &MinimizePanel::finished);
        const int tabsBefore = window.centralTabs()->count();
        panel.start();
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!panel.isRunning());
        QVERIFY(progressed.count() >= 2);
        QCOMPARE(finished.at(0).at(2).toInt(), 1);
        QVERIFY2(panel.liveText().contains(QStringLiteral("1 nodes")), qPrintable(panel.liveText()));
        QVERIFY(panel.logText().contains(QStringLiteral("truncate at 't'")));
        const QString dump = finished.at(0).at(0).toString();
        QVERIFY(QFileInfo::exists(dump + QStringLiteral("/module.py")));
        QVERIFY(QFileInfo::exists(QFileInfo(dump).path() + QStringLiteral("/repro.py")));
        // The result tab: the minimized graph's text.
        QCOMPARE(window.centralTabs()->count(), tabsBefore + 1);
        auto* tab = qobject_cast<fxray::views::GraphTextPanel*>(window.centralTabs()->currentWidget());
        QVERIFY(tab);
        QVERIFY(window.centralTabs()->tabText(window.centralTabs()->currentIndex()).startsWith(QStringLiteral("Minimized:")));
        QVERIFY2(tab->bodyText().contains(QStringLiteral("torch.ops.aten.t.default")), qPrintable(tab->bodyText()));
        // A second run writes a new folder: the first result is not overwritten.
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(finished.at(1).at(0).toString() != dump);
    }

    void badSpecIsReportedInThePanel()
    {
        QTemporaryDir out;
        MinimizePanel panel;
        configure(panel, out);
        panel.setGraph(kWrongStride, QStringLiteral("mlp_forward_0"));
        panel.setUntil(QStringLiteral("crashes"));
        QSignalSpy failed(&panel, &MinimizePanel::failed);
        panel.start();
        QCOMPARE(failed.count(), 1);
        QVERIFY(!panel.isRunning());
        QVERIFY(panel.logText().contains(QStringLiteral("--until")));
    }

    void cancelStopsAHungRunAndTheNextRunWorks()
    {
        QTemporaryDir out;
        MinimizePanel panel;
        configure(panel, out);
        panel.setGraph(kWrongStride, QStringLiteral("mlp_forward_0"));
        panel.setUntil(QStringLiteral("mismatch"));
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");  // the worker inherits it: the baseline replay hangs
        QSignalSpy failed(&panel, &MinimizePanel::failed);
        QSignalSpy finished(&panel, &MinimizePanel::finished);
        panel.start();
        QTest::qWait(2000);
        QVERIFY(panel.isRunning());
        QElapsedTimer t;
        t.start();
        panel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 10000);
        QVERIFY(t.elapsed() < 10000);
        qunsetenv("FXRAY_WORKER_FAULT");
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.last().at(2).toInt(), 1);
    }

    void aGraphThatDoesNotFailSaysSo()
    {
        QTemporaryDir out;
        MinimizePanel panel;
        configure(panel, out);
        panel.setGraph(kClean, QStringLiteral("mlp_forward_0"));
        panel.setUntil(QStringLiteral("nan"));
        QSignalSpy failed(&panel, &MinimizePanel::failed);
        panel.start();
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("does not fail")), qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
    }
};

QTEST_MAIN(TestMinimizePanel)
#include "test_minimize_panel.moc"
