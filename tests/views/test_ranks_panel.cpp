// Issue 22 in the GUI, against real `fxray worker`s (this build's fxray; skipped without LibTorch) and the committed
// 2-rank fixtures (tests/data/distributed/make_fixtures.py): the Dumps tree titles a folder of per-rank logs (or a
// seed-dump folder of per-rank models) by rank and counts the ranks; the Ranks tab replays the compiled all_reduce
// step on both ranks over Gloo with every graph passing and the collective run on each rank, side by side
// (QAbstractItemModelTester on its model), and a click asks for that rank's graph; a collective-order mismatch
// planted in rank 1's log is refused before anything runs, naming both ranks' calls; Cancel stops a job whose ranks
// hang (FXRAY_WORKER_FAULT) promptly, leaving no worker behind.
#include "../core/test_support.h"
#include "base/md5.h"
#include "views/models/dump_browser_model.h"
#include "views/models/rank_results_model.h"
#include "views/panels/ranks_panel.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using fxray::views::DumpBrowserModel;
using fxray::views::RankResultsModel;
using fxray::views::RanksPanel;

namespace {

const QString kAllReduce = QStringLiteral(FXRAY_TEST_DATA_DIR "/distributed/allreduce");
const QString kTpDumps = QStringLiteral(FXRAY_TEST_DATA_DIR "/distributed/tp_mlp_dumps");
const QString kTpLogs = QStringLiteral(FXRAY_TEST_DATA_DIR "/distributed/tp_mlp");
constexpr int kTimeoutMs = 240000;

QString workerProgram() { return QStringLiteral(FXRAY_BINARY_DIR "/app/cli/fxray"); }

QString rankLog(const QString& dir, int rank)
{
    QDirIterator it(dir, {QStringLiteral("dedicated_log_torch_trace_rank_%1_*.log").arg(rank)}, QDir::Files);
    return it.hasNext() ? it.next() : QString();
}

// A copy of a trace log whose first `record` payload has `from` replaced by `to`, its header's MD5 recomputed (as
// tests/cli/cli_harness.py's edit_trace_payload).
bool editPayload(const QString& src, const QString& dst, const QString& record, const QString& from, const QString& to)
{
    QFile in(src);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QStringList lines = QString::fromUtf8(in.readAll()).split(QLatin1Char('\n'));
    qsizetype head = -1;
    for (qsizetype i = 0; i < lines.size() && head < 0; ++i)
        if (lines[i].contains(QLatin1Char('"') + record + QLatin1Char('"')) && lines[i].contains(QStringLiteral("has_payload")))
            head = i;
    if (head < 0)
        return false;
    qsizetype end = head + 1;
    while (end < lines.size() && lines[end].startsWith(QLatin1Char('\t')))
        ++end;
    QStringList body;
    for (qsizetype i = head + 1; i < end; ++i)
        body << lines[i].mid(1);
    QString text = body.join(QLatin1Char('\n'));
    if (!text.contains(from))
        return false;
    text.replace(from, to);
    const QString digest = QString::fromStdString(fxray::md5Hex(text.toStdString()));
    lines[head].replace(QRegularExpression(QStringLiteral("\"has_payload\": \"[0-9a-f]+\"")), QStringLiteral("\"has_payload\": \"%1\"").arg(digest));
    QStringList edited;
    for (const QString& l : text.split(QLatin1Char('\n')))
        edited << QLatin1Char('\t') + l;
    lines = lines.mid(0, head + 1) + edited + lines.mid(end);
    QFile out(dst);
    return out.open(QIODevice::WriteOnly) && out.write(lines.join(QLatin1Char('\n')).toUtf8()) > 0;
}

// Live processes of ours running `fxray worker`.
int workerCount()
{
    int n = 0;
    const QString self = QString::number(::getpid());
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QString dir = it.next();
        QFile stat(dir + QStringLiteral("/stat")), cmdline(dir + QStringLiteral("/cmdline"));
        if (!stat.open(QIODevice::ReadOnly) || !cmdline.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromLocal8Bit(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (fields.size() > 1 && fields[0] != QLatin1String("Z") && fields[1] == self && cmdline.readAll().split('\0').contains("worker"))
            ++n;
    }
    return n;
}

}  // namespace

class TestRanksPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { qunsetenv("FXRAY_WORKER_FAULT"); }

