#pragma once
// Fault hunting over many replays of one graph in one process: a sweep of input seeds that stops at the first
// seed whose replay fails the way asked (`fxray replay G --seeds A-B --until nan`), and repeat runs of the same
// inputs compared node by node, which name the first node that is not deterministic (`--repeat N --until
// diverge`). Plain C++: the loop takes the replay as a function, so it runs inside the worker process
// (worker::ReplayWorker::sweep: one request for the whole sweep) or in the caller's process alike.
#include "base/json.h"
#include "replay/api/replay_types.h"

#include <cstdint>
#include <functional>
#include <string>

namespace fxray::replay {

struct SweepSpec {
    std::uint64_t first = 0, last = 0;  // seeds, both included
    // What counts as failing (any of them).
    bool nan = false;       // a node made NaN/Inf from finite inputs, and it reaches an output (NodeResult::nanOrigin)
    bool mismatch = false;  // recorded dtype / size / stride / device differs
    bool error = false;     // an op raised, or the replay could not run (fatal, a crashed worker)
    std::string divergeDevice;  // diverge:DEVICE: graph outputs differ from a replay of the same inputs on DEVICE
    bool divergeRuns = false;   // diverge with repeat: the same inputs run 1 + repeat times differ at some node
    int repeat = 0;             // runs after the first, per seed (divergeRuns)

    std::uint64_t count() const { return last - first + 1; }
};

// "A-B" or "A" (non-negative integers, A <= B). Throws fxray::Error naming the text.
void parseSeedRange(const std::string& text, SweepSpec& spec);
// "nan", "mismatch", "error", "diverge", "diverge:DEVICE", several joined by ','. Throws fxray::Error.
void parseUntil(const std::string& text, SweepSpec& spec);
std::string describeUntil(const SweepSpec& spec);  // "nan,error" as given

struct SweepResult {
    bool found = false;           // a seed failed
    std::uint64_t seed = 0;       // that seed; without one, the last seed run
    std::uint64_t seedsRun = 0;
    std::string failure;          // what failed, for people: "nan at node 'exp' (aten.exp.default): 0 NaN, 4 Inf ..."
    std::string divergentNode;    // repeat runs: the first node whose outputs differ between runs
    int divergentRun = 0;         // ... in this run (2 = the first repeat)
    ReplayReport report;          // the failing seed's replay (its first run); without one, the last seed's
    bool cancelled = false;
    double seconds = 0;
};

// Called before each seed's replay: the seed, seeds done before it, and the sweep's seed count.
using SweepProgress = std::function<void(std::uint64_t seed, std::uint64_t done, std::uint64_t total)>;
using ReplayOnce = std::function<ReplayReport(const ReplayOptions&)>;

// Replays seed after seed with `base` (its seed, compareDevice, digests and timed repeats replaced per the spec)
// until one fails, the range ends or `cancel` is set.
SweepResult runSweep(const SweepSpec& spec, const ReplayOptions& base, const ReplayOnce& replay, CancelToken* cancel = nullptr,
                     const SweepProgress& progress = {});

// The failure the spec's single-run criteria see in one replay, "" when none. A fatal replay always fails: a
// sweep that cannot replay must not report its seeds as clean.
std::string sweepFailure(const ReplayReport& r, const SweepSpec& spec);

// Two runs of the same inputs with digests (ReplayOptions::digests): the index of the first node (program order)
// whose outputs' digests differ, -1 when none does; `what` says how.
int firstDivergentNode(const ReplayReport& first, const ReplayReport& other, std::string& what);

json::Value sweepSpecToJson(const SweepSpec& spec);
SweepSpec sweepSpecFromJson(const json::Value& j);
json::Value sweepResultToJson(const SweepResult& r);
SweepResult sweepResultFromJson(const json::Value& j);  // throws fxray::Error like reportFromJson

// One line naming the failing seed (or saying none failed) and how to reproduce it.
std::string formatSweep(const SweepResult& r, const SweepSpec& spec, const std::string& target);

}  // namespace fxray::replay
