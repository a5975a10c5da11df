#pragma once
// The client side of `fxray worker`: replays in a child process, so that a device-side assert, a crash in a
// kernel, an OOM or a hang ends one replay and not the caller. A healthy worker is reused across replays
// (LibTorch and CUDA start once); a dead, hung or poisoned one is replaced by a fresh one on the next run.
#include "base/subprocess.h"
#include "replay/api/replay_runner.h"

#include <chrono>
#include <memory>
#include <string>

namespace fxray::worker {

struct WorkerConfig {
    std::string program;  // the fxray executable (run as `<program> worker`)
    std::chrono::milliseconds startTimeout{120000};  // LibTorch + CUDA initialisation
    std::chrono::milliseconds replayTimeout{0};      // per replay; 0 = none. A worker past it is killed.
    Subprocess::Env env;                             // extra environment for the worker
};

class ReplayWorker : public replay::ReplayRunner {
public:
    explicit ReplayWorker(WorkerConfig config);
    ~ReplayWorker() override;

    // Cancelling kills the worker (a replay may sit inside one long kernel); the report then says cancelled and
    // keeps the node results that came before.
    replay::ReplayReport run(const io::LoadedGraph& graph, const replay::ReplayOptions& options,
                             replay::CancelToken* cancel = nullptr, const replay::ProgressSink& progress = {}) override;
    // The same, also handing each node's result to `nodes` as the worker sends it (on the calling thread, before
    // `progress`): the GUI shows results while the replay runs.
    replay::ReplayReport run(const io::LoadedGraph& graph, const replay::ReplayOptions& options, replay::CancelToken* cancel,
                             const replay::ProgressSink& progress, const replay::NodeSink& nodes);

    // The whole sweep in the worker, on one request (no graph parse, no JSON per node, per seed). A worker that
    // crashes, hangs past the timeout (per seed) or poisons its device fails the seed it was at: the result names
    // it. Cancelling kills the worker.
    replay::SweepResult sweep(const io::LoadedGraph& graph, const replay::ReplayOptions& options, const replay::SweepSpec& spec,
                              replay::CancelToken* cancel = nullptr, const replay::SweepProgress& progress = {}) override;

    int starts() const { return m_starts; }  // workers started so far (1 + respawns)
    // The per-replay limit from now on (WorkerConfig::replayTimeout): a worker shared by several callers (the
    // GUI's replay service) is given each caller's limit before its requests.
    void setReplayTimeout(std::chrono::milliseconds timeout) { m_config.replayTimeout = timeout; }
    int pid() const { return m_process ? m_process->pid() : -1; }
    // As the worker reports it (starts one if needed; throws fxray::Error when it cannot); -1 when `cancel` was
    // set before the worker was up.
    int cudaDevices(replay::CancelToken* cancel = nullptr);
    void stop();        // ends the current worker, if any

    // The fxray executable next to `selfExe`'s directory or its sibling app/cli (build tree), else "fxray".
    static std::string locateProgram(const std::string& selfExe);

private:
    void ensureStarted(replay::CancelToken* cancel);
    // Starts a worker if needed and writes the request line (one fresh start when the worker died between
    // requests). "" when sent; else why not ("cancelled" when `cancel` was set while starting).
    std::string send(const std::string& line, replay::CancelToken* cancel);

    WorkerConfig m_config;
    std::unique_ptr<Subprocess> m_process;
    int m_starts = 0;
    int m_nextId = 1;
    int m_cudaDevices = 0;
};

}  // namespace fxray::worker
