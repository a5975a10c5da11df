#include "io/compile_report.h"

#include "base/error.h"
#include "io/compile_report_parse.h"
#include "io/graph_source.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

namespace fxray::io {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kProblemMessages = 5;  // a damaged log lists a few, the count says the rest

std::string compileIdText(int compiledAutogradId, int frameId, int frameCompileId)
{
    if (frameId < 0 && compiledAutogradId < 0)
        return "(unknown)";
    std::string s = "[";
    if (compiledAutogradId >= 0)
        s += "!" + std::to_string(compiledAutogradId) + "/";
    s += (frameId >= 0 ? std::to_string(frameId) : "-") + "/" + (frameCompileId >= 0 ? std::to_string(frameCompileId) : "-");
    return s + "]";
}

bool isMetricsRecord(std::string_view kind)
{
    return kind == "compilation_metrics" || kind == "bwd_compilation_metrics" || kind == "compilation_metrics_runtime"
        || kind == "aot_autograd_backward_compilation_metrics";
}

// Records that say nothing a report shows (timing spans, tensor descriptions for the graph loader).
bool isNoise(std::string_view kind)
{
    return kind == "chromium_event" || kind == "describe_tensor" || kind == "describe_storage" || kind == "describe_source"
        || kind == "str" || kind == "dump_file";
}

// Walks a log's records once, filing each under its compile.
class ReportBuilder {
public:
    ReportBuilder(const TraceLog& log, RankReport& out) : m_log(log), m_out(out)
    {
        // The addresses the loader gives these graphs (so a link opens exactly what `fxray info` lists). A log
        // without any graph is not an error here: discover says so by throwing.
        try {
            for (const GraphEntry& e : discover(log.path).graphs)
                if (e.trace)
                    m_addresses[e.trace->line] = e.address;
        } catch (const Error&) {
        }
    }

    void run()
    {
        for (const TraceRecord& r : m_log.records) {
            if (r.kind == "str") {
                internString(r.header["str"], m_strings);
                continue;
            }
            if (m_out.rank < 0 && r.header["rank"].isInt())
                m_out.rank = static_cast<int>(r.header["rank"].asInt());
            if (r.kind.empty() || (isNoise(r.kind) && !r.isGraph))
                continue;
            file(r, compileFor(r));
        }
        for (CompileEntry& c : m_out.compiles)
            finish(c);
    }

private:
    CompileEntry& compileFor(const TraceRecord& r)
    {
        const auto key = std::make_tuple(r.compiledAutogradId, r.frameId, r.frameId >= 0 ? r.frameCompileId : -1);
        auto [it, fresh] = m_index.try_emplace(key, m_out.compiles.size());
        if (fresh) {
            CompileEntry c;
            std::tie(c.compiledAutogradId, c.frameId, c.frameCompileId) = key;
            c.compileId = compileIdText(c.compiledAutogradId, c.frameId, c.frameCompileId);
            c.firstLine = r.line;
            m_out.compiles.push_back(std::move(c));
        }
        CompileEntry& c = m_out.compiles[it->second];
        c.attempts = std::max(c.attempts, r.attempt + 1);
        return c;
    }

    void file(const TraceRecord& r, CompileEntry& c)
    {
        const json::Value& meta = r.header[r.kind];
        const std::string& name = r.name();
        if (r.kind == "dynamo_start") {
            c.stack = parseStack(meta["stack"], m_strings);
            dropConvertFrameSuffix(c.stack);
        } else if (isMetricsRecord(r.kind)) {
            c.metrics.push_back(parseMetrics(r));
        } else if (r.kind == "dynamo_guards") {
            appendGuards(payload(r), c.guards);
        } else if (r.kind == "dynamo_cpp_guards_str") {
            c.cppGuards = payload(r);
        } else if (r.kind == "guard_added_fast") {
            c.shapeGuards.push_back(meta.stringOr("expr", ""));
        } else if (r.kind == "symbolic_shape_specialization") {
            c.shapeGuards.push_back(meta.stringOr("symbol", "?") + " = " + meta.stringOr("value", "?") + " (specialized)");
        } else if (name == "dynamo_graph_break_reason") {
            c.graphBreaks.push_back(parseGraphBreak(payload(r), r.line, r.attempt));
        } else if (name == "recompile_reasons") {
            for (std::string& reason : parseRecompileReasons(payload(r)))
                c.recompileReasons.push_back(std::move(reason));
        } else if (name == "dynamo_error") {
            m_errorStacks[&c - m_out.compiles.data()] = payload(r);
        } else if (auto issue = exportIssue(r)) {
            c.exportIssues.push_back(std::move(*issue));
        } else if (parseCacheEvent(name, {})) {  // (its name says so: only then is its payload read)
            std::optional<CacheEvent> cache = parseCacheEvent(name, payload(r));
            cache->line = r.line;
            c.cache.push_back(std::move(*cache));
        } else {
            addArtifact(r, c);
        }
    }

