#include "views/services/replay_service.h"

#include "worker/replay_worker.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace fxray::views {

namespace {
struct Pending {
    std::shared_ptr<detail::JobState> state;
    ReplayService::Body body;
    std::chrono::milliseconds timeout{0};
};
}  // namespace

struct ReplayService::Lane {
    std::string program;
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Pending> queue;  // under mutex
    bool stopping = false;      // under mutex
    std::thread thread;
    QString running;            // GUI thread: the label of the request the lane runs
    int queued = 0;             // GUI thread: submitted, not started
};

ReplayService::ReplayService(QObject* parent)
    : QObject(parent)
    , m_program(QString::fromStdString(worker::ReplayWorker::locateProgram(QCoreApplication::applicationFilePath().toStdString())))
{
}

ReplayService::~ReplayService()
{
    m_board.cancelAll();  // a running body sees it within ReplayWorker's 50 ms slice and kills its worker's replay
    for (auto& [key, lane] : m_lanes) {
        {
            std::lock_guard lock(lane->mutex);
            lane->stopping = true;
        }
        lane->wake.notify_all();
    }
    for (auto& [key, lane] : m_lanes)
        if (lane->thread.joinable())
            lane->thread.join();
}

QString ReplayService::laneDevice(const QString& device)
{
    const QString d = device.trimmed();
    if (d.isEmpty())
        return QStringLiteral("cpu");
    if (d == QLatin1String("cuda"))
        return QStringLiteral("cuda:0");
    return d;
}

ReplayService::Lane* ReplayService::lane(const QString& program, const QString& device, bool create)
{
    const QString p = program.isEmpty() ? m_program : program;
    const QString key = p + QLatin1Char('\n') + laneDevice(device);
    if (auto it = m_lanes.find(key); it != m_lanes.end())
        return it->second.get();
    if (!create)
        return nullptr;
    auto made = std::make_unique<Lane>();
    made->program = p.toStdString();
    Lane* l = made.get();
    m_lanes.emplace(key, std::move(made));
    l->thread = std::thread([this, l] { laneLoop(l); });
    return l;
}

const ReplayService::Lane* ReplayService::lane(const QString& program, const QString& device) const
{
    const QString p = program.isEmpty() ? m_program : program;
    const auto it = m_lanes.find(p + QLatin1Char('\n') + laneDevice(device));
    return it == m_lanes.end() ? nullptr : it->second.get();
}

QString ReplayService::runningLabel(const QString& device, const QString& program) const
{
    const Lane* l = lane(program, device);
    return l ? l->running : QString();
}

int ReplayService::queuedCount(const QString& device, const QString& program) const
{
    const Lane* l = lane(program, device);
    return l ? l->queued : 0;
}

JobId ReplayService::submit(QObject* context, const ReplayRequest& request, Body body)
{
    auto state = m_board.open(this, context, request.tag, request.label);
    Lane* l = lane(request.program, request.device, true);
    ++l->queued;
    {
        std::lock_guard lock(l->mutex);
        l->queue.push_back(Pending{state, std::move(body), request.timeout});
    }
    l->wake.notify_one();
    return state->id;
}

// The lane's thread: its worker client lives here, and requests run one after the other.
void ReplayService::laneLoop(Lane* l)
{
    worker::WorkerConfig config;
    config.program = l->program;
    worker::ReplayWorker worker(config);
    for (;;) {
        Pending next;
        {
            std::unique_lock lock(l->mutex);
            l->wake.wait(lock, [l] { return l->stopping || !l->queue.empty(); });
            if (l->stopping)
                return;  // the worker goes with `worker` (its process is killed)
            next = std::move(l->queue.front());
            l->queue.pop_front();
        }
        const auto state = next.state;
        const bool skip = state->dropped.load();  // replaced while it waited: nobody wants it
        QMetaObject::invokeMethod(this, [this, l, state, skip] {
            --l->queued;
            if (!skip) {
                l->running = state->label;
                Q_EMIT jobStarted(state->id, state->label);
            }
        }, Qt::QueuedConnection);
        QString failure;
        if (!skip) {
            worker.setReplayTimeout(next.timeout);
            try {
                next.body(worker, JobContext(state));
            } catch (const std::exception& e) {
                failure = QString::fromUtf8(e.what());
                worker.stop();  // whatever state it is in, the next request gets a fresh one
            } catch (...) {
                failure = QStringLiteral("unknown exception");
                worker.stop();
            }
        }
        QMetaObject::invokeMethod(this, [this, l, state, skip, failure] {
            if (!skip) {
                l->running.clear();
                if (!failure.isEmpty())
                    Q_EMIT jobFailed(state->id, failure);
                Q_EMIT jobFinished(state->id);
            }
            m_board.close(state->id);
        }, Qt::QueuedConnection);
    }
}

std::shared_ptr<ReplayService> ReplayService::shared()
{
    static std::weak_ptr<ReplayService> instance;
    auto held = instance.lock();
    if (!held) {
        held = std::make_shared<ReplayService>();
        instance = held;
    }
    return held;
}

}  // namespace fxray::views
