// The GUI's job tracker (views/services/job_tracker.h), with real work on its pool: a result arrives on the GUI
// thread; a newer job of the same context and tag supersedes the older one (its cancel flag is set, its result
// never arrives) while other tags and contexts are left alone; cancel() stops a job and still delivers its result;
// a destroyed context gets nothing; posts made while a job runs arrive in order; a tracker that goes waits for its
// bodies after asking them to stop (no result after it is gone).
#include "views/services/job_tracker.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using fxray::views::JobContext;
using fxray::views::JobId;
using fxray::views::JobTracker;

namespace {

// Work that runs until cancelled (or `limit`), then says whether it was cancelled.
bool spinUntilCancelled(const JobContext& job, std::chrono::milliseconds limit = std::chrono::seconds(20))
{
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!job.cancelled() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return job.cancelled();
}

}  // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aResultArrivesOnTheGuiThread()
    {
        JobTracker tracker;
        QObject context;
        QThread* worked = nullptr;
        QThread* delivered = nullptr;
        int value = 0;
        tracker.run(&context, QStringLiteral("sum"), [&worked](const JobContext&) {
            worked = QThread::currentThread();
            int s = 0;
            for (int k = 1; k <= 100; ++k)
                s += k;
            return s;
        }, [&](int s) {
            delivered = QThread::currentThread();
            value = s;
        });
        QTRY_COMPARE(value, 5050);
        QCOMPARE(delivered, QThread::currentThread());
        QVERIFY(worked != QThread::currentThread());
        QTRY_COMPARE(tracker.jobCount(), 0);
    }

    void aNewerJobOfTheSameTagSupersedesTheOlder()
    {
        JobTracker tracker;
        QObject context, other;
        QStringList got;
        std::atomic<bool> staleSawCancel{false};
        const JobId stale = tracker.run(&context, QStringLiteral("layout"), [&](const JobContext& job) {
            staleSawCancel.store(spinUntilCancelled(job));
            return QStringLiteral("stale");
        }, [&](const QString& s) { got << s; });
        const JobId otherTag = tracker.run(&context, QStringLiteral("code"), [](const JobContext&) { return QStringLiteral("code"); },
                                           [&](const QString& s) { got << s; });
        const JobId otherContext = tracker.run(&other, QStringLiteral("layout"), [](const JobContext&) { return QStringLiteral("other"); },
                                               [&](const QString& s) { got << s; });
        QTest::qWait(50);
        const JobId fresh = tracker.run(&context, QStringLiteral("layout"), [](const JobContext&) { return QStringLiteral("fresh"); },
                                        [&](const QString& s) { got << s; });
        QVERIFY(!tracker.isActive(stale));
        QVERIFY(tracker.isActive(fresh));
        QTRY_COMPARE(tracker.jobCount(), 0);
        QTest::qWait(50);
        QVERIFY(staleSawCancel.load());
        QVERIFY(!got.contains(QStringLiteral("stale")));
        QVERIFY(got.contains(QStringLiteral("fresh")));
        QVERIFY(got.contains(QStringLiteral("code")));   // another tag of the same context: untouched
        QVERIFY(got.contains(QStringLiteral("other")));  // the same tag of another context: untouched
        Q_UNUSED(otherTag);
        Q_UNUSED(otherContext);
    }

    void cancelStopsAJobAndStillDeliversItsResult()
    {
        JobTracker tracker;
        QObject context;
        int result = -1;
        const JobId id = tracker.run(&context, QStringLiteral("t"), [](const JobContext& job) { return spinUntilCancelled(job) ? 1 : 0; },
                                     [&](int r) { result = r; });
        QTest::qWait(20);
        tracker.cancel(id);
        QTRY_COMPARE(result, 1);
    }

    void aDestroyedContextGetsNothing()
    {
        JobTracker tracker;
        bool delivered = false;
        {
            QObject context;
            tracker.run(&context, QStringLiteral("t"), [](const JobContext&) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return 1;
            }, [&](int) { delivered = true; });
        }
        QTRY_COMPARE(tracker.jobCount(), 0);
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    void postsArriveInOrderWhileTheJobRuns()
    {
        JobTracker tracker;
        QObject context;
        QList<int> seen;
        QSignalSpy idle(&tracker, &JobTracker::idle);
        tracker.start(&context, QStringLiteral("stream"), [&seen](const JobContext& job) {
            for (int k = 0; k < 200; ++k)
                job.post([&seen, k] { seen << k; });
        });
        QVERIFY(idle.wait(10000));
        QCOMPARE(seen.size(), 200);
        for (int k = 0; k < 200; ++k)
            QCOMPARE(seen[k], k);
    }

    void aTrackerThatGoesStopsItsJobsAndDeliversNothing()
    {
        bool delivered = false;
        std::atomic<bool> sawCancel{false};
        QObject context;
        {
            JobTracker tracker;
            tracker.run(&context, QStringLiteral("t"), [&sawCancel](const JobContext& job) {
                sawCancel.store(spinUntilCancelled(job));
                return 1;
            }, [&](int) { delivered = true; });
            QTest::qWait(20);
        }  // waits for the body, which it asked to stop
        QVERIFY(sawCancel.load());
        QTest::qWait(20);
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "test_job_tracker.moc"
