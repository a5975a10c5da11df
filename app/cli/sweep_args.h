#pragma once
// `fxray replay G --seeds A-B --until nan|mismatch|error|diverge[:DEVICE]` and `--repeat N --until diverge`:
// the options of a seed sweep / repeat runs, and the command that runs one (replay/api/seed_sweep.h).
#include "arg_parser.h"
#include "replay/api/replay_runner.h"

#include <optional>
#include <string>

namespace fxray::cli {

// A sweep when --seeds or --until is given: --seeds defaults to --seed (one seed), --until to nan,mismatch,error;
// --repeat N is the repeat runs of --until diverge (then not timed repeats). Throws fxray::Error naming the
// option combination that makes no sense.
std::optional<replay::SweepSpec> parseSweepArgs(const ArgParser& p, const replay::ReplayOptions& options);

// Runs it on the one graph at `target`, progress on stderr; prints the failing seed and its replay's report
// (or the JSON with --json). Exit 1 when a seed failed, 0 when none did.
int runReplaySweep(const ArgParser& p, const replay::ReplayOptions& options, const replay::SweepSpec& spec,
                   const std::string& target, replay::ReplayRunner& runner);

}  // namespace fxray::cli
