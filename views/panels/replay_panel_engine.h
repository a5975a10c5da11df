#pragma once
// Internal to the Replay panel (replay_panel.cpp, replay_panel_sweep.cpp): the worker client its jobs share and
// the stream that carries node results and progress from a job to the GUI thread.
#include "replay/replay_types.h"
#include "worker/replay_worker.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fxray::views {

namespace detail {

// The job side: the worker client, used by one job at a time (the panel's pool has one thread).
struct ReplayEngine {
    std::unique_ptr<worker::ReplayWorker> worker;
    std::string program;

    worker::ReplayWorker& workerFor(const std::string& path)
    {
        if (!worker || program != path) {
            worker::WorkerConfig config;
            config.program = path;
            worker = std::make_unique<worker::ReplayWorker>(config);
            program = path;
        }
        return *worker;
    }
};

// Node results and progress on their way from a job to the GUI thread. `posted`: a drain is queued already, so
// a burst of nodes costs one queued call.
struct ReplayStream {
    std::mutex mutex;
    std::vector<std::pair<std::size_t, replay::NodeResult>> nodes;
    std::size_t done = 0, total = 0;
    bool posted = false;
};

}  // namespace detail

}  // namespace fxray::views
