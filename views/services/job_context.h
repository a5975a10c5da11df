#pragma once
// What the GUI's background jobs share (job_tracker.h, replay_service.h): a job's state, the handle its body
// sees on its thread (JobContext), and the GUI-thread bookkeeping of ids, tags and supersession (JobBoard).
// A job belongs to a context object (the panel that asked) and has a tag; a newer job of the same context and tag
// supersedes the older one: the older one is cancelled and what it posts afterwards is dropped. cancel() alone
// stops a job but still delivers what it posts (a cancelled replay's partial report). Posts run on the GUI thread,
// in order, and never after the job was superseded or its context object destroyed: panels need no generation
// counters, and a job never calls into a deleted panel.
#include "replay/api/replay_types.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace fxray::views {

using JobId = quint64;

namespace detail {
struct JobState {
    JobId id = 0;
    QString tag, label;
    replay::CancelToken cancel;     // set by cancel() and by supersession; read by the body
    std::atomic<bool> dropped{false};  // superseded or discarded: posts are dropped, a queued body is skipped
    QPointer<QObject> context;      // read on the GUI thread only
    QObject* receiver = nullptr;    // the tracker or service that delivers posts (outlives every body)
};
}  // namespace detail

// The body's view of its job, used on the job's thread.
class JobContext {
public:
    explicit JobContext(std::shared_ptr<detail::JobState> state) : m_state(std::move(state)) {}
    JobId id() const { return m_state->id; }
    bool cancelled() const { return m_state->cancel.cancelled.load(); }
    // For core APIs that take one (ReplayWorker::run, compareStages, minimizeGraph).
    replay::CancelToken* cancelToken() const { return &m_state->cancel; }
    // Runs `fn` on the GUI thread unless, by the time it gets there, the job was superseded or discarded or its
    // context object is gone.
    void post(std::function<void()> fn) const;

private:
    std::shared_ptr<detail::JobState> m_state;
};

// Ids, tags and supersession, on the GUI thread.
class JobBoard {
public:
    // A new job of (context, tag): the running or queued one of the same pair is superseded (cancelled, dropped).
    std::shared_ptr<detail::JobState> open(QObject* receiver, QObject* context, const QString& tag, const QString& label);
    void close(JobId id);    // the body returned: the job is forgotten (its posts already queued still arrive)
    void cancel(JobId id);   // stops it; its posts still arrive
    void discard(JobId id);  // stops it and drops its posts
    bool isActive(JobId id) const;  // queued or running, and not superseded or discarded
    void cancelAll();        // at teardown: every job stops, nothing more is delivered
    int count() const { return static_cast<int>(m_jobs.size()); }

private:
    JobId m_next = 1;
    QHash<JobId, std::shared_ptr<detail::JobState>> m_jobs;
    QHash<QPair<QObject*, QString>, JobId> m_byTag;
};

}  // namespace fxray::views
