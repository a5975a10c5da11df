#pragma once
// The replay options `fxray replay` and `fxray minimize` share: --device --seed --inputs --floats --int-range
// --sym-default --stop-on-first --compare-device --expected --repeat --warmup --no-values --cuda-graph.
#include "arg_parser.h"
#include "replay/api/replay_types.h"

namespace fxray::cli {

// Throws fxray::Error naming the option whose value is wrong.
replay::ReplayOptions parseReplayOptions(const ArgParser& p);

}  // namespace fxray::cli