    void addArtifact(const TraceRecord& r, CompileEntry& c)
    {
        CompileArtifact a;
        a.line = r.line;
        a.attempt = r.attempt;
        a.name = r.name();
        if (r.isGraph) {
            a.kind = CompileArtifact::Kind::Graph;
            if (auto it = m_addresses.find(r.line); it != m_addresses.end())
                a.address = it->second;
        } else if (r.kind == "inductor_output_code") {
            a.kind = CompileArtifact::Kind::OutputCode;
            const std::string file = r.header[r.kind].stringOr("filename", "");
            a.name = file.empty() ? "inductor_output_code" : fs::path(file).filename().string();
            a.text = payload(r);
        } else if (r.kind == "link") {
            a.kind = CompileArtifact::Kind::Link;
            a.name = r.header["link"].stringOr("name", "link");
            a.url = r.header["link"].stringOr("url", "");
        } else if (!r.hasPayload) {
            return;  // a bare marker (dynamo_output_graph sizes aside, which are graphs) says nothing to link
        }
        c.artifacts.push_back(std::move(a));
    }

    void finish(CompileEntry& c)
    {
        c.status = statusOf(c.metrics);
        for (const CompileMetrics& m : c.metrics) {
            if (m.recordName != "compilation_metrics")
                continue;
            for (const json::Value& reason : m.fields["restart_reasons"].isArray() ? m.fields["restart_reasons"].asArray() : json::Array{})
                if (reason.isString())
                    c.restartReasons.push_back(reason.asString());
            if (c.function.empty() && !m.fields.stringOr("co_name", "").empty()) {
                c.function = m.fields.stringOr("co_name", "");
                c.sourceLocation = m.fields.stringOr("co_filename", "") + ":" + std::to_string(m.fields.intOr("co_firstlineno", 0));
            }
            if (auto f = failureOf(m))
                c.failure = std::move(f);
        }
        if (auto it = m_errorStacks.find(&c - m_out.compiles.data()); it != m_errorStacks.end()) {
            if (!c.failure)
                c.failure = CompileFailure{};
            c.failure->stack = it->second;
        }
        if (c.function.empty() && !c.stack.empty())
            c.function = c.stack.back().function;
    }

    std::string payload(const TraceRecord& r) const { return tracePayload(m_log, r); }

    const TraceLog& m_log;
    RankReport& m_out;
    std::unordered_map<int, std::string> m_addresses;  // graph record line -> address
    std::unordered_map<std::int64_t, std::string> m_strings;  // interned file names ("str" records)
    std::map<std::tuple<int, int, int>, std::size_t> m_index;
    std::map<std::ptrdiff_t, std::string> m_errorStacks;  // compile index -> dynamo_error traceback
};

std::vector<std::vector<int>> groupRanks(const std::vector<RankReport>& ranks, std::string (*keyOf)(const RankReport&))
{
    std::vector<std::pair<std::string, std::vector<int>>> groups;
    for (const RankReport& r : ranks) {
        const std::string key = keyOf(r);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
        if (it == groups.end())
            groups.push_back({key, {r.rank}});
        else
            it->second.push_back(r.rank);
    }
    std::vector<std::vector<int>> out;
    for (auto& g : groups)
        out.push_back(std::move(g.second));
    return out;
}

std::string compileIdsKey(const RankReport& r)
{
    std::vector<std::string> ids;
    for (const CompileEntry& c : r.compiles)
        if (!c.unknown())
            ids.push_back(c.compileId);
    std::sort(ids.begin(), ids.end());
    std::string key;
    for (const std::string& id : ids)
        key += id + " ";
    return key;
}

std::string cacheSequenceKey(const RankReport& r)
{
    std::string key;
    for (const CompileEntry& c : r.compiles)
        for (const CacheEvent& e : c.cache)
            key += c.compileId + e.cache + ":" + e.state + " ";
    return key;
}

std::vector<std::string> findTraceLogs(const std::string& path)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw Error("no such file or directory", fileLocation(path));
    if (!fs::is_directory(path, ec)) {
        if (!looksLikeTraceLog(path))
            throw Error("not a TORCH_TRACE log (its first line is no trace record header)", fileLocation(path, 1));
        return {path};
    }
    std::vector<std::string> logs;
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && looksLikeTraceLog(it->path().string()))
            logs.push_back(it->path().string());
    std::sort(logs.begin(), logs.end());
    if (logs.empty())
        throw Error("no TORCH_TRACE log in this directory", fileLocation(path));
    return logs;
}

}  // namespace

