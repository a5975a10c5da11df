#include "io/compile_report_parse.h"

#include "base/error.h"

#include <array>
#include <utility>

namespace fxray::io {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == '\n' || s.front() == ' ' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The text between `from` (excluded) and the first `to` after it (or the end); npos-safe.
std::string_view between(std::string_view s, std::string_view from, std::string_view to)
{
    const std::size_t start = s.find(from);
    if (start == std::string_view::npos)
        return {};
    std::string_view rest = s.substr(start + from.size());
    return trim(rest.substr(0, rest.find(to)));
}

std::optional<double> optDouble(const json::Value& object, std::string_view key)
{
    const json::Value& v = object[key];
    return v.isNumber() ? std::optional<double>(v.asDouble()) : std::nullopt;
}

// Newer logs drop the *_s durations for cumulative microsecond counters.
std::optional<double> optSeconds(const json::Value& object, std::string_view seconds, std::string_view micros)
{
    if (auto s = optDouble(object, seconds))
        return s;
    const json::Value& us = object[micros];
    return us.isNumber() ? std::optional<double>(us.asDouble() / 1e6) : std::nullopt;
}

std::optional<std::int64_t> optInt(const json::Value& object, std::string_view key)
{
    const json::Value& v = object[key];
    return v.isInt() ? std::optional<std::int64_t>(v.asInt()) : std::nullopt;
}

std::optional<json::Value> parseJson(std::string_view text)
{
    try {
        return json::parse(text);
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace

void internString(const json::Value& entry, std::unordered_map<std::int64_t, std::string>& table)
{
    if (entry.isArray() && entry.size() == 2 && entry[0].isString() && entry[1].isInt())
        table[entry[1].asInt()] = entry[0].asString();
}

std::vector<StackFrame> parseStack(const json::Value& frames, const std::unordered_map<std::int64_t, std::string>& strings)
{
    std::vector<StackFrame> out;
    if (!frames.isArray())
        return out;
    for (const json::Value& f : frames.asArray()) {
        StackFrame frame;
        const json::Value& file = f["filename"];
        if (file.isString()) {
            frame.file = file.asString();
        } else if (file.isInt()) {
            const auto it = strings.find(file.asInt());
            frame.file = it == strings.end() ? "(unknown)" : it->second;
        }
        frame.line = static_cast<int>(f.intOr("line", 0));
        frame.function = f.stringOr("name", "");
        frame.code = f.stringOr("loc", "");
        out.push_back(std::move(frame));
    }
    return out;
}

void dropConvertFrameSuffix(std::vector<StackFrame>& stack)
{
    static const std::array<std::array<std::string_view, 3>, 2> kSuffixes{{
        {"catch_errors", "_convert_frame", "_convert_frame_assert"},
        {"__call__", "__call__", "__call__"},
    }};
    for (const auto& suffix : kSuffixes) {
        if (stack.size() < suffix.size())
            continue;
        const std::size_t base = stack.size() - suffix.size();
        bool match = true;
        for (std::size_t i = 0; i < suffix.size() && match; ++i)
            match = stack[base + i].function == suffix[i] && stack[base + i].file.ends_with("torch/_dynamo/convert_frame.py");
        if (match)
            stack.resize(base);
    }
}

CompileMetrics parseMetrics(const TraceRecord& record)
{
    CompileMetrics m;
    m.line = record.line;
    m.attempt = record.attempt;
    m.recordName = record.kind;
    m.fields = record.header[record.kind];
    const json::Value& f = m.fields;
    m.entireFrameS = optSeconds(f, "entire_frame_compile_time_s", "dynamo_cumulative_compile_time_us");
    m.backendS = optSeconds(f, "backend_compile_time_s", "aot_autograd_cumulative_compile_time_us");
    m.inductorS = optSeconds(f, "inductor_compile_time_s", "inductor_cumulative_compile_time_us");
    m.codeGenS = optSeconds(f, "code_gen_time_s", "inductor_code_gen_cumulative_compile_time_us");
    m.dynamoBeforeRestartS = optDouble(f, "dynamo_time_before_restart_s");
    m.guardCount = optInt(f, "guard_count");
    m.shapeEnvGuardCount = optInt(f, "shape_env_guard_count");
    m.graphOpCount = optInt(f, "graph_op_count");
    m.graphNodeCount = optInt(f, "graph_node_count");
    m.graphInputCount = optInt(f, "graph_input_count");
    m.cacheSize = optInt(f, "cache_size");
    m.accumulatedCacheSize = optInt(f, "accumulated_cache_size");
    return m;
}

CompileStatus statusOf(const std::vector<CompileMetrics>& metrics)
{
    // tlparse's order: any failure wins, then any empty graph, then any restart.
    bool any = false, failed = false, empty = false, restarted = false;
    for (const CompileMetrics& m : metrics) {
        if (m.recordName != "compilation_metrics")
            continue;
        any = true;
        failed = failed || m.fields["fail_type"].isString();
        empty = empty || m.graphOpCount.value_or(0) == 0;
        restarted = restarted || m.fields["restart_reasons"].size() > 0;
    }
    if (!any)
        return CompileStatus::Missing;
    if (failed)
        return CompileStatus::Failed;
    if (empty)
        return CompileStatus::Empty;
    return restarted ? CompileStatus::Restarted : CompileStatus::Ok;
}

std::optional<CompileFailure> failureOf(const CompileMetrics& metrics)
{
    const json::Value& f = metrics.fields;
    if (!f["fail_type"].isString())
        return std::nullopt;
    CompileFailure out;
    out.type = f["fail_type"].asString();
    out.reason = f.stringOr("fail_reason", "");
    if (f["fail_user_frame_filename"].isString())
        out.userFrame = f["fail_user_frame_filename"].asString() + ":" + std::to_string(f.intOr("fail_user_frame_lineno", 0));
    if (f["exception_stack_trace"].isArray())
        for (const json::Value& part : f["exception_stack_trace"].asArray())
            if (part.isString())
                out.stack += part.asString();
    return out;
}

void appendGuards(std::string_view payload, std::vector<std::string>& guards)
{
    const auto list = parseJson(payload);
    if (!list || !list->isArray())
        return;
    for (const json::Value& g : list->asArray())
        if (g["code"].isString())
            guards.push_back(g["code"].asString());
}

GraphBreak parseGraphBreak(std::string_view payload, int line, int attempt)
{
    GraphBreak b;
    b.line = line;
    b.attempt = attempt;
    const std::string_view head = payload.substr(0, payload.find('\n'));
    constexpr std::string_view kAt = "Graph break in user code at ";
    if (head.starts_with(kAt)) {
        b.location = std::string(head.substr(kAt.size()));
        b.reason = std::string(between(payload, "Graph Break Reason: ", "\nUser code traceback:"));
        b.userStack = std::string(between(payload, "User code traceback:\n", "\nTraceback (most recent call last):"));
    } else if (payload.find("The graph break occurred in the following user code:") != std::string_view::npos) {
        b.reason = std::string(trim(payload.substr(0, payload.find("The graph break occurred in the following user code:"))));
        b.userStack = std::string(between(payload, "The graph break occurred in the following user code:\n", "\nTraceback (most recent call last):"));
    } else {
        b.reason = std::string(trim(head));
    }
    return b;
}

std::vector<std::string> parseRecompileReasons(std::string_view payload)
{
    std::vector<std::string> out;
    if (const auto v = parseJson(payload)) {
        if (v->isString())
            out.push_back(v->asString());
        else if (v->isArray())
            for (const json::Value& s : v->asArray())
                if (s.isString())
                    out.push_back(s.asString());
        return out;
    }
    const std::string_view text = trim(payload);
    if (!text.empty())
        out.emplace_back(text);
    return out;
}

std::optional<CacheEvent> parseCacheEvent(std::string_view artifactName, std::string_view payload)
{
    const std::size_t at = artifactName.rfind("_cache_");
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::string_view state = artifactName.substr(at + 7);
    if (state != "hit" && state != "miss" && state != "bypass")
        return std::nullopt;
    CacheEvent e;
    e.cache = std::string(artifactName.substr(0, at));
    e.state = std::string(state);
    if (const auto v = parseJson(payload)) {
        e.key = v->stringOr("key", "");
        e.reason = v->stringOr("cache_bypass_reason", v->stringOr("reason", ""));
    }
    return e;
}

std::optional<std::string> exportIssue(const TraceRecord& record)
{
    const json::Value& m = record.header[record.kind];
    if (record.kind == "guard_added" && m.stringOr("prefix", "") == "eval")
        return "guard evaluated: " + m.stringOr("expr", "?") + " (may have caused a constraint violation)";
    if (record.kind == "propagate_real_tensors_provenance")
        return "data-dependent expression " + m.stringOr("expr", "?") + " specialized to " + m.stringOr("result", "?")
            + " (asserts inserted)";
    if (record.kind == "missing_fake_kernel")
        return "torch.ops." + m.stringOr("op", "?") + " has no fake kernel";
    if (record.kind == "mismatched_fake_kernel")
        return "torch.ops." + m.stringOr("op", "?") + "'s fake kernel disagrees with the real one: " + m.stringOr("reason", "?");
    return std::nullopt;
}

}  // namespace fxray::io
