#pragma once
// Internal to the Replay panel (replay_panel.cpp, replay_panel_sweep.cpp): the stream that carries node results and
// progress from a job (on the replay service's lane) to the GUI thread.
#include "replay/api/replay_types.h"
#include "views/services/job_context.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fxray::views {

namespace detail {

// Node results and progress on their way from a job to the GUI thread. `posted`: a drain is queued already, so
// a burst of nodes costs one queued call.
struct ReplayStream {
    std::mutex mutex;
    std::vector<std::pair<std::size_t, replay::NodeResult>> nodes;
    std::size_t done = 0, total = 0;
    bool posted = false;

    // With `mutex` held: queues one `drain` on the GUI thread unless one is queued already.
    void requestDrain(const JobContext& job, std::function<void()> drain)
    {
        if (posted)
            return;
        posted = true;
        job.post(std::move(drain));
    }
};

}  // namespace detail

}  // namespace fxray::views
