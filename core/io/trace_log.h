#pragma once
// TORCH_TRACE log reader (the files tlparse reads; FORMATS.md section 3). A log is a sequence of records:
//
//   V1121 11:39:52.969000 453 torch/_functorch/_aot_autograd/graph_compile.py:1708] {"aot_forward_graph": {}, ...}
//   <TAB>class GraphModule(torch.nn.Module):
//   <TAB>    def forward(
//
// a header line (level letter, MMDD, time, pid, source path:line, "]", one JSON object) followed by payload
// lines starting with a tab. The payload is those lines with one tab stripped, joined with "\n"; its MD5 is
// the header's "has_payload".
//
// Reading never throws on bad content: a record whose header JSON is malformed or whose payload does not
// match its MD5 carries an error (and stays in the list, so line numbers and neighbours are intact); lines
// that belong to no record become diagnostics. Only an unreadable file throws fxray::Error.
//
// Blank lines between payload lines are empty payload lines whose tab was stripped (by an editor); should the
// MD5 then fail, the payload is kept with a warning rather than an error (whitespace is all that changed).
//
// CRLF line endings are tolerated: a "\r" before "\n" is stripped, so the MD5 is checked over the LF form
// (what PyTorch hashed). Should that fail for a payload whose lines did end in "\r", the payload is checked
// again with the "\r" kept, for the rare payload that really contained "\r\n".
#include "base/json.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxray::io {

struct TraceRecord {
    int line = 0;              // 1-based line of the header
    char level = 0;            // 'V', 'I', 'W', 'E' or 'C'
    std::string timestamp;     // "1121 11:39:52.969000": MMDD HH:MM:SS.micro as written (no year in the log)
    int pid = 0;
    std::string source;        // "torch/_functorch/_aot_autograd/graph_compile.py:1708": who logged it
    std::string kind;          // first key of the header object: "aot_forward_graph", "artifact", ...
    json::Value header;        // the whole header object (null when it did not parse)
    std::string artifactName;  // header["artifact"]["name"] when kind == "artifact"
    int frameId = -1;
    int frameCompileId = -1;
    int attempt = 0;
    int compiledAutogradId = -1;  // header "compiled_autograd_id", when present
    int payloadLine = 0;          // line of the first payload line; 0 when there is none
    int payloadLineCount = 0;
    std::string payload;          // empty when read with keepPayloads = false: see tracePayload
    // Where the payload's lines are in the file: bytes [payloadOffset, payloadEnd), tabs and "\r" included.
    std::uint64_t payloadOffset = 0, payloadEnd = 0;
    bool payloadKeepsCr = false;  // its MD5 holds only with each line's "\r" kept (see the top of this file)
    bool hasPayload = false;      // the header announces one ("has_payload")
    // False when the payload must not be trusted: MD5 mismatch (e.g. truncated or edited log), payload
    // lines without "has_payload", or a header that did not parse. True for records without a payload.
    bool payloadOk = true;
    bool isGraph = false;  // one of the graph records (see graphRecords); decided while the payload was at hand
    std::string error;   // "<path>:<line>: <what>" when something is wrong with this record, else empty
    // "<path>:<line>: <what>" when the record is usable but not as written: a payload whose blank lines lost
    // their tab (an editor stripped trailing whitespace) no longer matches its MD5 and is used unverified.
    std::string warning;

    // The record's name as users know it: the artifact name for artifacts, otherwise the kind.
    const std::string& name() const { return kind == "artifact" ? artifactName : kind; }
};

// Lines that belong to no record: stray text, or payload lines with no header before them. Consecutive
// offending lines are reported once.
struct TraceDiagnostic {
    int line = 0;       // first offending line (1-based)
    int lineCount = 1;  // how many consecutive lines this covers (0 for the closing "N more problems not listed")
    std::string message;  // "<path>:<line>: <what>"
};

struct TraceLog {
    std::string path;
    int rank = -1;  // from the file name (traceLogRank); -1 when the name carries none
    int lineCount = 0;
    bool payloadsKept = true;  // records hold their payloads; else tracePayload reads them from the file
    std::vector<TraceRecord> records;
    std::vector<TraceDiagnostic> diagnostics;

    // Records with an error plus diagnostics: 0 for a healthy log.
    std::size_t problemCount() const;
};

// Reads and checks a whole log. keepPayloads = false makes an index: one pass over the file in chunks, every
// header parsed and every payload checked against its MD5 as it streams by, but no payload kept (each record
// says where its payload is; tracePayload reads one back), and of a chromium_event (a timing span: three in four
// records) only its kind, ids and verdict. A 1 GB log is read in 4 MiB chunks. Throws fxray::Error
// when the file cannot be read (missing, a directory, not a regular file).
TraceLog readTraceLog(const std::string& path, bool keepPayloads = true);
// A record's payload: the one kept, or read back from the file of an index (its MD5 checked again: a log
// rewritten since it was indexed is an error naming the record's line, never another record's text).
std::string tracePayload(const TraceLog& log, const TraceRecord& record);
// The same over text already in memory; path is only used in messages and for the rank.
TraceLog parseTraceLog(std::string_view text, const std::string& path = {}, bool keepPayloads = true);

// Cheap sniff for discovery: is the first non-empty line of the file a record header with a JSON object?
// Reads at most the first line (capped), never throws, false for anything unreadable.
bool looksLikeTraceLog(const std::string& path);
// Whether one line (without its "\n") is a record header: "<L><MMDD> <HH:MM:SS.micro> <pid> <path>:<line>] {".
bool isTraceRecordHeader(std::string_view line);

// Rank from the file name: "dedicated_log_torch_trace_rank_3_abc.log" -> 3,
// "dedicated_log_torch_trace_abc.log" -> -1, any other name -> -1. Directories in path are ignored.
int traceLogRank(std::string_view path);

// A record that holds an FX graph: index into TraceLog::records and the record's name
// ("aot_forward_graph", "inductor_post_grad_graph", ...).
struct TraceGraphRecord {
    std::size_t index = 0;
    std::string name;
};

// Graph records in log order: kinds dynamo_output_graph, aot_joint_graph, aot_forward_graph,
// aot_backward_graph, aot_inference_graph, compiled_autograd_graph, exported_program (export logs);
// artifacts before_pre_grad_graph, after_pre_grad_graph, before_post_grad_graph, inductor_post_grad_graph,
// fx_graph_runnable, compiled_autograd_graph, before/after_recompile_pre_grad, before/after_recompile_post_grad;
// and any other kind or "string" artifact named "*_graph" whose payload contains "def forward(". Records
// whose payload failed its MD5 are included (check payloadOk before using them).
std::vector<TraceGraphRecord> graphRecords(const TraceLog& log);

// The rule behind TraceRecord::isGraph, for one record (payload needed only for the "*_graph" fallback).
bool isGraphRecord(const TraceRecord& record, std::string_view payload);
// The same when only known is whether the payload holds "def forward(".
bool isGraphRecord(const TraceRecord& record, bool payloadHasForward);

}  // namespace fxray::io
