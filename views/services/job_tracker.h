#pragma once
// The GUI's one tracker for background work that is not a replay (loading a folder, a diff, a layout, preparing
// code, a compile report): hotspot's model. A job has an id, a context object and a tag (job_context.h): a newer
// job of the same context and tag supersedes the older one, whose result is then dropped; cancel() stops a job
// (the body sees JobContext::cancelled()) and still delivers its result. The body runs on the tracker's pool;
// `done` runs on the GUI thread with the body's result, unless the job was superseded or discarded or its context
// is gone. Panels share one tracker (shared()); it lives while someone holds it and waits for its bodies when it
// goes (each body is asked to stop first).
#include "views/services/job_context.h"

#include <QObject>
#include <QThreadPool>

#include <memory>
#include <type_traits>
#include <utility>

namespace fxray::views {

class JobTracker : public QObject {
    Q_OBJECT
public:
    explicit JobTracker(QObject* parent = nullptr);
    ~JobTracker() override;  // every job cancelled and dropped; waits for the bodies

    // work(const JobContext&) -> R on a pool thread; done(R) on the GUI thread.
    template <class Work, class Done>
    JobId run(QObject* context, const QString& tag, Work work, Done done)
    {
        using R = std::invoke_result_t<Work&, const JobContext&>;
        return start(context, tag, [work = std::move(work), done = std::move(done)](const JobContext& job) mutable {
            auto result = std::make_shared<R>(work(job));
            job.post([done, result]() mutable { done(std::move(*result)); });
        });
    }
    // A body that posts what it has as it goes (JobContext::post), e.g. a folder's graphs as they are found.
    JobId start(QObject* context, const QString& tag, std::function<void(const JobContext&)> body);

    void cancel(JobId id) { m_board.cancel(id); }
    void discard(JobId id) { m_board.discard(id); }
    bool isActive(JobId id) const { return m_board.isActive(id); }
    int jobCount() const { return m_board.count(); }  // queued or running (superseded ones until they return)

    // The tracker the panels share: created on first use, gone when the last holder lets go.
    static std::shared_ptr<JobTracker> shared();

Q_SIGNALS:
    void idle();  // the last job returned

private:
    JobBoard m_board;
    QThreadPool m_pool;
};

}  // namespace fxray::views
