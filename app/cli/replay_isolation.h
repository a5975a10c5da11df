#pragma once
// Where `fxray replay` and `fxray compare` run their replays (LibTorch builds only).
#include "arg_parser.h"
#include "replay/api/replay_runner.h"

#include <memory>

namespace fxray::cli {

// An `fxray worker` child (crash isolation, apitrace's way; --timeout S ends one stuck on a graph), or this process
// with --in-process (benchmarks: no round trip). Throws fxray::Error for a bad --timeout.
std::unique_ptr<replay::ReplayRunner> makeReplayRunner(const ArgParser& p);

}  // namespace fxray::cli