std::string_view compileStatusName(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok: return "ok";
    case CompileStatus::Restarted: return "restarted";
    case CompileStatus::Empty: return "empty";
    case CompileStatus::Failed: return "failed";
    case CompileStatus::Missing: return "missing";
    }
    return "?";
}

const CompileMetrics* CompileEntry::lastMetrics() const
{
    for (auto it = metrics.rbegin(); it != metrics.rend(); ++it)
        if (it->recordName == "compilation_metrics")
            return &*it;
    return nullptr;
}

std::string CompileEntry::resumeOf() const
{
    // Dynamo names the code it generates after a graph break torch_dynamo_resume_in_<fn>_at_<line>.
    constexpr std::string_view kPrefix = "torch_dynamo_resume_in_";
    if (!function.starts_with(kPrefix))
        return {};
    const std::string rest = function.substr(kPrefix.size());
    const std::size_t at = rest.rfind("_at_");
    if (at == std::string::npos)
        return {};
    return "resumes after a graph break in " + rest.substr(0, at) + " at line " + rest.substr(at + 4);
}

std::size_t RankReport::countStatus(CompileStatus s) const
{
    return static_cast<std::size_t>(std::count_if(compiles.begin(), compiles.end(), [&](const CompileEntry& c) { return !c.unknown() && c.status == s; }));
}

std::size_t RankReport::restartsAndFailures() const
{
    std::size_t n = 0;
    for (const CompileEntry& c : compiles)
        n += c.restartReasons.size() + (c.failure && !c.failure->type.empty() ? 1 : 0);
    return n;
}

std::size_t RankReport::graphBreakCount() const
{
    std::size_t n = 0;
    for (const CompileEntry& c : compiles)
        n += c.graphBreaks.size();
    return n;
}

std::size_t RankReport::recompileCount() const
{
    return static_cast<std::size_t>(std::count_if(compiles.begin(), compiles.end(), [](const CompileEntry& c) { return !c.recompileReasons.empty(); }));
}

std::size_t RankReport::cacheCount(std::string_view state) const
{
    std::size_t n = 0;
    for (const CompileEntry& c : compiles)
        n += static_cast<std::size_t>(std::count_if(c.cache.begin(), c.cache.end(), [&](const CacheEvent& e) { return e.state == state; }));
    return n;
}

RankReport buildRankReport(const std::string& logPath)
{
    // The index: payloads stay in the file until a record the report shows needs its own (a 1 GB log is mostly
    // chromium events and graphs it does not read).
    const std::shared_ptr<const TraceLog> index = traceLogIndex(logPath);  // (discovery's, made once)
    const TraceLog& log = *index;
    RankReport out;
    out.path = logPath;
    out.rank = log.rank;
    out.records = log.records.size();
    out.problems = log.problemCount();
    for (const TraceRecord& r : log.records)
        if (!r.error.empty() && out.problemMessages.size() < kProblemMessages)
            out.problemMessages.push_back(r.error);
    for (const TraceDiagnostic& d : log.diagnostics)
        if (out.problemMessages.size() < kProblemMessages)
            out.problemMessages.push_back(d.message);
    ReportBuilder(log, out).run();
    return out;
}

CompileReport buildCompileReport(const std::string& path)
{
    CompileReport report;
    for (const std::string& log : findTraceLogs(path))
        report.ranks.push_back(buildRankReport(log));
    std::stable_sort(report.ranks.begin(), report.ranks.end(),
                     [](const RankReport& a, const RankReport& b) { return std::tie(a.rank, a.path) < std::tie(b.rank, b.path); });
    report.groups.byCompileIds = groupRanks(report.ranks, &compileIdsKey);
    report.groups.byCacheSequence = groupRanks(report.ranks, &cacheSequenceKey);
    return report;
}

}  // namespace fxray::io
