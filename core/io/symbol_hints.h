#pragma once
// Size-symbol hints a TORCH_TRACE log records. When dynamo makes a size dynamic, torch's ShapeEnv logs
//   {"create_symbol": {"symbol": "s69", "val": "2048", "source": "L['sizes'][0].size()[1]", ...}, "frame_id": 1, ...}
// under the compile that made it: the concrete value the run had. A replay of that compile's graphs binds the symbol
// to it instead of a default, so sizes computed from it (a mean's divisor, a view's shape) are the run's.
#include "io/trace_log.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace fxray::io {

// symbol -> recorded value, for compile (frame, compile) of the log; symbols whose value is not an integer are left out.
std::map<std::string, std::int64_t, std::less<>> symbolHints(const TraceLog& log, int frame, int compile);

// The recorded value of the symbol made for `source` ("L['sizes'][0].size()[1]") in compile (frame, compile).
std::optional<std::int64_t> sourceHint(const TraceLog& log, int frame, int compile, const std::string& source);

}  // namespace fxray::io
