// The main window as a whole: one node selection shared by graph, code, inspector (and replay rows); opening a
// broken file shows an error and keeps what was open (every error case of tests/data/bad, issue 8); export of
// the graph and the replay report; settings (recent paths) kept between runs.
#include "../core/test_support.h"
#include "io/graph_source.h"
#include "render/graphviz_renderer.h"
#include "views/graph/graph_scene.h"
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/panels/graph_panel.h"
#include "views/panels/graph_text_panel.h"
#include "views/panels/inspector_panel.h"

#include <QFile>
#include <QTreeView>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest/QtTest>

using fxray::views::DumpBrowserModel;
using fxray::views::GraphPanel;
using fxray::views::MainWindow;

namespace {

constexpr int kTimeoutMs = 60000;
const QString kMlp = QStringLiteral(FXRAY_SAMPLES_DIR "/h100/dumps/mlp/mlp_forward_0");
const QString kBad = QStringLiteral(FXRAY_TEST_DATA_DIR "/bad");

// Opens `path` and waits until its graphs are loaded and the selected one is drawn.
bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy finished(w.dumpBrowserModel(), &DumpBrowserModel::loadingFinished);
    w.openPath(path);
    if (!finished.wait(kTimeoutMs))
        return false;
    QTest::qWait(0);
    return QTest::qWaitFor([&] { return w.currentGraph() && !w.graphPanel()->isLayingOut() &&
                                        w.graphPanel()->scene()->drawing(); }, kTimeoutMs);
}

