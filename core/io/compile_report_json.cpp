// compileReportToJson: the report as `fxray report --json` prints it (compile_report.h).
#include "io/compile_report.h"

namespace fxray::io {

namespace {

json::Value orNull(const std::optional<double>& v) { return v ? json::Value(*v) : json::Value(); }
json::Value orNull(const std::optional<std::int64_t>& v) { return v ? json::Value(*v) : json::Value(); }

json::Value stringsJson(const std::vector<std::string>& strings)
{
    json::Array a;
    for (const std::string& s : strings)
        a.emplace_back(s);
    return a;
}

json::Value metricsJson(const CompileMetrics& m)
{
    json::Object o{{"record", m.recordName}, {"line", m.line}, {"attempt", m.attempt}};
    o["entire_frame_compile_time_s"] = orNull(m.entireFrameS);
    o["backend_compile_time_s"] = orNull(m.backendS);
    o["inductor_compile_time_s"] = orNull(m.inductorS);
    o["code_gen_time_s"] = orNull(m.codeGenS);
    o["dynamo_time_before_restart_s"] = orNull(m.dynamoBeforeRestartS);
    o["guard_count"] = orNull(m.guardCount);
    o["shape_env_guard_count"] = orNull(m.shapeEnvGuardCount);
    o["graph_op_count"] = orNull(m.graphOpCount);
    o["graph_node_count"] = orNull(m.graphNodeCount);
    o["graph_input_count"] = orNull(m.graphInputCount);
    o["cache_size"] = orNull(m.cacheSize);
    o["accumulated_cache_size"] = orNull(m.accumulatedCacheSize);
    o["fields"] = m.fields;
    return o;
}

json::Value artifactJson(const CompileArtifact& a, bool includeCode)
{
    static constexpr std::string_view kKinds[] = {"graph", "output_code", "link", "other"};
    json::Object o{{"kind", kKinds[static_cast<int>(a.kind)]}, {"name", a.name}, {"line", a.line}, {"attempt", a.attempt}};
    if (a.kind == CompileArtifact::Kind::Graph)
        o["address"] = a.address;
    if (a.kind == CompileArtifact::Kind::Link)
        o["url"] = a.url;
    if (a.kind == CompileArtifact::Kind::OutputCode) {
        o["chars"] = a.text.size();
        if (includeCode)
            o["text"] = a.text;
    }
    return o;
}

json::Value compileJson(const CompileEntry& c, bool includeCode)
{
    json::Object o{{"compile_id", c.compileId}, {"frame_id", c.frameId}, {"frame_compile_id", c.frameCompileId},
                   {"compiled_autograd_id", c.compiledAutogradId}, {"attempts", c.attempts},
                   {"status", compileStatusName(c.status)}, {"function", c.function},
                   {"source", c.sourceLocation}, {"line", c.firstLine}};
    if (const std::string resume = c.resumeOf(); !resume.empty())
        o["resumes"] = resume;
    json::Array stack;
    for (const StackFrame& f : c.stack)
        stack.push_back(json::Object{{"file", f.file}, {"line", f.line}, {"function", f.function}, {"code", f.code}});
    o["stack"] = std::move(stack);
    json::Array breaks;
    for (const GraphBreak& b : c.graphBreaks)
        breaks.push_back(json::Object{{"line", b.line}, {"attempt", b.attempt}, {"location", b.location}, {"reason", b.reason}, {"user_stack", b.userStack}});
    o["graph_breaks"] = std::move(breaks);
    o["restart_reasons"] = stringsJson(c.restartReasons);
    o["recompile_reasons"] = stringsJson(c.recompileReasons);
    o["guards"] = stringsJson(c.guards);
    o["shape_guards"] = stringsJson(c.shapeGuards);
    o["cpp_guards"] = c.cppGuards;
    o["export_issues"] = stringsJson(c.exportIssues);
    if (c.failure)
        o["failure"] = json::Object{{"type", c.failure->type}, {"reason", c.failure->reason}, {"user_frame", c.failure->userFrame}, {"stack", c.failure->stack}};
    json::Array metrics, cache, artifacts;
    for (const CompileMetrics& m : c.metrics)
        metrics.push_back(metricsJson(m));
    for (const CacheEvent& e : c.cache)
        cache.push_back(json::Object{{"line", e.line}, {"cache", e.cache}, {"state", e.state}, {"key", e.key}, {"reason", e.reason}});
    for (const CompileArtifact& a : c.artifacts)
        artifacts.push_back(artifactJson(a, includeCode));
    o["metrics"] = std::move(metrics);
    o["cache"] = std::move(cache);
    o["artifacts"] = std::move(artifacts);
    return o;
}

json::Value rankJson(const RankReport& r, bool includeCode)
{
    std::size_t known = 0;  // the "(unknown)" bucket is no compile
    for (const CompileEntry& c : r.compiles)
        known += c.unknown() ? 0 : 1;
    json::Object summary{{"compiles", known}};
    for (CompileStatus s : {CompileStatus::Ok, CompileStatus::Restarted, CompileStatus::Empty, CompileStatus::Failed, CompileStatus::Missing})
        summary[compileStatusName(s)] = r.countStatus(s);
    summary["restarts_and_failures"] = r.restartsAndFailures();
    summary["graph_breaks"] = r.graphBreakCount();
    summary["recompiles"] = r.recompileCount();
    for (std::string_view state : {"hit", "miss", "bypass"})
        summary[std::string("cache_") + std::string(state)] = r.cacheCount(state);
    json::Array compiles;
    for (const CompileEntry& c : r.compiles)
        compiles.push_back(compileJson(c, includeCode));
    return json::Object{{"rank", r.rank}, {"path", r.path}, {"records", r.records}, {"problems", r.problems},
                        {"problem_messages", stringsJson(r.problemMessages)}, {"summary", std::move(summary)},
                        {"compiles", std::move(compiles)}};
}

json::Value groupsJson(const std::vector<std::vector<int>>& groups)
{
    json::Array out;
    for (const auto& g : groups) {
        json::Array ranks;
        for (int r : g)
            ranks.emplace_back(r);
        out.push_back(std::move(ranks));
    }
    return out;
}

}  // namespace

json::Value compileReportToJson(const CompileReport& report, bool includeCode)
{
    json::Array ranks;
    for (const RankReport& r : report.ranks)
        ranks.push_back(rankJson(r, includeCode));
    return json::Object{{"ranks", std::move(ranks)},
                        {"rank_groups", json::Object{{"by_compile_ids", groupsJson(report.groups.byCompileIds)},
                                                     {"by_cache_sequence", groupsJson(report.groups.byCacheSequence)}}}};
}

}  // namespace fxray::io
