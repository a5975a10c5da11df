// DumpBrowserModel over the bundled samples: model consistency (QAbstractItemModelTester) while it fills
// asynchronously, node counts, stale results dropped, failures reported without crashing. Also the main window.
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/panels/graph_text_panel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest/QtTest>

using fxray::views::DumpBrowserModel;

namespace {

const QString kSamples = QStringLiteral(FXRAY_SAMPLES_DIR);
const QString kDumps = QStringLiteral(FXRAY_SAMPLES_DIR "/h100/dumps");
constexpr int kTimeoutMs = 60000;

bool waitForFinished(DumpBrowserModel& model)
{
    if (!model.isLoading())
        return true;
    QSignalSpy finished(&model, &DumpBrowserModel::loadingFinished);
    return finished.wait(kTimeoutMs);
}

// All graph rows, depth first.
QList<QModelIndex> graphRows(const DumpBrowserModel& model, const QModelIndex& parent = {})
{
    QList<QModelIndex> out;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        if (model.entry(i))
            out << i;
        out << graphRows(model, i);
    }
    return out;
}

}  // namespace

class TestDumpBrowserModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fillsFromSeedDumps()
    {
        DumpBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy started(&model, &DumpBrowserModel::loadingStarted);
        QSignalSpy discovered(&model, &DumpBrowserModel::discovered);
        QSignalSpy loaded(&model, &DumpBrowserModel::graphLoaded);
        QSignalSpy finished(&model, &DumpBrowserModel::loadingFinished);
        QSignalSpy failed(&model, &DumpBrowserModel::loadFailed);

        model.setPath(kDumps);
        QCOMPARE(started.count(), 1);
        QVERIFY(model.isLoading());
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!model.isLoading());
        QCOMPARE(failed.count(), 0);
        QCOMPARE(discovered.count(), 1);

        // 3 models x (forward, backward, joint), one source folder.
        QCOMPARE(model.graphCount(), 9);
        QCOMPARE(loaded.count(), 9);
        QCOMPARE(model.loadedCount(), 9);
        QCOMPARE(model.failedCount(), 0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.groupCount(), 3);
        const QModelIndex source = model.index(0, 0);
        QCOMPARE(model.data(source, DumpBrowserModel::ItemTypeRole).toInt(),
                 static_cast<int>(DumpBrowserModel::ItemType::Source));
        QStringList groups;
        for (int r = 0; r < model.rowCount(source); ++r) {
            const QModelIndex group = model.index(r, 0, source);
            groups << group.data().toString();
            QCOMPARE(model.rowCount(group), 3);
        }
        groups.sort();
        QCOMPARE(groups, (QStringList{"cnn_channels_last", "embed_ce", "mlp"}));

        const QList<QModelIndex> graphs = graphRows(model);
        QCOMPARE(graphs.size(), 9);
        QStringList kinds;
        for (const QModelIndex& g : graphs) {
            const auto graph = model.loadedGraph(g);
            QVERIFY(graph);
            const int nodes = model.data(g, DumpBrowserModel::NodeCountRole).toInt();
            QCOMPARE(nodes, static_cast<int>(graph->graph.nodes.size()));
            QVERIFY(nodes > 3);
            QCOMPARE(g.siblingAtColumn(DumpBrowserModel::NodesColumn).data().toInt(), nodes);
            QVERIFY(!g.siblingAtColumn(DumpBrowserModel::AddressColumn).data().toString().isEmpty());
            QCOMPARE(g.siblingAtColumn(DumpBrowserModel::AddressColumn).data().toString(),
                     g.data(DumpBrowserModel::AddressRole).toString());
            kinds << g.siblingAtColumn(DumpBrowserModel::KindColumn).data().toString();
        }
        QCOMPARE(kinds.count("forward"), 3);
        QCOMPARE(kinds.count("backward"), 3);
        QCOMPARE(kinds.count("joint"), 3);
    }

    void fillsFromAllSamples()
    {
        DumpBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPath(kSamples);
        QVERIFY(waitForFinished(model));
        QVERIFY2(model.failure().isEmpty(), qPrintable(model.failure()));
        // The seed dumps plus the trace log's graphs, under separate sources.
        QVERIFY(model.graphCount() > 9);
        QVERIFY(model.rowCount() >= 2);
        QCOMPARE(graphRows(model).size(), model.graphCount());
        for (const QModelIndex& g : graphRows(model)) {
            QVERIFY(model.isGraphDone(g));
            if (!model.loadedGraph(g))  // a graph that fails says why in its tooltip
                QVERIFY(!model.loadError(g).isEmpty() && g.data(Qt::ToolTipRole).toString().contains(model.loadError(g)));
        }
    }

    void replacedPathDropsStaleResults()
    {
        DumpBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&model, &DumpBrowserModel::loadingFinished);
        model.setPath(kSamples);
        const quint64 first = model.generation();
        model.setPath(kDumps + "/mlp");
        QVERIFY(model.generation() > first);
        QVERIFY(finished.wait(kTimeoutMs));
        QTest::qWait(200);  // anything still queued from the first path would arrive now
        QCOMPARE(finished.count(), 1);
        QCOMPARE(model.graphCount(), 3);
        for (const QModelIndex& g : graphRows(model))
            QVERIFY(g.data().toString().startsWith("mlp_"));
    }

    void missingPathFailsCleanly()
    {
        DumpBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy failed(&model, &DumpBrowserModel::loadFailed);
        QSignalSpy finished(&model, &DumpBrowserModel::loadingFinished);
        model.setPath(QStringLiteral("/nonexistent/fxray/path"));
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!failed.front().front().toString().isEmpty());
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.graphCount(), 0);
        QVERIFY(!model.failure().isEmpty());
    }

    void brokenGraphIsAnErrorRow()
    {
        // A seed layout whose module.py does not parse: the row exists, says "error", and nothing crashes.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.path() + "/broken/broken_forward_0";
        QVERIFY(QDir().mkpath(folder));
        QFile module(folder + "/module.py");
        QVERIFY(module.open(QIODevice::WriteOnly));
        module.write("import torch\nclass FxModule(torch.nn.Module):\n    def forward(self, a):\n"
                     "        b = torch.ops.aten.relu.default(a\n        return (b,)\n");
        module.close();
        DumpBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPath(dir.path());
        QVERIFY(waitForFinished(model));
        QVERIFY2(model.failure().isEmpty(), qPrintable(model.failure()));  // found, then failed to load
        const QList<QModelIndex> graphs = graphRows(model);
        QCOMPARE(graphs.size(), 1);
        QCOMPARE(model.failedCount(), 1);
        QVERIFY(!model.loadedGraph(graphs.front()));
        QVERIFY(!model.loadError(graphs.front()).isEmpty());
        QCOMPARE(graphs.front().siblingAtColumn(DumpBrowserModel::NodesColumn).data().toString(), QString("error"));
    }

    void mainWindowShowsSelectedGraph()
    {
        fxray::views::MainWindow window;
        window.show();
        QCOMPARE(window.windowTitle(), QString("fxray"));
        window.openPath(kDumps + "/mlp");
        QVERIFY(waitForFinished(*window.dumpBrowserModel()));
        // The first graph is selected as soon as the tree fills; its text shows once loaded.
        const QModelIndex current = window.dumpTree()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(window.dumpBrowserModel()->entry(current));
        QTRY_VERIFY(window.graphTextPanel()->bodyText().contains("def forward"));
        QVERIFY(window.graphTextPanel()->headerText().contains("nodes"));
        // Selecting a group shows a hint, not stale text.
        window.dumpTree()->setCurrentIndex(current.parent());
        QVERIFY(!window.graphTextPanel()->bodyText().contains("def forward"));
    }
};

QTEST_MAIN(TestDumpBrowserModel)
#include "test_dump_browser_model.moc"
