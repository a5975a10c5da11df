#include "io/trace_log.h"

#include "base/error.h"
#include "base/md5.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <utility>

namespace fxray::io {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::size_t kMaxDiagnostics = 1000;  // a binary file must not turn into a million messages

bool isDigit(char c) { return c >= '0' && c <= '9'; }

SourceLocation at(const std::string& file, int line = 0, int column = 0)
{
    SourceLocation where;
    where.file = file;
    where.line = line;
    where.column = column;
    return where;
}

// The parts of "V1121 11:39:50.185000 453 torch/_dynamo/utils.py:2126] {...}" before the JSON.
struct HeaderPrefix {
    char level = 0;
    std::string_view timestamp;
    int pid = 0;
    std::string_view source;
    std::size_t jsonOffset = 0;  // offset of the '{' that starts the JSON object
};

bool parseHeaderPrefix(std::string_view line, HeaderPrefix& out)
{
    const std::size_t n = line.size();
    // Shortest possible: "V0101 00:00:00.0 1 a:1] {" (25 bytes).
    if (n < 25)
        return false;
    switch (line[0]) {
    case 'V': case 'I': case 'W': case 'E': case 'C': break;  // glog abbreviations PyTorch writes
    default: return false;
    }
    std::size_t p = 1;
    auto digits = [&](std::size_t count) {
        for (std::size_t i = 0; i < count; ++i, ++p) {
            if (p >= n || !isDigit(line[p]))
                return false;
        }
        return true;
    };
    auto literal = [&](char c) {
        if (p >= n || line[p] != c)
            return false;
        ++p;
        return true;
    };
    if (!digits(4) || !literal(' ') || !digits(2) || !literal(':') || !digits(2) || !literal(':') || !digits(2)
        || !literal('.'))
        return false;
    const std::size_t fracStart = p;
    while (p < n && isDigit(line[p]))
        ++p;
    if (p == fracStart)
        return false;
    out.level = line[0];
    out.timestamp = line.substr(1, p - 1);
    if (!literal(' '))
        return false;
    while (p < n && line[p] == ' ')
        ++p;
    const std::size_t pidStart = p;
    long long pid = 0;
    while (p < n && isDigit(line[p])) {
        if (pid < std::numeric_limits<int>::max() / 10)
            pid = pid * 10 + (line[p] - '0');
        ++p;
    }
    if (p == pidStart || !literal(' '))
        return false;
    out.pid = static_cast<int>(pid);
    while (p < n && line[p] == ' ')
        ++p;
    const std::size_t sourceStart = p;
    // The source path may contain spaces or colons; it ends at the first "]" that closes ":<digits>" and is
    // followed by " {" (after the optional " [...]" groups non-trace TORCH_LOGS lines carry).
    for (std::size_t close = line.find(']', sourceStart); close != std::string_view::npos;
         close = line.find(']', close + 1)) {
        std::size_t d = close;
        while (d > sourceStart && isDigit(line[d - 1]))
            --d;
        if (d == close || d < sourceStart + 2 || line[d - 1] != ':')
            continue;
        std::size_t r = close + 1;
        while (r + 1 < n && line[r] == ' ' && line[r + 1] == '[') {
            const std::size_t groupEnd = line.find(']', r + 2);
            if (groupEnd == std::string_view::npos)
                break;
            r = groupEnd + 1;
        }
        if (r + 1 < n && line[r] == ' ' && line[r + 1] == '{') {
            out.source = line.substr(sourceStart, close - sourceStart);
            out.jsonOffset = r + 1;
            return true;
        }
    }
    return false;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// An int field of the header, or fallback when absent, not an integer or outside int's range.
int headerInt(const json::Value& header, std::string_view key, int fallback)
{
    const std::int64_t v = header.intOr(key, fallback);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        return fallback;
    return static_cast<int>(v);
}

std::string lineRange(int first, int count)
{
    if (count <= 1)
        return "line " + std::to_string(first);
    return "lines " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// A payload from the raw bytes of its lines: each line less its leading tab (blank lines, whose tab an editor
// stripped, as they are), joined with "\n"; a line's trailing "\r" is dropped unless keepCr.
std::string payloadFromRegion(std::string_view region, bool keepCr)
{
    std::string out;
    out.reserve(region.size());
    std::size_t pos = 0;
    bool first = true;
    while (pos <= region.size()) {
        std::size_t nl = region.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = region.size();
        std::string_view line = region.substr(pos, nl - pos);
        if (!keepCr && !line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!first)
            out += '\n';
        first = false;
        if (!line.empty() && line.front() == '\t')
            line.remove_prefix(1);
        out.append(line);
        pos = nl + 1;
    }
    return out;
}

// Where the parser finds the raw bytes of a payload region again (its lines with their tabs and "\r"): the text in
// memory, or the file being read in chunks.
struct RawSource {
    std::string_view text;        // the whole log, when parsed from memory
    std::FILE* file = nullptr;    // else the log being indexed
    std::string region(std::uint64_t begin, std::uint64_t end) const;
};

class TraceLogParser {
public:
    TraceLogParser(TraceLog& log, RawSource raw, bool keepPayloads)
        : m_log(log), m_raw(raw), m_keepPayloads(keepPayloads)
    {
    }

    // One line of the log, without its "\n" (and its "\r", hadCr); begin/end: its bytes in the file.
    void line(std::string_view line, bool hadCr, int lineNo, std::uint64_t begin, std::uint64_t end, bool last)
    {
        HeaderPrefix prefix;
        if (!line.empty() && line.front() == '\t') {
            if (m_open != kNone)
                appendPayloadLine(line, hadCr, lineNo, begin, end);
            else
                stray(StrayKind::OrphanPayload, lineNo);
        } else if (line.empty()) {
            // PyTorch writes a payload's empty line as a lone tab, but an editor that strips trailing
            // whitespace leaves it empty (tlparse's export logs): inside a payload it is an empty payload
            // line if more payload lines follow; otherwise it ends the record.
            if (m_open != kNone) {
                if (m_blankLines.empty())
                    m_firstBlankBegin = begin;
                m_blankLines.push_back(lineNo);
            } else {
                flushStray();
            }
        } else if (parseHeaderPrefix(line, prefix)) {
            closeRecord();
            flushStray();
            openRecord(prefix, line, lineNo, last);
        } else {
            closeRecord();
            stray(StrayKind::Text, lineNo);
        }
    }

    void finish(int lineNo, std::uint64_t size)
    {
        m_size = size;
        m_atEnd = true;
        closeRecord();
        flushStray();
        if (m_suppressed > 0) {
            TraceDiagnostic d;
            d.line = lineNo;
            d.lineCount = 0;
            d.message = formatError(std::to_string(m_suppressed) + " more problems not listed", at(m_log.path), {});
            m_log.diagnostics.push_back(std::move(d));
        }
        m_log.lineCount = lineNo;
    }

private:
    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    enum class StrayKind { None, Text, OrphanPayload };

    // Payload text as it arrives: kept in the record, or only hashed (and searched for "def forward(", which
    // the graph test needs of a few kinds) when the log is indexed.
    void payloadText(std::string_view piece)
    {
        if (m_keepPayloads) {
            m_log.records[m_open].payload.append(piece);
            return;
        }
        m_md5.update(piece);
        m_forward = m_forward || piece.find("def forward(") != std::string_view::npos;
    }

    void openRecord(const HeaderPrefix& prefix, std::string_view line, int lineNo, bool unterminated)
    {
        TraceRecord rec;
        rec.line = lineNo;
        rec.level = prefix.level;
        rec.timestamp = std::string(prefix.timestamp);
        rec.pid = prefix.pid;
        rec.source = std::string(prefix.source);
        m_headerOk = false;
        try {
            rec.header = json::parse(line.substr(prefix.jsonOffset));
            m_headerOk = true;
        } catch (const Error& e) {
            rec.payloadOk = false;
            const int column = static_cast<int>(prefix.jsonOffset) + e.where().column;
            rec.error = formatError("malformed JSON header: " + e.message()
                                        + (unterminated ? " (the file ends inside this line: truncated?)" : ""),
                                    at(m_log.path, lineNo, column), {});
        }
        if (m_headerOk) {
            // The prefix check guarantees a '{', so a header that parsed is an object.
            const json::Object& object = rec.header.asObject();
            if (object.empty()) {
                rec.payloadOk = false;
                rec.error = formatError("header object is empty: no record kind", at(m_log.path, lineNo), {});
            } else {
                rec.kind = object.members().front().first;
            }
            // Read through a const view: a non-const operator[] would insert missing keys.
            const json::Value& h = rec.header;
            if (rec.kind == "artifact")
                rec.artifactName = h["artifact"].stringOr("name", "");
            rec.frameId = headerInt(rec.header, "frame_id", -1);
            rec.frameCompileId = headerInt(rec.header, "frame_compile_id", -1);
            rec.attempt = headerInt(rec.header, "attempt", 0);
            rec.compiledAutogradId = headerInt(rec.header, "compiled_autograd_id", -1);
            if (const json::Value* md5 = rec.header.find("has_payload")) {
                rec.hasPayload = true;
                if (!md5->isString()) {
                    rec.payloadOk = false;
                    rec.error = formatError("\"has_payload\" is not a string", at(m_log.path, lineNo), {});
                }
            }
        }
        m_log.records.push_back(std::move(rec));
        m_open = m_log.records.size() - 1;
        m_sawCr = false;
        m_forward = false;
        m_payloadBegin = m_payloadEnd = 0;
    }

    void appendPayloadLine(std::string_view line, bool hadCr, int lineNo, std::uint64_t rawBegin, std::uint64_t rawEnd)
    {
        TraceRecord& rec = m_log.records[m_open];
        if (m_payloadEnd == 0) {
            m_payloadBegin = rawBegin;  // (leading blank lines are left out of the raw region: no "\r" to keep)
            rec.payloadOffset = m_blankLines.empty() ? rawBegin : m_firstBlankBegin;
        }
        // Blank lines before this payload line: payload lines whose whitespace was stripped.
        for (int blank : m_blankLines) {
            if (rec.payloadLineCount == 0)
                rec.payloadLine = blank;
            else
                payloadText("\n");
            ++rec.payloadLineCount;
            m_strippedLines.push_back(blank);
        }
        m_blankLines.clear();
        if (rec.payloadLineCount == 0)
            rec.payloadLine = lineNo;
        else
            payloadText("\n");
        ++rec.payloadLineCount;
        m_payloadEnd = rawEnd;
        rec.payloadEnd = rawEnd;
        m_sawCr = m_sawCr || hadCr;
        payloadText(line.substr(1));
    }

    // The payload with each line's trailing "\r" kept: for the rare payload whose lines really ended in "\r".
    std::string rawPayload() const
    {
        return payloadFromRegion(m_raw.region(m_payloadBegin, m_payloadEnd), true);
    }

    void closeRecord()
    {
        if (m_open == kNone)
            return;
        TraceRecord& rec = m_log.records[m_open];
        if (m_headerOk && rec.payloadOk) {
            if (rec.hasPayload)
                checkPayload(rec);
            else if (rec.payloadLineCount > 0) {
                rec.payloadOk = false;
                rec.error = formatError("payload lines (" + lineRange(rec.payloadLine, rec.payloadLineCount)
                                            + ") follow a header without \"has_payload\"",
                                        at(m_log.path, rec.line), {});
            }
        }
        if (m_headerOk)
            rec.isGraph = m_keepPayloads ? isGraphRecord(rec, rec.payload) : isGraphRecord(rec, m_forward);
        // An index keeps no header of a chromium_event (a timing span): three in four records of a log, read by
        // nothing in fxray, and most of an index's memory (a 1 GB log: 254k records).
        if (!m_keepPayloads && rec.kind == "chromium_event" && rec.error.empty() && !rec.header.find("rank")) {
            rec.header = json::Object{};
            std::string().swap(rec.timestamp);  // (frees them: read by nothing but tests of full reads)
            std::string().swap(rec.source);
        }
        m_md5.finish();  // (resets it for the next record)
        m_open = kNone;
        m_blankLines.clear();
        m_strippedLines.clear();
    }

    // The payload against the header's MD5.
    void checkPayload(TraceRecord& rec)
    {
        const std::string& expected = std::as_const(rec.header)["has_payload"].asString();
        std::string actual = m_keepPayloads ? md5Hex(rec.payload) : m_md5.finishHex();
        if (actual != expected && m_sawCr) {
            std::string raw = rawPayload();
            std::string rawMd5 = md5Hex(raw);
            if (rawMd5 == expected) {
                actual = std::move(rawMd5);
                rec.payloadKeepsCr = true;
                if (m_keepPayloads)
                    rec.payload = std::move(raw);
            }
        }
        if (actual != expected && !m_strippedLines.empty()) {
            // The log was edited, but only in whitespace: the hash cannot be checked, the text is usable.
            rec.warning = formatError("payload md5 mismatch: header says " + expected + ", payload ("
                                          + lineRange(rec.payloadLine, rec.payloadLineCount) + ") hashes to " + actual
                                          + "; " + strippedLinesText()
                                          + " blank where PyTorch writes a tab (whitespace stripped by an "
                                            "editor?), so the payload is used unverified",
                                      at(m_log.path, rec.line), {});
        } else if (actual != expected) {
            rec.payloadOk = false;
            std::string what = "payload md5 mismatch: header says " + expected + ", ";
            if (rec.payloadLineCount == 0)
                what += "but no payload lines follow";
            else
                what += "payload (" + lineRange(rec.payloadLine, rec.payloadLineCount) + ") hashes to " + actual;
            if (rec.payloadLineCount > 0 && m_atEnd && m_payloadEnd >= m_size)
                what += " (the file ends inside this payload: truncated?)";
            rec.error = formatError(what, at(m_log.path, rec.line), {});
        }
    }

    // "line 12 is" / "lines 12, 15 and 3 more are": the blank lines taken into the open record's payload.
    std::string strippedLinesText() const
    {
        constexpr std::size_t kShown = 5;
        std::string out = m_strippedLines.size() == 1 ? "line " : "lines ";
        for (std::size_t i = 0; i < m_strippedLines.size() && i < kShown; ++i)
            out += (i ? ", " : "") + std::to_string(m_strippedLines[i]);
        if (m_strippedLines.size() > kShown)
            out += " and " + std::to_string(m_strippedLines.size() - kShown) + " more";
        return out + (m_strippedLines.size() == 1 ? " is" : " are");
    }

    void stray(StrayKind kind, int lineNo)
    {
        if (m_strayKind == kind && static_cast<long long>(m_strayFirst) + m_strayCount == lineNo) {
            ++m_strayCount;
            return;
        }
        flushStray();
        m_strayKind = kind;
        m_strayFirst = lineNo;
        m_strayCount = 1;
    }

    void flushStray()
    {
        if (m_strayKind == StrayKind::None)
            return;
        if (m_log.diagnostics.size() >= kMaxDiagnostics) {
            ++m_suppressed;
        } else {
            TraceDiagnostic d;
            d.line = m_strayFirst;
            d.lineCount = m_strayCount;
            std::string what = lineRange(m_strayFirst, m_strayCount);
            if (m_strayKind == StrayKind::Text)
                what += m_strayCount == 1 ? " is neither a TORCH_TRACE record header nor a payload line"
                                          : " are neither TORCH_TRACE record headers nor payload lines";
            else
                what += m_strayCount == 1 ? " is a payload line with no record header before it"
                                          : " are payload lines with no record header before them";
            d.message = formatError(what, at(m_log.path, m_strayFirst), {});
            m_log.diagnostics.push_back(std::move(d));
        }
        m_strayKind = StrayKind::None;
        m_strayCount = 0;
    }

    TraceLog& m_log;
    RawSource m_raw;
    bool m_keepPayloads;
    std::uint64_t m_size = 0;  // of the whole log, known at the end
    bool m_atEnd = false;      // the last record is being closed
    Md5 m_md5;                 // of the open record's payload, when payloads are not kept
    bool m_forward = false;    // ... and whether it holds "def forward("
    std::uint64_t m_firstBlankBegin = 0;

    std::size_t m_open = kNone;  // index of the record whose payload lines may follow
    bool m_headerOk = false;
    bool m_sawCr = false;
    std::uint64_t m_payloadBegin = 0;  // raw bytes of the open record's payload lines
    std::uint64_t m_payloadEnd = 0;
    std::vector<int> m_blankLines;     // blank lines since the open record's last payload line
    std::vector<int> m_strippedLines;  // blank lines taken into the open record's payload

    StrayKind m_strayKind = StrayKind::None;
    int m_strayFirst = 0;
    int m_strayCount = 0;
    std::size_t m_suppressed = 0;
};

constexpr std::string_view kGraphKinds[] = {
    "dynamo_output_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph",
    "compiled_autograd_graph", "exported_program",
};

constexpr std::string_view kGraphArtifacts[] = {
    "before_pre_grad_graph", "after_pre_grad_graph", "before_post_grad_graph", "inductor_post_grad_graph",
    "fx_graph_runnable",     "compiled_autograd_graph",
    // inductor's pre/post-grad passes log the graph around a recompile under these names (no "_graph" suffix)
    "before_recompile_pre_grad", "after_recompile_pre_grad", "before_recompile_post_grad", "after_recompile_post_grad",
};

template <std::size_t N>
bool contains(const std::string_view (&names)[N], std::string_view name)
{
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

}  // namespace

std::size_t TraceLog::problemCount() const
{
    return diagnostics.size()
           + static_cast<std::size_t>(std::count_if(records.begin(), records.end(),
                                                    [](const TraceRecord& r) { return !r.error.empty(); }));
}

bool isGraphRecord(const TraceRecord& record, std::string_view payload)
{
    constexpr std::string_view kForward = "def forward(";
    if (record.kind == "artifact") {
        if (contains(kGraphArtifacts, record.artifactName))
            return true;
        return endsWith(record.artifactName, "_graph")
               && record.header["artifact"].stringOr("encoding", "") == "string"
               && payload.find(kForward) != std::string_view::npos;
    }
    if (contains(kGraphKinds, record.kind))
        return true;
    return endsWith(record.kind, "_graph") && payload.find(kForward) != std::string_view::npos;
}

bool isGraphRecord(const TraceRecord& record, bool payloadHasForward)
{
    return isGraphRecord(record, payloadHasForward ? std::string_view("def forward(") : std::string_view());
}

std::vector<TraceGraphRecord> graphRecords(const TraceLog& log)
{
    std::vector<TraceGraphRecord> out;
    for (std::size_t i = 0; i < log.records.size(); ++i) {
        if (log.records[i].isGraph)
            out.push_back({i, log.records[i].name()});
    }
    return out;
}

bool isTraceRecordHeader(std::string_view line)
{
    HeaderPrefix prefix;
    return parseHeaderPrefix(line, prefix);
}

int traceLogRank(std::string_view path)
{
    const std::size_t slash = path.find_last_of("/\\");
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    constexpr std::string_view kPrefix = "dedicated_log_torch_trace_rank_";
    if (name.substr(0, kPrefix.size()) != kPrefix)
        return -1;
    name.remove_prefix(kPrefix.size());
    int rank = 0;
    std::size_t i = 0;
    for (; i < name.size() && isDigit(name[i]); ++i) {
        if (i >= 9)
            return -1;  // not a rank anyone runs; also keeps the int from overflowing
        rank = rank * 10 + (name[i] - '0');
    }
    // mkstemp's prefix is "..._rank_<N>_", so the digits are followed by '_' (accept '.' too: no random part).
    if (i == 0 || i >= name.size() || (name[i] != '_' && name[i] != '.'))
        return -1;
    return rank;
}

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::string readRegion(std::FILE* file, std::uint64_t begin, std::uint64_t end, const std::string& path)
{
    std::string out(static_cast<std::size_t>(end - begin), '\0');
    if (fseeko(file, static_cast<off_t>(begin), SEEK_SET) != 0 || std::fread(out.data(), 1, out.size(), file) != out.size())
        throw Error("cannot read TORCH_TRACE log: read error at byte " + std::to_string(begin), at(path));
    return out;
}

}  // namespace

std::string RawSource::region(std::uint64_t begin, std::uint64_t end) const
{
    if (!file)
        return std::string(text.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin)));
    // Indexing reads the file front to back: come back to where it was.
    const off_t here = ftello(file);
    std::string out = readRegion(file, begin, end, {});
    fseeko(file, here, SEEK_SET);
    return out;
}

