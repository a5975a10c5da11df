// The GUI's replay service (views/services/replay_service.h) against a real LibTorch `fxray worker`
// (FXRAY_TEST_WORKER, else this build's fxray; skipped when that has no worker) and real dumps: a request replaced
// by a newer one of the same context and tag has its results dropped (running: its worker's replay is killed;
// queued: it never runs); cancel stops the worker's job promptly and still delivers the cancelled report; a worker
// that crashes (SIGKILLed between requests, or aborting mid-replay) is replaced by a fresh one on the next request;
// a body that throws gets jobFailed and a fresh worker; one worker per device is shared by every context; a
// context that is destroyed gets nothing more.
#include "../core/test_support.h"
#include "io/graph_source.h"
#include "views/services/replay_service.h"
#include "worker/replay_worker.h"

#include <QSignalSpy>
#include <QtTest/QtTest>

#include <atomic>
#include <csignal>
#include <memory>
#include <unistd.h>

using fxray::views::JobContext;
using fxray::views::JobId;
using fxray::views::ReplayRequest;
using fxray::views::ReplayService;
using fxray::worker::ReplayWorker;
using Report = fxray::replay::ReplayReport;

namespace {

const QString kClean = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps/mlp/mlp_forward_0");
constexpr int kTimeoutMs = 120000;
constexpr int kTryTimeoutMs = 60000;

QString workerProgram()
{
    const QByteArray env = qgetenv("FXRAY_TEST_WORKER");
    return env.isEmpty() ? QStringLiteral(FXRAY_BINARY_DIR "/app/cli/fxray") : QString::fromLocal8Bit(env);
}

std::shared_ptr<const fxray::io::LoadedGraph> cleanGraph()
{
    static auto g = std::make_shared<const fxray::io::LoadedGraph>(fxray::io::loadAddress(kClean.toStdString()));
    return g;
}

ReplayRequest request(const QString& tag, const QString& device = QStringLiteral("cpu"))
{
    ReplayRequest r;
    r.program = workerProgram();
    r.device = device;
    r.tag = tag;
    r.label = tag;
    return r;
}

// What a replay job reports back on the GUI thread.
struct Seen {
    QList<int> nodes;          // node indexes streamed
    std::shared_ptr<Report> report;
    int pid = -1, starts = 0;  // the worker's, after the run
    bool delivered = false;
};

// A body that replays the clean sample, streaming node indexes and then the report (with the worker's pid).
ReplayService::Body replayBody(Seen* seen, std::atomic<bool>* returnedCancelled = nullptr)
{
    return [seen, returnedCancelled](ReplayWorker& w, const JobContext& job) {
        fxray::replay::ReplayOptions o;
        auto nodes = [&](std::size_t index, const fxray::replay::NodeResult&) {
            job.post([seen, index] { seen->nodes << static_cast<int>(index); });
        };
        auto report = std::make_shared<Report>(w.run(*cleanGraph(), o, job.cancelToken(), {}, nodes));
        if (returnedCancelled)
            returnedCancelled->store(report->cancelled);
        const int pid = w.pid(), starts = w.starts();
        job.post([seen, report, pid, starts] {
            seen->report = report;
            seen->pid = pid;
            seen->starts = starts;
            seen->delivered = true;
        });
    };
}

int nodeIndex(const std::string& name)
{
    const auto& nodes = cleanGraph()->graph.nodes;
    for (std::size_t k = 0; k < nodes.size(); ++k)
        if (nodes[k].name == name)
            return static_cast<int>(k);
    return -1;
}

bool alive(int pid) { return pid > 0 && ::kill(pid, 0) == 0; }

}  // namespace

