#pragma once
// The compile report of TORCH_TRACE logs: what tlparse's index shows, as data. Per rank (one log each), every
// compile (frame id / frame compile id, attempts when dynamo restarted) with its status, the stack that
// triggered it, graph breaks (reason + user stack), restarts, recompiles (the guard that failed), guards,
// compilation failures (type, reason, traceback), compile-time metrics, cache hits/misses/bypasses, the
// addresses of its graphs (loadable with loadAddress) and inductor's output code as text.
//
// Built from the records of the log (trace_log.h); nothing is executed. Records naming no frame (torch.export,
// logs written before a compile started) are collected in a compile with frameId -1 ("(unknown)", as tlparse).
// Repeated compile ids in one log (torch._dynamo.reset between runs) merge into one compile, as tlparse does.
#include "base/json.h"
#include "io/trace_log.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::io {

// tlparse's colours: ok (green), restarted (a restart, e.g. a graph break in an inlined call), empty (no ops
// in the graph), failed (fail_type set), missing (no compilation_metrics: crashed, or still running).
enum class CompileStatus { Ok, Restarted, Empty, Failed, Missing };
std::string_view compileStatusName(CompileStatus s);  // "ok", "restarted", "empty", "failed", "missing"

struct StackFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;  // the source line, when the log has it ("loc")
};

// dynamo_graph_break_reason: "Graph break in user code at FILE:LINE" + reason + user code traceback.
struct GraphBreak {
    int line = 0;          // of the record in the log
    int attempt = 0;
    std::string location;  // "file.py:23"
    std::string reason;    // the "Graph Break Reason:" paragraph
    std::string userStack; // "User code traceback:" lines, as printed
};

struct CompileFailure {
    std::string type;    // fail_type: "BackendCompilerFailed"
    std::string reason;  // fail_reason
    std::string userFrame;  // "file.py:12" (fail_user_frame_filename/lineno), when known
    std::string stack;   // dynamo_error's traceback, else compilation_metrics' exception_stack_trace
};

struct CacheEvent {
    int line = 0;
    std::string cache;   // "fx_graph", "aotautograd"
    std::string state;   // "hit", "miss", "bypass"
    std::string key;     // the cache key, when the payload names one
    std::string reason;  // a bypass's reason
};

// One compilation_metrics record (restarted compiles log one per attempt; reset runs repeat them).
struct CompileMetrics {
    int line = 0;
    int attempt = 0;
    std::string recordName;  // "compilation_metrics", "bwd_compilation_metrics", "compilation_metrics_runtime", ...
    json::Value fields;      // the whole object, for --json and anything not picked out below
    std::optional<double> entireFrameS, backendS, inductorS, codeGenS, dynamoBeforeRestartS;
    std::optional<std::int64_t> guardCount, shapeEnvGuardCount, graphOpCount, graphNodeCount, graphInputCount;
    std::optional<std::int64_t> cacheSize, accumulatedCacheSize;
};

// Something of the compile worth a link: a graph (address set), inductor's output code (text kept), a link
// record (url set), or another artifact (name and line only).
struct CompileArtifact {
    enum class Kind { Graph, OutputCode, Link, Other };
    Kind kind = Kind::Other;
    int line = 0;
    int attempt = 0;
    std::string name;     // record or artifact name; the file name for output code
    std::string address;  // graphs: "<log>#<selector>"
    std::string url;      // links
    std::string text;     // output code
};

struct CompileEntry {
    int compiledAutogradId = -1;
    int frameId = -1;
    int frameCompileId = -1;
    int attempts = 1;  // highest attempt seen + 1
    std::string compileId;  // "[0/0]", "[!1/0/0]", "(unknown)"
    std::string function;   // co_name, else the last frame of the stack
    std::string sourceLocation;  // "file.py:57" (co_filename:co_firstlineno)
    CompileStatus status = CompileStatus::Missing;
    std::vector<StackFrame> stack;  // dynamo_start's, dynamo's convert_frame suffix removed
    std::vector<GraphBreak> graphBreaks;
    std::vector<std::string> restartReasons;
    std::vector<std::string> recompileReasons;  // the guards that failed and caused this compile
    std::vector<std::string> guards;            // dynamo_guards' code lines
    std::string cppGuards;                      // dynamo_cpp_guards_str, as logged
    std::vector<std::string> shapeGuards;       // guard_added_fast / symbolic_shape_specialization
    std::optional<CompileFailure> failure;
    std::vector<std::string> exportIssues;      // torch.export: guards evaluated, data-dependent specializations, fake kernels
    std::vector<CompileMetrics> metrics;
    std::vector<CacheEvent> cache;
    std::vector<CompileArtifact> artifacts;     // log order
    int firstLine = 0;

    bool unknown() const { return frameId < 0 && compiledAutogradId < 0; }
    // The most recent compilation_metrics (not bwd/runtime ones), or nullptr.
    const CompileMetrics* lastMetrics() const;
    // "resumes after a graph break in FN at line N" for dynamo's torch_dynamo_resume_in_FN_at_N frames.
    std::string resumeOf() const;
};

struct RankReport {
    int rank = -1;          // from the file name or the records' "rank"; -1 when neither says
    std::string path;
    std::vector<CompileEntry> compiles;  // order of first appearance
    std::size_t records = 0;
    std::size_t problems = 0;            // TraceLog::problemCount
    std::vector<std::string> problemMessages;  // the first few

    std::size_t countStatus(CompileStatus s) const;
    std::size_t restartsAndFailures() const;  // tlparse's "N restart(s) and/or compilation failure(s)"
    std::size_t graphBreakCount() const;
    std::size_t recompileCount() const;       // compiles with a recompile reason
    std::size_t cacheCount(std::string_view state) const;
};

// Ranks that disagree (tlparse's multi-rank landing page): groups of ranks with the same compile ids, and with
// the same cache hit/miss sequence. One group each means no divergence.
struct RankGroups {
    std::vector<std::vector<int>> byCompileIds;
    std::vector<std::vector<int>> byCacheSequence;
};

struct CompileReport {
    std::vector<RankReport> ranks;  // by rank, then path
    RankGroups groups;
};

// One log. Throws fxray::Error when it cannot be read.
RankReport buildRankReport(const std::string& logPath);
// A log, or a directory searched (recursively) for TORCH_TRACE logs. Throws fxray::Error naming the path when
// it does not exist or holds no trace log.
CompileReport buildCompileReport(const std::string& path);

// includeCode: inductor output code text in the JSON (it can be megabytes); otherwise its size.
json::Value compileReportToJson(const CompileReport& report, bool includeCode = false);

}  // namespace fxray::io