namespace {

// Splits text into lines for the parser: "\n" ends a line, a "\r" before it is dropped (CRLF tolerated).
class LineSplitter {
public:
    explicit LineSplitter(TraceLogParser& parser) : m_parser(parser) {}

    // Every complete line of `text`, which starts at byte `offset` of the log; returns how much was used (a last
    // line without "\n" is left for the next call unless `end`).
    std::size_t feed(std::string_view text, std::uint64_t offset, bool end)
    {
        std::size_t pos = 0;
        if (offset == 0 && text.substr(0, kUtf8Bom.size()) == kUtf8Bom)
            pos = kUtf8Bom.size();
        const std::size_t size = text.size();
        while (pos < size) {
            const void* nl = std::memchr(text.data() + pos, '\n', size - pos);
            if (!nl && !end)
                break;
            const std::size_t stop = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) : size;
            if (m_lineNo < std::numeric_limits<int>::max())  // saturate rather than overflow on absurd files
                ++m_lineNo;
            std::string_view line = text.substr(pos, stop - pos);
            const bool hadCr = !line.empty() && line.back() == '\r';
            if (hadCr)
                line.remove_suffix(1);
            m_parser.line(line, hadCr, m_lineNo, offset + pos, offset + stop, nl == nullptr);
            pos = nl ? stop + 1 : size;
        }
        return pos;
    }
    int lineCount() const { return m_lineNo; }

private:
    TraceLogParser& m_parser;
    int m_lineNo = 0;
};

}  // namespace