class TestReplayService : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!fxray::test::fxrayHasWorker(workerProgram().toStdString()))
            QSKIP("no `fxray worker` with LibTorch: set FXRAY_TEST_WORKER to a LibTorch build's fxray");
    }

    void init() { qunsetenv("FXRAY_WORKER_FAULT"); }

    void aReplayRunsOnTheLaneAndItsResultsArriveOnTheGuiThread()
    {
        ReplayService service;
        QObject context;
        Seen seen;
        QSignalSpy started(&service, &ReplayService::jobStarted);
        QSignalSpy finished(&service, &ReplayService::jobFinished);
        const JobId id = service.submit(&context, request(QStringLiteral("run")), replayBody(&seen));
        QVERIFY(service.isActive(id));
        QTRY_VERIFY_WITH_TIMEOUT(seen.delivered, kTryTimeoutMs);
        QCOMPARE(seen.report->verdict(), std::string("pass"));
        // Streamed in order as each node runs; the value checks' statistics are read back at the end of the pass
        // (deferred_checks.h), and the nodes they complete are sent again: every node arrives, first in order.
        QList<int> firstArrivals;
        for (int index : seen.nodes)
            if (!firstArrivals.contains(index))
                firstArrivals << index;
        QCOMPARE(firstArrivals.size(), static_cast<int>(cleanGraph()->graph.nodes.size()));
        for (int k = 1; k < firstArrivals.size(); ++k)
            QVERIFY(firstArrivals[k] > firstArrivals[k - 1]);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).toULongLong(), id);
        QVERIFY(!service.isActive(id));
        QVERIFY(service.runningLabel(QStringLiteral("cpu"), workerProgram()).isEmpty());
    }

    void aNewerRequestDropsTheStaleOnesResults()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");  // the first replay stops at relu and stays there
        ReplayService service;
        QObject context;
        Seen stale, fresh;
        std::atomic<bool> staleCancelled{false};
        const JobId first = service.submit(&context, request(QStringLiteral("run")), replayBody(&stale, &staleCancelled));
        const int relu = nodeIndex("relu");
        QTRY_VERIFY_WITH_TIMEOUT(stale.nodes.contains(relu - 1), kTryTimeoutMs);  // running, stuck at relu
        qunsetenv("FXRAY_WORKER_FAULT");  // the replacement worker starts without the fault
        QSignalSpy finished(&service, &ReplayService::jobFinished);
        const JobId second = service.submit(&context, request(QStringLiteral("run")), replayBody(&fresh));
        QVERIFY(!service.isActive(first));
        QVERIFY(service.isActive(second));
        QTRY_VERIFY_WITH_TIMEOUT(fresh.delivered, kTryTimeoutMs);
        QCOMPARE(fresh.report->verdict(), std::string("pass"));
        QVERIFY(staleCancelled.load());  // the stale replay was stopped (its worker killed), not left to hang
        QTest::qWait(300);
        QVERIFY(!stale.delivered);  // and what it said afterwards never arrived
        QCOMPARE(fresh.starts, 2);  // the hung worker was killed; a fresh one ran the new request
    }

    void aReplacedRequestThatWasStillQueuedNeverRuns()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");
        ReplayService service;
        QObject busy, context;
        Seen blocker, replaced, replacement;
        std::atomic<bool> replacedRan{false};
        const JobId block = service.submit(&busy, request(QStringLiteral("block")), replayBody(&blocker));
        QTRY_VERIFY_WITH_TIMEOUT(!blocker.nodes.isEmpty(), kTryTimeoutMs);  // the lane is busy
        QCOMPARE(service.runningLabel(QStringLiteral("cpu"), workerProgram()), QStringLiteral("block"));
        service.submit(&context, request(QStringLiteral("run")), [&replacedRan](ReplayWorker&, const JobContext&) {
            replacedRan.store(true);
        });
        service.submit(&context, request(QStringLiteral("run")), replayBody(&replacement));
        QCOMPARE(service.queuedCount(QStringLiteral("cpu"), workerProgram()), 2);
        qunsetenv("FXRAY_WORKER_FAULT");
        service.cancel(block);  // another context's job: cancelled, its report still delivered
        QTRY_VERIFY_WITH_TIMEOUT(blocker.delivered, kTryTimeoutMs);
        QVERIFY(blocker.report->cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(replacement.delivered, kTryTimeoutMs);
        QCOMPARE(replacement.report->verdict(), std::string("pass"));
        QVERIFY(!replacedRan.load());
    }

    void cancelStopsTheWorkersJobAndDeliversTheCancelledReport()
    {
        qputenv("FXRAY_WORKER_FAULT", "hang:relu");
        ReplayService service;
        QObject context;
        std::atomic<int> pid{-1};
        Seen seen;
        const JobId id = service.submit(&context, request(QStringLiteral("run")), [&pid, &seen](ReplayWorker& w, const JobContext& job) {
            (void)w.cudaDevices();  // started, so that its pid is known before the replay
            pid.store(w.pid());
            replayBody(&seen)(w, job);
        });
        const int relu = nodeIndex("relu");
        QTRY_VERIFY_WITH_TIMEOUT(seen.nodes.contains(relu - 1), kTryTimeoutMs);
        const int worker = pid.load();
        QVERIFY(alive(worker));
        QElapsedTimer clock;
        clock.start();
        service.cancel(id);
        QTRY_VERIFY_WITH_TIMEOUT(seen.delivered, 10000);
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(seen.report->cancelled);
        QVERIFY(seen.report->fatal.empty());
        QTRY_VERIFY_WITH_TIMEOUT(!alive(worker), 5000);  // the hung worker process is gone
        QVERIFY(seen.pid < 0);                           // and no worker is up until the next request
    }

    void aCrashedWorkerIsReplacedByAFreshOne()
    {
        ReplayService service;
        QObject context;
        Seen first;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&first));
        QTRY_VERIFY_WITH_TIMEOUT(first.delivered, kTryTimeoutMs);
        QVERIFY(alive(first.pid));
        // Dies while idle between requests; the next request comes at once, while its threads may still be
        // exiting (it looks alive and takes the request into its pipe): that request goes to a fresh worker.
        QCOMPARE(::kill(first.pid, SIGKILL), 0);
        Seen second;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&second));
        QTRY_VERIFY_WITH_TIMEOUT(second.delivered, kTryTimeoutMs);
        QVERIFY2(second.report->verdict() == "pass",
                 qPrintable(QStringLiteral("%1 (pids %2, %3; starts %4)").arg(QString::fromStdString(second.report->fatal)).arg(first.pid).arg(second.pid).arg(second.starts)));
        QVERIFY(second.pid != first.pid);
        QCOMPARE(second.starts, 2);

        // Aborting mid-replay: that replay is an error at its node, the next request runs on a fresh worker.
        qputenv("FXRAY_WORKER_FAULT", "abort:relu");
        QVERIFY(::kill(second.pid, SIGKILL) == 0);  // so that the next worker starts with the fault
        Seen aborted;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&aborted));
        QTRY_VERIFY_WITH_TIMEOUT(aborted.delivered, kTryTimeoutMs);
        QVERIFY2(aborted.report->fatal.find("died") != std::string::npos, aborted.report->fatal.c_str());
        qunsetenv("FXRAY_WORKER_FAULT");
        Seen after;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&after));
        QTRY_VERIFY_WITH_TIMEOUT(after.delivered, kTryTimeoutMs);
        QCOMPARE(after.report->verdict(), std::string("pass"));
        QVERIFY2(after.starts >= 4, qPrintable(QStringLiteral("starts %1 %2 %3; aborted: %4").arg(second.starts).arg(aborted.starts).arg(after.starts).arg(QString::fromStdString(aborted.report->fatal))));
    }

    void aBodyThatThrowsIsReportedAndItsWorkerReplaced()
    {
        ReplayService service;
        QObject context;
        Seen before;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&before));
        QTRY_VERIFY_WITH_TIMEOUT(before.delivered, kTryTimeoutMs);
        QSignalSpy failed(&service, &ReplayService::jobFailed);
        const JobId bad = service.submit(&context, request(QStringLiteral("bad")), [](ReplayWorker&, const JobContext&) {
            throw std::runtime_error("planted");
        });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTryTimeoutMs);
        QCOMPARE(failed.at(0).at(0).toULongLong(), bad);
        QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("planted"));
        QTRY_VERIFY(!alive(before.pid));
        Seen after;
        service.submit(&context, request(QStringLiteral("run")), replayBody(&after));
        QTRY_VERIFY_WITH_TIMEOUT(after.delivered, kTryTimeoutMs);
        QCOMPARE(after.report->verdict(), std::string("pass"));
        QCOMPARE(after.starts, 2);
    }

    void oneWorkerPerDeviceIsSharedByEveryContext()
    {
        ReplayService service;
        QObject replayDock, stagesTab;
        Seen a, b;
        service.submit(&replayDock, request(QStringLiteral("run")), replayBody(&a));
        service.submit(&stagesTab, request(QStringLiteral("compare"), QStringLiteral("")), replayBody(&b));  // "" is cpu
        QTRY_VERIFY_WITH_TIMEOUT(a.delivered && b.delivered, kTryTimeoutMs);
        QCOMPARE(a.pid, b.pid);  // different contexts and tags: both ran, on the one CPU worker
        QCOMPARE(b.starts, 1);
        QCOMPARE(service.laneCount(), 1);
        QCOMPARE(ReplayService::laneDevice(QStringLiteral("cuda")), QStringLiteral("cuda:0"));
        std::atomic<int> otherPid{-1};
        service.submit(&replayDock, request(QStringLiteral("probe"), QStringLiteral("cuda:0")), [&otherPid](ReplayWorker& w, const JobContext&) {
            (void)w.cudaDevices();
            otherPid.store(w.pid());
        });
        QTRY_VERIFY_WITH_TIMEOUT(otherPid.load() > 0, kTryTimeoutMs);
        QVERIFY(otherPid.load() != a.pid);  // another device, another worker
        QCOMPARE(service.laneCount(), 2);
    }

    void aDestroyedContextGetsNothingMore()
    {
        ReplayService service;
        Seen seen;
        QSignalSpy finished(&service, &ReplayService::jobFinished);
        {
            QObject context;
            service.submit(&context, request(QStringLiteral("run")), replayBody(&seen));
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTryTimeoutMs);
        QTest::qWait(100);
        QVERIFY(!seen.delivered);
        QVERIFY(seen.nodes.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReplayService)
#include "test_replay_service.moc"
