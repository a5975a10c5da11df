#pragma once
// `fxray replay DIR` when DIR holds more than one rank's graphs (TORCH_TRACE logs named
// dedicated_log_torch_trace_rank_<N>_*.log, or seed-dump folders with rank<N> in their path), or with --ranks N:
// the static collective check, then every rank replayed together over real process groups
// (worker/distributed_job.h), per-rank results side by side.
#include "arg_parser.h"
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <optional>

namespace fxray::cli {

// The flags this path adds to `fxray replay`.
inline constexpr const char* kDistributedValued[] = {"--ranks", "--group", "--collective-timeout", "--backend"};
inline constexpr const char* kDistributedFlags[] = {"--no-collective-check", "--check-only", "--no-reference"};

// The exit code of a distributed replay, or nullopt when `d` is one rank's graphs and --ranks was not given
// (the ordinary replay then runs). Throws fxray::Error for bad flags or rank sets.
std::optional<int> runDistributedReplay(const ArgParser& p, const replay::ReplayOptions& options, const io::Discovery& d);

}  // namespace fxray::cli
