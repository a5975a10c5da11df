#pragma once
// Readers for the records behind the compile report (compile_report.h): each turns one record's header object
// or payload into the report's types. Internal to core/io; public for the tests.
#include "io/compile_report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxray::io {

// {"str": ["path/to/file.py", 3]}: file names in stacks are indexes into this table.
void internString(const json::Value& entry, std::unordered_map<std::int64_t, std::string>& table);
// [{"line": 10, "name": "fn", "filename": 3 | "file.py", "loc": "x = f(y)"}, ...]
std::vector<StackFrame> parseStack(const json::Value& frames, const std::unordered_map<std::int64_t, std::string>& strings);
// Dynamo's own entry frames (convert_frame.py's catch_errors/_convert_frame/... or its __call__ x3) end every
// dynamo_start stack; tlparse drops them, so does the report.
void dropConvertFrameSuffix(std::vector<StackFrame>& stack);

CompileMetrics parseMetrics(const TraceRecord& record);
// tlparse's colour of a compile from its compilation_metrics records.
CompileStatus statusOf(const std::vector<CompileMetrics>& metrics);
// fail_type/fail_reason/fail_user_frame_* and exception_stack_trace; nullopt when fail_type is null.
std::optional<CompileFailure> failureOf(const CompileMetrics& metrics);

// dynamo_guards: a JSON list of {"code": ...}; malformed payloads add nothing.
void appendGuards(std::string_view payload, std::vector<std::string>& guards);
// dynamo_graph_break_reason: both forms PyTorch writes ("Graph break in user code at ..." and the
// "Graph break: torch.compile cannot properly resume ..." skip), else the first line as the reason.
GraphBreak parseGraphBreak(std::string_view payload, int line, int attempt);
// recompile_reasons: a JSON list of strings, one JSON string, or (as torch writes a lone reason) plain text.
std::vector<std::string> parseRecompileReasons(std::string_view payload);
// Artifacts named <cache>_cache_hit / _miss / _bypass ("fx_graph_cache_miss"); nullopt for any other name.
std::optional<CacheEvent> parseCacheEvent(std::string_view artifactName, std::string_view payload);

// torch.export's problems, as tlparse's export index lists them: guard_added evaluated ("eval" prefix),
// propagate_real_tensors_provenance, missing_fake_kernel, mismatched_fake_kernel; nullopt for other records.
std::optional<std::string> exportIssue(const TraceRecord& record);

}  // namespace fxray::io