    void theDumpsTreeTitlesEachRank()
    {
        DumpBrowserModel model;
        QSignalSpy done(&model, &DumpBrowserModel::loadingFinished);
        model.setPath(kAllReduce);
        QVERIFY(done.wait(60000));
        QCOMPARE(model.rankCount(), 2);
        QCOMPARE(model.rowCount(), 2);  // one log per rank
        QStringList names;
        for (int r = 0; r < 2; ++r) {
            const QModelIndex source = model.index(r, 0);
            names << source.data().toString();
            QCOMPARE(source.data(DumpBrowserModel::RankRole).toInt(), names.last().startsWith(QStringLiteral("rank 1")) ? 1 : 0);
        }
        names.sort();
        QVERIFY2(names[0].startsWith(QStringLiteral("rank 0 · dedicated_log_torch_trace_rank_0_")), qPrintable(names[0]));
        QVERIFY2(names[1].startsWith(QStringLiteral("rank 1 · ")), qPrintable(names[1]));

        // Seed dumps: one source, the per-rank models as its groups.
        model.setPath(kTpDumps);
        QVERIFY(done.wait(60000));
        QCOMPARE(model.rankCount(), 2);
        const QModelIndex source = model.index(0, 0);
        QCOMPARE(source.data(DumpBrowserModel::RankRole).toInt(), -1);
        QStringList groups;
        for (int g = 0; g < model.rowCount(source); ++g)
            groups << model.index(g, 0, source).data().toString();
        groups.sort();
        QCOMPARE(groups, (QStringList{QStringLiteral("rank 0 · tp_mlp_rank0"), QStringLiteral("rank 1 · tp_mlp_rank1")}));

        // A single-rank folder is no job.
        model.setPath(QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps"));
        QVERIFY(done.wait(60000));
        QCOMPARE(model.rankCount(), 0);
    }

    void bothRanksReplayTogetherSideBySide()
    {
        if (!fxray::test::fxrayHasWorker(workerProgram().toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        RanksPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setWorkerProgram(workerProgram());
        panel.setPath(kAllReduce);
        QSignalSpy finished(&panel, &RanksPanel::finished);
        panel.start();
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY2(finished.at(0).at(0).toString() == QStringLiteral("pass"), qPrintable(panel.summaryText()));
        QVERIFY2(panel.summaryText().startsWith(QStringLiteral("distributed replay: 2 ranks over gloo")), qPrintable(panel.summaryText()));
        QVERIFY2(panel.summaryText().contains(QStringLiteral("collectives run: rank 0 2/2 rank 1 2/2")), qPrintable(panel.summaryText()));
        const RankResultsModel* m = panel.model();
        QCOMPARE(m->columnCount(), 3);  // graph, rank 0, rank 1
        QCOMPARE(m->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("rank 1"));
        int aot = -1;
        for (int row = 0; row < m->rowCount(); ++row)
            if (m->index(row, 0).data().toString() == QStringLiteral("[0/0] aot_inference_graph"))
                aot = row;
        QVERIFY(aot >= 0);
        for (int rank = 1; rank <= 2; ++rank)
            QCOMPARE(m->index(aot, rank).data().toString(), QStringLiteral("pass 8/8 c1/1"));
        QSignalSpy open(&panel, &RanksPanel::openGraph);
        const QModelIndex cell = m->index(aot, 2);
        Q_EMIT panel.table()->clicked(cell);
        QCOMPARE(open.count(), 1);
        QVERIFY2(open.at(0).at(0).toString().endsWith(QStringLiteral("#r1:0/0/aot_inference_graph")), qPrintable(open.at(0).at(0).toString()));
        QTRY_COMPARE(workerCount(), 0);  // the job's workers are gone
    }

    void aDtensorStepsRanksAreComparedWithTheSingleRankReference()
    {
        if (!fxray::test::fxrayHasWorker(workerProgram().toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        RanksPanel panel;
        panel.setWorkerProgram(workerProgram());
        panel.setPath(kTpLogs);
        QSignalSpy finished(&panel, &RanksPanel::finished);
        panel.start();
        QVERIFY(finished.wait(kTimeoutMs));
        // The per-rank dynamo graphs stay unsupported (DTensor dispatch needs Python): "fail", as the CLI's exit 1.
        QVERIFY2(panel.summaryText().contains(QStringLiteral("single-rank reference of compile 0/0 (dynamo graph, unsharded): pass 15/15")),
                 qPrintable(panel.summaryText()));
        const RankResultsModel* m = panel.model();
        int forward = -1;
        for (int row = 0; row < m->rowCount(); ++row)
            if (m->index(row, 0).data().toString() == QStringLiteral("[0/0] aot_forward_graph"))
                forward = row;
        QVERIFY(forward >= 0);
        for (int rank = 1; rank <= 2; ++rank)
            QCOMPARE(m->index(forward, rank).data().toString(), QStringLiteral("pass 18/18 c1/1 =ref"));
        QTRY_COMPARE(workerCount(), 0);  // the reference's worker and the ranks' are gone
    }

    void aPlantedCollectiveMismatchIsRefusedBeforeAnythingRuns()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(rankLog(kAllReduce, 0), dir.filePath(QFileInfo(rankLog(kAllReduce, 0)).fileName())));
        const QString r1 = rankLog(kAllReduce, 1);
        QVERIFY(editPayload(r1, dir.filePath(QFileInfo(r1).fileName()), QStringLiteral("aot_inference_graph"),
                            QStringLiteral("torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0')"),
                            QStringLiteral("torch.ops._c10d_functional.all_gather_into_tensor.default(mm, 2, '0')")));
        RanksPanel panel;
        panel.setPath(dir.path());
        QSignalSpy finished(&panel, &RanksPanel::finished);
        panel.start();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("refused"));
        const QString s = panel.summaryText();
        QVERIFY2(s.startsWith(QStringLiteral("collective check failed before anything ran")) &&
                     s.contains(QStringLiteral("rank 1 calls all_gather_into_tensor")) && s.contains(QStringLiteral("rank 0 calls all_reduce sum")),
                 qPrintable(s));
        QCOMPARE(workerCount(), 0);  // nothing was started
    }

    void cancelStopsEveryRank()
    {
        if (!fxray::test::fxrayHasWorker(workerProgram().toStdString()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        qputenv("FXRAY_WORKER_FAULT", "hang:mm");  // every rank's worker hangs at its first mm
        RanksPanel panel;
        panel.setWorkerProgram(workerProgram());
        panel.setPath(kAllReduce);
        QSignalSpy finished(&panel, &RanksPanel::finished);
        panel.start();
        QTRY_VERIFY_WITH_TIMEOUT(workerCount() == 2, 120000);
        QTest::qWait(3000);  // up and replaying (hung at mm)
        QVERIFY(panel.isRunning());
        QElapsedTimer clock;
        clock.start();
        panel.cancel();
        QVERIFY(finished.wait(20000));
        QVERIFY(clock.elapsed() < 20000);
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("cancelled"));
        QVERIFY2(panel.summaryText().contains(QStringLiteral("cancelled")), qPrintable(panel.summaryText()));
        QTRY_COMPARE_WITH_TIMEOUT(workerCount(), 0, 5000);
    }
};

QTEST_MAIN(TestRanksPanel)
#include "test_ranks_panel.moc"