int nodeIndex(const MainWindow& w, const char* name)
{
    return w.currentGraph() ? w.currentGraph()->graph.findNode(name) : -1;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // settings of this test only, not the developer's
        QSettings().clear();
    }

    void graphCodeAndInspectorShareOneSelection()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, kMlp));
        const int relu = nodeIndex(w, "relu");
        QVERIFY(relu >= 0);

        // Graph -> code and inspector: picking the item in the scene.
        auto* scene = w.graphPanel()->scene();
        QVERIFY(scene->itemForNode(relu));
        scene->itemForNode(relu)->setSelected(true);
        QCOMPARE(w.selectedNode(), relu);
        QCOMPARE(w.graphTextPanel()->selectedNode(), relu);
        const int line = w.graphTextPanel()->lineOfNode(relu);
        QVERIFY(line > 0);
        QCOMPARE(w.graphTextPanel()->editor()->textCursor().blockNumber() + 1, line);
        QVERIFY(w.graphTextPanel()->editor()->textCursor().block().text().contains(QStringLiteral("relu")));
        QCOMPARE(w.inspectorPanel()->node(), relu);
        QVERIFY(w.inspectorPanel()->detailsText().contains(QStringLiteral("aten.relu.default")));
        QVERIFY(w.inspectorPanel()->detailsText().contains(QStringLiteral("users")));

        // Code -> graph and inspector: moving the cursor onto another node's line.
        const int addmm = nodeIndex(w, "addmm");
        QVERIFY(addmm >= 0);
        QPlainTextEdit* editor = w.graphTextPanel()->editor();
        QTextCursor cursor(editor->document()->findBlockByNumber(w.graphTextPanel()->lineOfNode(addmm) - 1));
        cursor.movePosition(QTextCursor::EndOfLine);  // past the frees: the line's own node
        editor->setTextCursor(cursor);
        QCOMPARE(w.selectedNode(), addmm);
        QCOMPARE(w.graphPanel()->selectedNode(), addmm);
        QVERIFY(scene->itemForNode(addmm)->isSelected());
        QVERIFY(!scene->itemForNode(relu)->isSelected());
        QCOMPARE(w.inspectorPanel()->node(), addmm);

        // Inspector -> all: a link to a user.
        QSignalSpy activated(w.inspectorPanel(), &fxray::views::InspectorPanel::nodeActivated);
        QVERIFY(w.inspectorPanel()->detailsHtml().contains(QStringLiteral("node:%1").arg(relu)));
        Q_EMIT w.inspectorPanel()->nodeActivated(relu);  // what clicking the link does
        QCOMPARE(w.selectedNode(), relu);
        QVERIFY(scene->itemForNode(relu)->isSelected());
        QCOMPARE(w.graphTextPanel()->selectedNode(), relu);
    }

    void searchFindsNodesByNameAndOpAndCycles()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, kMlp));
        GraphPanel* g = w.graphPanel();
        g->setSearchText(QStringLiteral("ADDMM"));  // case-insensitive, matches names and ops
        QCOMPARE(g->searchHits().size(), std::size_t(2));
        g->findNext();
        QCOMPARE(w.selectedNode(), g->searchHits()[0]);
        g->findNext();
        QCOMPARE(w.selectedNode(), g->searchHits()[1]);
        g->findNext();
        QCOMPARE(w.selectedNode(), g->searchHits()[0]);  // wraps
        g->findPrevious();
        QCOMPARE(w.selectedNode(), g->searchHits()[1]);
        QCOMPARE(w.graphTextPanel()->selectedNode(), g->searchHits()[1]);
        g->setSearchText(QStringLiteral("no such node"));
        QVERIFY(g->searchHits().empty());
    }

    void brokenFileShowsAnErrorAndKeepsWhatWasOpen()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, kMlp));
        const auto before = w.currentGraph();
        const int graphs = w.dumpBrowserModel()->graphCount();
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken_forward_0.py"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import torch\nclass FxModule(torch.nn.Module):\n    def forward(self, a):\n        b = torch.ops.aten.relu.default(c)\n        return (b,)\n");
        f.close();
        QSignalSpy finished(w.dumpBrowserModel(), &DumpBrowserModel::loadingFinished);
        w.openPath(broken);
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY2(w.errorBannerText().contains(QStringLiteral("broken_forward_0.py")), qPrintable(w.errorBannerText()));
        QVERIFY2(w.errorBannerText().contains(QStringLiteral("'c'")), qPrintable(w.errorBannerText()));  // the reason
        QCOMPARE(w.currentGraph(), before);
        QCOMPARE(w.dumpBrowserModel()->graphCount(), graphs);
        QCOMPARE(w.dumpBrowserModel()->path(), kMlp);
        QVERIFY(w.graphPanel()->scene()->drawing());
        // A path that does not exist: the same.
        w.openPath(dir.filePath(QStringLiteral("missing")));
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(w.errorBannerText().contains(QStringLiteral("missing")));
        QCOMPARE(w.currentGraph(), before);
    }

    // Issue 8: every error case of the bad-input corpus, opened in the GUI over a good graph, gives an error naming
    // the file and keeps the good graph on screen (or, for a file with some graphs that load, shows those with
    // the failures on their rows). Nothing crashes or hangs.
    void badCorpusKeepsPreviousState()
    {
        QFile manifest(kBad + QStringLiteral("/MANIFEST.tsv"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        MainWindow w;
        QVERIFY(openAndWait(w, kMlp));
        QTemporaryDir staging;
        int checked = 0, kept = 0, partial = 0;
        for (const QByteArray& raw : manifest.readAll().split('\n')) {
            const QList<QByteArray> cols = raw.split('\t');
            if (raw.startsWith('#') || cols.size() < 3 || cols[1] != "error")
                continue;
            const QString rel = QString::fromUtf8(cols[0]);
            QString path = kBad + QLatin1Char('/') + rel;
            QString name = QFileInfo(rel).fileName();
            if (rel.startsWith(QStringLiteral("pickle/"))) {
                // As the CLI test does: the pickle is the .input of a one-input dump folder.
                name = QFileInfo(rel).completeBaseName();
                const QString folder = staging.filePath(name);
                QVERIFY(QDir().mkpath(folder));
                QFile module(folder + QStringLiteral("/module.py"));
                QVERIFY(module.open(QIODevice::WriteOnly));
                module.write("import torch\nclass FxModule(torch.nn.Module):\n    def forward(self, primals_1):\n"
                             "        relu = torch.ops.aten.relu.default(primals_1)\n        return (relu,)\n");
                module.close();
                QFile::remove(folder + QLatin1Char('/') + name + QStringLiteral(".input"));
                QVERIFY(QFile::copy(path, folder + QLatin1Char('/') + name + QStringLiteral(".input")));
                path = folder;
            }
            const auto before = w.currentGraph();
            QSignalSpy finished(w.dumpBrowserModel(), &DumpBrowserModel::loadingFinished);
            w.openPath(path);
            QVERIFY2(finished.wait(kTimeoutMs), qPrintable(rel));
            ++checked;
            const QString banner = w.errorBannerText();
            if (!banner.isEmpty()) {
                QVERIFY2(banner.contains(name), qPrintable(rel + QStringLiteral(": ") + banner));
                QVERIFY2(w.currentGraph() == before, qPrintable(rel));
                QVERIFY2(w.dumpBrowserModel()->path() == kMlp, qPrintable(rel));
                ++kept;
                continue;
            }
            // Some of its graphs load: they are shown, and what failed is on the rows (or the discovery errors).
            const DumpBrowserModel* m = w.dumpBrowserModel();
            QVERIFY2(m->failedCount() > 0 || !m->discoveryErrors().isEmpty(), qPrintable(rel));
            ++partial;
            QVERIFY(openAndWait(w, kMlp));
        }
        qInfo("bad corpus in the GUI: %d cases, %d kept the previous graph with an error banner, %d partly loaded "
              "with the failures on their rows", checked, kept, partial);
        QVERIFY(checked >= 50);
    }

    void exportsGraphAndRefusesAReportThatDoesNotExist()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, kMlp));
        QTemporaryDir dir;
        QSignalSpy exported(&w, &MainWindow::exportFinished);
        QVERIFY(w.exportGraph(dir.filePath(QStringLiteral("g.dot"))));
        QVERIFY(exported.wait(kTimeoutMs));
        QCOMPARE(exported.last().at(1).toString(), QString());
        QFile dot(dir.filePath(QStringLiteral("g.dot")));
        QVERIFY(dot.open(QIODevice::ReadOnly));
        QVERIFY(dot.readAll().startsWith("digraph"));
        if (fxray::render::graphvizAvailable()) {
            QVERIFY(w.exportGraph(dir.filePath(QStringLiteral("g.svg"))));
            QVERIFY(exported.wait(kTimeoutMs));
            QFile svg(dir.filePath(QStringLiteral("g.svg")));
            QVERIFY(svg.open(QIODevice::ReadOnly));
            QVERIFY(svg.readAll().contains("<svg"));
        }
        QVERIFY(!w.exportGraph(dir.filePath(QStringLiteral("g.unknown"))));
        QVERIFY(!w.exportReport(dir.filePath(QStringLiteral("r.json"))));  // nothing replayed yet
    }

    void dumpsFilterAndStructuralTwins()
    {
        MainWindow w;
        QSignalSpy finished(w.dumpBrowserModel(), &DumpBrowserModel::loadingFinished);
        w.openPath(QStringLiteral(FXRAY_SAMPLES_DIR));
        QVERIFY(finished.wait(kTimeoutMs));
        DumpBrowserModel* m = w.dumpBrowserModel();
        // The samples hold structurally identical graphs (the same model captured in several forms): marked.
        int twins = 0;
        for (int e = 0; e < m->graphCount(); ++e) {
            const QModelIndex i = m->indexForEntry(e);
            if (m->identicalGraphs(i).isEmpty())
                continue;
            ++twins;
            QVERIFY(i.siblingAtColumn(DumpBrowserModel::KindColumn).data().toString().contains(QStringLiteral("≡")));
            for (const QString& other : m->identicalGraphs(i))
                QVERIFY(other != i.data(DumpBrowserModel::AddressRole).toString());
        }
        QVERIFY(twins >= 2);
        // Filter: only graphs whose name, kind or address has "embed_ce_f" stay visible, and their parents.
        w.setDumpFilter(QStringLiteral("EMBED_CE_F"));
        int visible = 0;
        for (int e = 0; e < m->graphCount(); ++e) {
            const QModelIndex i = m->indexForEntry(e);
            const bool shown = !w.dumpTree()->isRowHidden(i.row(), i.parent());
            QCOMPARE(shown, i.data().toString().contains(QStringLiteral("embed_ce_f"), Qt::CaseInsensitive) ||
                                i.data(DumpBrowserModel::AddressRole).toString().contains(QStringLiteral("embed_ce_f"), Qt::CaseInsensitive));
            visible += shown;
            if (shown)
                QVERIFY(!w.dumpTree()->isRowHidden(i.parent().row(), i.parent().parent()));
        }
        QVERIFY(visible >= 2);
        w.setDumpFilter(QString());
        for (int e = 0; e < m->graphCount(); ++e)
            QVERIFY(!w.dumpTree()->isRowHidden(m->indexForEntry(e).row(), m->indexForEntry(e).parent()));
    }

    void recentPathsPersistBetweenRuns()
    {
        {
            MainWindow w;
            QVERIFY(openAndWait(w, kMlp));
            QCOMPARE(w.recentPaths().value(0), kMlp);
            w.close();  // saves settings
        }
        MainWindow again;
        QCOMPARE(again.recentPaths().value(0), kMlp);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