TraceLog parseTraceLog(std::string_view text, const std::string& path, bool keepPayloads)
{
    TraceLog log;
    log.path = path;
    log.rank = traceLogRank(path);
    log.payloadsKept = keepPayloads;
    TraceLogParser parser(log, RawSource{text, nullptr}, keepPayloads);
    LineSplitter lines(parser);
    lines.feed(text, 0, true);
    parser.finish(lines.lineCount(), text.size());
    return log;
}

namespace {

FilePtr openLog(const std::string& path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        throw Error("cannot read TORCH_TRACE log: no such file", at(path));
    // Reading a FIFO or a device could block forever or never end.
    if (!fs::is_regular_file(status))
        throw Error("cannot read TORCH_TRACE log: not a regular file", at(path));
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file)
        throw Error(std::string("cannot read TORCH_TRACE log: ") + std::strerror(errno), at(path));
    return file;
}

}  // namespace

TraceLog readTraceLog(const std::string& path, bool keepPayloads)
{
    FilePtr file = openLog(path);
    if (keepPayloads) {
        // Read straight into the string (the size is known); keep reading in case the file grew meanwhile.
        std::error_code ec;
        std::string text;
        const std::uintmax_t expected = fs::file_size(path, ec);
        std::size_t size = ec ? 0 : static_cast<std::size_t>(expected);
        text.resize(size);
        size = std::fread(text.data(), 1, size, file.get());
        text.resize(size);
        char chunk[1 << 16];
        for (;;) {
            const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
            text.append(chunk, got);
            if (got < sizeof chunk)
                break;
        }
        if (std::ferror(file.get()))
            throw Error("cannot read TORCH_TRACE log: read error", at(path));
        return parseTraceLog(text, path, true);
    }
    // The index: one pass in chunks, payloads hashed as they stream by, never held (a 1 GB log in a few MB).
    TraceLog log;
    log.path = path;
    log.rank = traceLogRank(path);
    log.payloadsKept = false;
    TraceLogParser parser(log, RawSource{{}, file.get()}, false);
    LineSplitter lines(parser);
    constexpr std::size_t kChunk = 4 << 20;
    std::string buffer;  // unused tail of the last chunk (a line cut in two), then the next chunk
    std::uint64_t offset = 0;  // of buffer[0] in the file
    for (;;) {
        const std::size_t kept = buffer.size();
        buffer.resize(kept + kChunk);
        const std::size_t got = std::fread(buffer.data() + kept, 1, kChunk, file.get());
        buffer.resize(kept + got);
        if (std::ferror(file.get()))
            throw Error("cannot read TORCH_TRACE log: read error", at(path));
        const bool end = got == 0;
        const std::size_t used = lines.feed(buffer, offset, end);
        if (end)
            break;
        buffer.erase(0, used);
        offset += used;
    }
    parser.finish(lines.lineCount(), offset + buffer.size());
    return log;
}

