// The Compile report dock: built off the GUI thread for the open trace log, compiles listed with tlparse's
// statuses, details with the recompile's failed guard, and graph links that open the graph in the main window.
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/panels/compile_report_panel.h"

#include <QSignalSpy>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest/QtTest>

using namespace fxray::views;

namespace {
const QString kLog = QStringLiteral(FXRAY_SOURCE_DIR "/tests/data/report/graph_breaks.log");
}

class TestCompileReportPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listsCompilesWithStatusAndShowsRecompileReason()
    {
        CompileReportPanel panel;
        QSignalSpy ready(&panel, &CompileReportPanel::reportReady);
        panel.setPath(kLog);
        QVERIFY(panel.isBusy());
        QVERIFY(ready.wait(20000));
        QVERIFY(panel.messageText().contains(QStringLiteral("8 compile(s): 1 failed, 3 graph break(s), 3 recompile(s)")));
        QTreeWidgetItem* rank = panel.tree()->topLevelItem(0);
        QCOMPARE(rank->childCount(), 8);
        QCOMPARE(rank->child(7)->text(0), QStringLiteral("[4/0]"));
        QCOMPARE(rank->child(7)->text(2), QStringLiteral("failed"));
        QVERIFY(panel.selectCompile(QStringLiteral("[0/1]")));
        const QString details = panel.details()->toPlainText();
        QVERIFY(details.contains(QStringLiteral("0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6")));
        QVERIFY(details.contains(QStringLiteral("print(\"scaling\")")));
    }

    void aPathWithoutTraceLogsSaysSo()
    {
        CompileReportPanel panel;
        QSignalSpy ready(&panel, &CompileReportPanel::reportReady);
        panel.setPath(QStringLiteral(FXRAY_SOURCE_DIR "/samples/cpu/dumps"));
        QVERIFY(ready.wait(20000));
        QVERIFY(panel.messageText().contains(QStringLiteral("no TORCH_TRACE log")));
        QCOMPARE(panel.tree()->topLevelItemCount(), 0);
    }

    void graphLinkOpensTheGraphInTheMainWindow()
    {
        MainWindow window;
        CompileReportPanel* panel = window.compileReportPanel();
        QSignalSpy ready(panel, &CompileReportPanel::reportReady);
        window.openPath(kLog);
        QVERIFY(ready.wait(20000));
        QVERIFY(panel->selectCompile(QStringLiteral("[2/1]")));
        const QString address = kLog + QStringLiteral("#2/1/aot_inference_graph");
        // The link as the report writes it (an address with '/' once lost its "%2F" to the line number's arg()).
        const QString html = panel->details()->toHtml();
        const int at = html.indexOf(QStringLiteral("fxray-graph:") + QString::fromLatin1(QUrl::toPercentEncoding(kLog)));
        QVERIFY(at >= 0);
        QVERIFY2(!html.contains(QStringLiteral("(line %")), qPrintable(html));
        QString link = html.mid(at, html.indexOf(QLatin1Char('"'), at) - at);
        while (!link.endsWith(QStringLiteral("aot_inference_graph"))) {  // the compile's links in order: find its AOT graph's
            const int next = html.indexOf(QStringLiteral("fxray-graph:"), html.indexOf(link) + link.size());
            QVERIFY(next >= 0);
            link = html.mid(next, html.indexOf(QLatin1Char('"'), next) - next);
        }
        Q_EMIT panel->details()->anchorClicked(QUrl(link));
        const QModelIndex current = window.dumpTree()->currentIndex();
        QCOMPARE(current.siblingAtColumn(DumpBrowserModel::NameColumn).data(DumpBrowserModel::AddressRole).toString(), address);
        QVERIFY(!window.openGraphAddress(QStringLiteral("nowhere.log#0/0/dynamo_output_graph")));
    }

    void outputCodeOpensAsText()
    {
        CompileReportPanel panel;
        QSignalSpy ready(&panel, &CompileReportPanel::reportReady);
        panel.setPath(QStringLiteral(FXRAY_SOURCE_DIR "/samples/cpu/trace/mlp_inductor.log"));
        QVERIFY(ready.wait(20000));
        QVERIFY(panel.selectCompile(QStringLiteral("[0/0]")));
        QVERIFY(panel.details()->toHtml().contains(QStringLiteral("fxray-code:0/0/")));
        const QString html = panel.details()->toHtml();
        const int at = html.indexOf(QStringLiteral("fxray-code:"));
        const QString link = html.mid(at, html.indexOf(QLatin1Char('"'), at) - at);
        Q_EMIT panel.details()->anchorClicked(QUrl(link));
        QVERIFY(panel.details()->toPlainText().contains(QStringLiteral("def call(")));
        Q_EMIT panel.details()->anchorClicked(QUrl(QStringLiteral("fxray-back:0/0")));
        QVERIFY(panel.details()->toPlainText().contains(QStringLiteral("Compile time and graph")));
    }
};

QTEST_MAIN(TestCompileReportPanel)
#include "test_compile_report_panel.moc"
