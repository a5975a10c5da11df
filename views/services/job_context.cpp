#include "views/services/job_context.h"

#include <QMetaObject>

namespace fxray::views {

void JobContext::post(std::function<void()> fn) const
{
    auto state = m_state;
    QMetaObject::invokeMethod(
        state->receiver,
        [state, fn = std::move(fn)] {
            if (!state->dropped.load() && state->context)
                fn();
        },
        Qt::QueuedConnection);
}

std::shared_ptr<detail::JobState> JobBoard::open(QObject* receiver, QObject* context, const QString& tag, const QString& label)
{
    const QPair<QObject*, QString> key(context, tag);
    if (!tag.isEmpty())
        if (const auto it = m_byTag.constFind(key); it != m_byTag.constEnd())
            discard(it.value());
    auto state = std::make_shared<detail::JobState>();
    state->id = m_next++;
    state->tag = tag;
    state->label = label;
    state->context = context;
    state->receiver = receiver;
    m_jobs.insert(state->id, state);
    if (!tag.isEmpty())
        m_byTag.insert(key, state->id);
    return state;
}

void JobBoard::close(JobId id)
{
    const auto state = m_jobs.take(id);
    if (!state)
        return;
    // Looked up by value: the context may be gone (its pointer then reads null), its key is still the old pointer.
    for (auto it = m_byTag.begin(); it != m_byTag.end();)
        it = it.value() == id ? m_byTag.erase(it) : std::next(it);
}

void JobBoard::cancel(JobId id)
{
    if (const auto state = m_jobs.value(id))
        state->cancel.cancelled.store(true);
}

void JobBoard::discard(JobId id)
{
    if (const auto state = m_jobs.value(id)) {
        state->dropped.store(true);
        state->cancel.cancelled.store(true);
    }
}

bool JobBoard::isActive(JobId id) const
{
    const auto state = m_jobs.value(id);
    return state && !state->dropped.load();
}

void JobBoard::cancelAll()
{
    for (const auto& state : std::as_const(m_jobs)) {
        state->dropped.store(true);
        state->cancel.cancelled.store(true);
    }
}

}  // namespace fxray::views
