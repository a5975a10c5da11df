#pragma once
// What runs a replay, seen from the minimizer and the GUI: in this process (replay::InProcessRunner, LibTorch
// builds only) or in a child process (worker::ReplayWorker). Plain C++.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"
#include "replay/api/seed_sweep.h"

namespace fxray::replay {

class ReplayRunner {
public:
    virtual ~ReplayRunner() = default;
    // Never throws for the graph's problems: they are report entries; a replay that could not run or did
    // not finish (crash, timeout) has report.fatal set, naming the node it was at when known.
    virtual ReplayReport run(const io::LoadedGraph& graph, const ReplayOptions& options, CancelToken* cancel = nullptr,
                             const ProgressSink& progress = {}) = 0;
    // A seed sweep or repeat runs (seed_sweep.h). Here: one run() per replay; the worker overrides it to run the
    // whole sweep in its process on one request.
    virtual SweepResult sweep(const io::LoadedGraph& graph, const ReplayOptions& options, const SweepSpec& spec,
                              CancelToken* cancel = nullptr, const SweepProgress& progress = {})
    {
        return runSweep(spec, options, [&](const ReplayOptions& o) { return run(graph, o, cancel); }, cancel, progress);
    }
};

}  // namespace fxray::replay
