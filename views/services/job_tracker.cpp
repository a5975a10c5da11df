#include "views/services/job_tracker.h"

#include <QMetaObject>

namespace fxray::views {

JobTracker::JobTracker(QObject* parent) : QObject(parent)
{
    // Layouts wait on an fxray-layout child and a Ranks tab's job on its rank workers for as long as they run: a few
    // threads more than cores, so that neither starves the loading, diffs and code of the panels.
    m_pool.setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
}

JobTracker::~JobTracker()
{
    m_board.cancelAll();
    m_pool.waitForDone();
}

JobId JobTracker::start(QObject* context, const QString& tag, std::function<void(const JobContext&)> body)
{
    auto state = m_board.open(this, context, tag, tag);
    const JobId id = state->id;
    m_pool.start([this, state, body = std::move(body)] {
        if (!state->dropped.load()) {
            const JobContext job(state);
            try {
                body(job);
            } catch (...) {
                // A body reports its own failures as results; one that throws anyway loses only its result.
            }
        }
        QMetaObject::invokeMethod(this, [this, id = state->id] {
            m_board.close(id);
            if (m_board.count() == 0)
                Q_EMIT idle();
        }, Qt::QueuedConnection);
    });
    return id;
}

std::shared_ptr<JobTracker> JobTracker::shared()
{
    static std::weak_ptr<JobTracker> instance;
    auto held = instance.lock();
    if (!held) {
        held = std::make_shared<JobTracker>();
        instance = held;
    }
    return held;
}

}  // namespace fxray::views
