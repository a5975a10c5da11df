#pragma once
// Which torch wrote a dump or a TORCH_TRACE log, and whether replaying it with another LibTorch deserves a warning. The capture
// (python/fxray/capture.py) records torch's version in each graph's node_meta.json ("torch": {"version": ...});
// ops' schemas change between torch releases, so a replay with another LibTorch may fail or differ for reasons
// that are not the graph's.
#include "io/graph_source.h"

#include <map>
#include <string>
#include <string_view>

namespace fxray::io {

// node_meta.json's "torch"."version" ("2.11.0+cu130"); empty when the text has none or is not JSON (the sidecar's
// other errors are reported where it is parsed for the module hierarchy).
std::string torchVersionFromNodeMeta(std::string_view nodeMetaText);

// The torch that wrote the seed dump in folder `graphDir` (its node_meta.json); empty when not recorded, or when
// `graphDir` is not a seed dump's folder (a trace log, a single .py file).
std::string torchVersionOfDump(const std::string& graphDir);

// The torch that wrote a TORCH_TRACE log: its first compilation_metrics record's "pytorch_version"; empty when the
// log holds none (a compile that never finished). Read once per path (a log holds many graphs).
std::string torchVersionOfLog(const std::string& logPath);

// Either of the above for a discovered graph (seed dumps and trace logs; empty for other formats).
std::string writtenByTorch(const GraphEntry& entry);

// node_meta.json's "schemas" of the seed dump in `graphDir`: op overload ("aten.mm.default") -> the schema text the
// writing torch registered (str(op._schema)); empty when not recorded (dumps written before it was).
std::map<std::string, std::string> opSchemasOfDump(const std::string& graphDir);

// The warning for replaying a dump written by torch `written` with LibTorch `replaying`, or empty when they are the
// same release (local builds tags after '+' aside: 2.11.0+cu130 and 2.11.0+cpu share their schemas) or either is
// unknown.
std::string torchVersionWarning(std::string_view graph, std::string_view written, std::string_view replaying);

}  // namespace fxray::io
