#pragma once
// The replay options `fxray replay` and `fxray minimize` share: --device --seed --inputs --floats --int-range
// --sym-default --stop-on-first --compare-device --expected --repeat --warmup --no-values --cuda-graph.
#include "arg_parser.h"
#include "replay/replay_types.h"
#include "replay/replay_runner.h"

#include <memory>

namespace fxray::cli {

// Throws fxray::Error naming the option whose value is wrong.
replay::ReplayOptions parseReplayOptions(const ArgParser& p);

// Who runs the replays of `fxray replay` and `fxray compare`: an `fxray worker` child (crash isolation; --timeout S
// ends one stuck on a graph), or this process with --in-process.
std::unique_ptr<replay::ReplayRunner> makeReplayRunner(const ArgParser& p);

}  // namespace fxray::cli