std::string tracePayload(const TraceLog& log, const TraceRecord& record)
{
    if (log.payloadsKept || record.payloadLineCount == 0)
        return record.payload;
    FilePtr file = openLog(log.path);
    std::string text = payloadFromRegion(readRegion(file.get(), record.payloadOffset, record.payloadEnd, log.path),
                                         record.payloadKeepsCr);
    // The log may have been rewritten since it was indexed: its MD5 says whether this is still the payload.
    if (record.hasPayload && record.payloadOk && record.warning.empty() && record.header.isObject()) {
        const json::Value& expected = record.header["has_payload"];
        if (expected.isString() && md5Hex(text) != expected.asString())
            throw Error("the log changed since it was read: this record's payload no longer matches its MD5 (open it again)",
                        at(log.path, record.line));
    }
    return text;
}

bool looksLikeTraceLog(const std::string& path)
{
    constexpr std::size_t kLimit = 1 << 20;  // a first line longer than this is judged on its prefix alone
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || ec)
        return false;
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return false;

    std::string buf;
    char chunk[1 << 14];
    bool eof = false;
    std::size_t start = 0;  // first byte of the first non-empty line, once known
    std::size_t end = std::string::npos;
    while (end == std::string::npos) {
        const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
        buf.append(chunk, got);
        eof = got < sizeof chunk;
        // Skip a BOM and empty lines (LF or CRLF) already in the buffer.
        start = buf.compare(0, kUtf8Bom.size(), kUtf8Bom) == 0 ? kUtf8Bom.size() : 0;
        while (start < buf.size() && (buf[start] == '\n' || buf[start] == '\r'))
            ++start;
        if (start < buf.size())
            end = buf.find('\n', start);
        if (eof || buf.size() >= kLimit)
            break;
    }
    if (start >= buf.size())
        return false;
    const bool complete = end != std::string::npos || eof;
    std::string_view line(buf);
    line = line.substr(start, end == std::string::npos ? std::string_view::npos : end - start);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    HeaderPrefix prefix;
    if (!parseHeaderPrefix(line, prefix))
        return false;
    if (!complete)
        return true;
    try {
        json::parse(line.substr(prefix.jsonOffset));
        return true;
    } catch (const Error&) {
        return false;
    }
}

}  // namespace fxray::io
