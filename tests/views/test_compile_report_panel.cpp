// The Compile report dock: built off the GUI thread for the open trace log, compiles listed with tlparse's
// statuses, details with the recompile's failed guard, and graph links that open the graph in the main window;
// for several ranks' logs, a divergence page whose collective differences link to the graphs that make them and
// to the Ranks tab.
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/panels/compile_report_panel.h"
#include "views/panels/ranks_panel.h"

#include "base/md5.h"

#include <QDirIterator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest/QtTest>

using namespace fxray::views;

namespace {
const QString kLog = QStringLiteral(FXRAY_SOURCE_DIR "/tests/data/report/graph_breaks.log");
const QString kAllReduce = QStringLiteral(FXRAY_SOURCE_DIR "/tests/data/distributed/allreduce");

QString rankLog(int rank)
{
    QDirIterator it(kAllReduce, {QStringLiteral("dedicated_log_torch_trace_rank_%1_*.log").arg(rank)}, QDir::Files);
    return it.hasNext() ? it.next() : QString();
}

// The 2-rank all_reduce logs in `dir`, rank 1's AOT graph gathering where rank 0 reduces (its payload's MD5 redone).
bool plantMismatch(const QString& dir)
{
    if (!QFile::copy(rankLog(0), dir + QLatin1Char('/') + QFileInfo(rankLog(0)).fileName()))
        return false;
    QFile in(rankLog(1));
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QStringList lines = QString::fromUtf8(in.readAll()).split(QLatin1Char('\n'));
    qsizetype head = -1;
    for (qsizetype i = 0; i < lines.size() && head < 0; ++i)
        if (lines[i].contains(QStringLiteral("\"aot_inference_graph\"")) && lines[i].contains(QStringLiteral("has_payload")))
            head = i;
    qsizetype end = head + 1;
    while (head >= 0 && end < lines.size() && lines[end].startsWith(QLatin1Char('\t')))
        ++end;
    QStringList body;
    for (qsizetype i = head + 1; head >= 0 && i < end; ++i)
        body << lines[i].mid(1);
    QString text = body.join(QLatin1Char('\n'));
    const QString from = QStringLiteral("torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0')");
    if (head < 0 || !text.contains(from))
        return false;
    text.replace(from, QStringLiteral("torch.ops._c10d_functional.all_gather_into_tensor.default(mm, 2, '0')"));
    lines[head].replace(QRegularExpression(QStringLiteral("\"has_payload\": \"[0-9a-f]+\"")),
                        QStringLiteral("\"has_payload\": \"%1\"").arg(QString::fromStdString(fxray::md5Hex(text.toStdString()))));
    QStringList edited;
    for (const QString& l : text.split(QLatin1Char('\n')))
        edited << QLatin1Char('\t') + l;
    lines = lines.mid(0, head + 1) + edited + lines.mid(end);
    QFile out(dir + QLatin1Char('/') + QFileInfo(rankLog(1)).fileName());
    return out.open(QIODevice::WriteOnly) && out.write(lines.join(QLatin1Char('\n')).toUtf8()) > 0;
}
}  // namespace

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

    void theRanksDivergenceLinksToTheCollectivesThatDiffer()
    {
        QTemporaryDir dir;
        QVERIFY(plantMismatch(dir.path()));
        MainWindow window;
        CompileReportPanel* panel = window.compileReportPanel();
        QSignalSpy ready(panel, &CompileReportPanel::reportReady);
        QSignalSpy checked(panel, &CompileReportPanel::ranksChecked);
        window.openPath(dir.path());
        QVERIFY(ready.wait(20000));
        QVERIFY(checked.count() > 0 || checked.wait(60000));
        QVERIFY(panel->rankCheck() && !panel->rankCheck()->ok());
        QVERIFY(panel->selectDivergence());
        const QString text = panel->details()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("rank 1 calls all_gather_into_tensor")) &&
                     text.contains(QStringLiteral("rank 0 calls all_reduce sum")), qPrintable(text));
        // Each differing call links to its rank's graph: rank 1's first.
        const QString html = panel->details()->toHtml();
        const int at = html.indexOf(QStringLiteral("fxray-graph:"));
        QVERIFY(at >= 0);
        Q_EMIT panel->details()->anchorClicked(QUrl(html.mid(at, html.indexOf(QLatin1Char('"'), at) - at)));
        const QModelIndex current = window.dumpTree()->currentIndex();
        QVERIFY2(current.siblingAtColumn(DumpBrowserModel::NameColumn).data(DumpBrowserModel::AddressRole).toString()
                     .endsWith(QStringLiteral("#r1:0/0/aot_inference_graph")),
                 qPrintable(current.siblingAtColumn(DumpBrowserModel::NameColumn).data(DumpBrowserModel::AddressRole).toString()));
        // "Replay the ranks together" opens the Ranks tab on the same folder (whose check refuses the job).
        Q_EMIT panel->details()->anchorClicked(QUrl(QStringLiteral("fxray-ranks:")));
        auto* ranks = window.findChild<RanksPanel*>();
        QVERIFY(ranks);
        QCOMPARE(ranks->path(), dir.path());
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
