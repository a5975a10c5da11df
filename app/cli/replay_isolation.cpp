#include "replay_isolation.h"

#include "base/error.h"
#include "replay/engine/replayer.h"
#include "self_exe.h"
#include "worker/replay_worker.h"

#include <chrono>

namespace fxray::cli {
namespace {

class InProcessRunner : public replay::ReplayRunner {
public:
    replay::ReplayReport run(const io::LoadedGraph& graph, const replay::ReplayOptions& options, replay::CancelToken* cancel,
                             const replay::ProgressSink& progress) override
    {
        return replay::replayGraph(graph, options, cancel, progress);
    }
};

}  // namespace

std::unique_ptr<replay::ReplayRunner> makeReplayRunner(const ArgParser& p)
{
    if (p.flag("--in-process"))
        return std::make_unique<InProcessRunner>();
    worker::WorkerConfig wc;
    wc.program = worker::ReplayWorker::locateProgram(selfExe());
    if (auto t = p.value("--timeout")) {
        double s = 0;
        try {
            s = std::stod(*t);
        } catch (const std::exception&) {
        }
        if (!(s > 0))
            throw Error("--timeout wants a positive number of seconds, got '" + *t + "'");
        wc.replayTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
    }
    return std::make_unique<worker::ReplayWorker>(wc);
}

}  // namespace fxray::cli
