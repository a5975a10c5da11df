#include "io/compile_stages.h"

#include "base/error.h"
#include "io/trace_log.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <regex>
#include <set>

namespace fxray::io {
namespace {

namespace fs = std::filesystem;

struct CompileKey {
    int rank = -1, frame = -1, compile = -1, attempt = -1;  // attempt -1: any (each record's last)
};

const std::regex& compileSelector()
{
    static const std::regex re(R"(^(?:r(\d+):)?(\d+)/(\d+)(?:_(\d+))?$)");
    return re;
}

std::string selectorOf(int rank, int frame, int compile)
{
    return (rank >= 0 ? "r" + std::to_string(rank) + ":" : std::string()) + std::to_string(frame) + "/" + std::to_string(compile);
}

// (stage name, role) of a record that is a stage; name "" for the others.
std::pair<std::string, graph::StageRole> stageOf(const std::string& record, int ordinal, bool withRunnable)
{
    if (ordinal != 0)  // the compile's second post-grad / runnable graph is inductor's backward
        return {"", graph::StageRole::Downstream};
    if (record == "dynamo_output_graph")
        return {"dynamo", graph::StageRole::Dynamo};
    if (record == "aot_forward_graph" || record == "aot_inference_graph" || record == "aot_joint_graph")
        return {record.substr(0, record.size() - 6), graph::StageRole::Aot};
    if (record == "inductor_post_grad_graph")
        return {"post_grad", graph::StageRole::Downstream};
    if (record == "fx_graph_runnable" && withRunnable)
        return {"runnable", graph::StageRole::Downstream};
    return {"", graph::StageRole::Downstream};
}

int stageOrder(const std::string& name)
{
    static const std::map<std::string, int> kOrder = {{"dynamo", 0}, {"aot_forward", 1}, {"aot_inference", 1},
                                                      {"aot_joint", 2}, {"runnable", 3}, {"post_grad", 4}};
    return kOrder.at(name);
}

}  // namespace

bool isCompileAddress(const std::string& address)
{
    const std::size_t hash = address.rfind('#');
    return hash != std::string::npos && std::regex_match(address.substr(hash + 1), compileSelector());
}

std::string compileAddressOf(const GraphEntry& e)
{
    if (!e.trace || e.trace->frameId < 0)
        return "";
    std::string s = e.path + "#" + selectorOf(e.trace->rank, e.trace->frameId, e.trace->frameCompileId);
    if (e.trace->attempt != 0)
        s += "_" + std::to_string(e.trace->attempt);
    return s;
}

CompileStages compileStages(const std::string& address, bool withRunnable)
{
    const std::size_t hash = address.rfind('#');
    std::smatch m;
    const std::string selector = hash == std::string::npos ? "" : address.substr(hash + 1);
    if (hash == std::string::npos || !std::regex_match(selector, m, compileSelector()))
        throw Error("not a compile address: '" + address + "' (expected <trace log>#<frame>/<compile>, e.g. trace.log#0/0)");
    const std::string logPath = fs::path(address.substr(0, hash)).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(logPath, ec))
        throw Error("no such file", fileLocation(logPath));
    auto number = [&](std::size_t group) { return m[group].matched ? std::stoi(m[group].str()) : -1; };
    CompileKey key{number(1), number(2), number(3), number(4)};
    if (key.rank < 0)
        key.rank = traceLogRank(logPath);
    const Discovery d = discover(logPath);
    // Each stage's record of the wanted attempt, or the last attempt that logged it.
    std::map<std::string, CompileStage> byName;
    std::set<std::string> seenCompiles;
    for (const GraphEntry& e : d.graphs) {
        if (!e.trace)
            continue;
        const TraceOrigin& o = *e.trace;
        if (o.frameId >= 0)
            seenCompiles.insert(o.compileId());
        if (o.rank != key.rank || o.frameId != key.frame || o.frameCompileId != key.compile)
            continue;
        if (key.attempt >= 0 && o.attempt != key.attempt)
            continue;
        auto [name, role] = stageOf(o.record, o.ordinal, withRunnable);
        if (name.empty())
            continue;
        auto it = byName.find(name);
        if (it == byName.end() || it->second.entry.trace->attempt <= o.attempt)
            byName[name] = CompileStage{name, role, e};
    }
    CompileStages cs;
    cs.address = address;
    cs.logPath = logPath;
    cs.frameId = key.frame;
    cs.frameCompileId = key.compile;
    cs.compileId = "[" + selectorOf(key.rank, key.frame, key.compile) + (key.attempt > 0 ? "_" + std::to_string(key.attempt) : "") + "]";
    if (byName.empty()) {
        std::string known;
        int listed = 0;
        for (const std::string& c : seenCompiles)
            if (listed++ < 8)
                known += (known.empty() ? "" : ", ") + c;
        throw Error("compile " + cs.compileId + " logged no graph in this log" +
                        (known.empty() ? std::string(" (it has no compiles)") : " (compiles: " + known + (listed > 8 ? ", ..." : "") + ")"),
                    fileLocation(logPath));
    }
    // One AOT graph: the forward (or inference) graph; the joint only when it is all there is.
    if (byName.count("aot_joint") && (byName.count("aot_forward") || byName.count("aot_inference")))
        byName.erase("aot_joint");
    if (byName.count("aot_forward") && byName.count("aot_inference"))
        byName.erase("aot_inference");
    for (auto& [name, stage] : byName)
        cs.stages.push_back(stage);
    std::sort(cs.stages.begin(), cs.stages.end(),
              [](const CompileStage& a, const CompileStage& b) { return stageOrder(a.name) < stageOrder(b.name); });
    for (std::size_t k = 0; k < cs.stages.size(); ++k)
        if (cs.stages[k].role == graph::StageRole::Aot)
            cs.aotStage = static_cast<int>(k);
    return cs;
}

std::optional<CompileFailure> torchFailureOf(const CompileStages& cs)
{
    const RankReport report = buildRankReport(cs.logPath);
    for (const CompileEntry& c : report.compiles)
        if (c.compiledAutogradId < 0 && c.frameId == cs.frameId && c.frameCompileId == cs.frameCompileId)
            return c.failure;
    return std::nullopt;
}

namespace {

std::string postGradText(const CompileStages& cs, const TraceLog& log)
{
    for (const CompileStage& st : cs.stages)
        if (st.name == "post_grad" && st.entry.trace)
            for (const TraceRecord& r : log.records)
                if (r.line == st.entry.trace->line)
                    return r.payload;
    return "";
}

}  // namespace

std::optional<OutputCode> outputCodeOf(const CompileStages& cs)
{
    const CompileStage* any = cs.stages.empty() ? nullptr : &cs.stages.front();
    if (!any || !any->entry.trace)
        return std::nullopt;
    const TraceOrigin& o = *any->entry.trace;
    const TraceLog log = readTraceLog(cs.logPath);
    // The stages' attempt: every stage record of one compile comes from its last attempt (compileStages).
    int attempt = -1;
    for (const CompileStage& st : cs.stages)
        attempt = std::max(attempt, st.entry.trace ? st.entry.trace->attempt : -1);
    const TraceRecord* found = nullptr;
    for (const TraceRecord& r : log.records)
        if (r.kind == "inductor_output_code" && r.frameId == o.frameId && r.frameCompileId == o.frameCompileId &&
            r.attempt == attempt && r.payloadOk && !found)
            found = &r;  // the first: the forward's (a training compile logs the backward's after it)
    if (!found)
        return std::nullopt;
    OutputCode oc;
    oc.text = found->payload;
    oc.origin = cs.logPath + ":" + std::to_string(found->line);
    oc.firstLine = found->payloadLine;
    oc.postGradText = postGradText(cs, log);
    return oc;
}

OutputCode outputCodeFile(const CompileStages& cs, const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw Error("cannot read the output code", fileLocation(path));
    std::ostringstream text;
    text << f.rdbuf();
    OutputCode oc;
    oc.text = text.str();
    oc.origin = path;
    oc.postGradText = postGradText(cs, readTraceLog(cs.logPath));
    return oc;
}

std::vector<std::string> compileAddresses(const std::string& path, std::vector<std::string>& errors)
{
    const Discovery d = discover(path);
    errors.insert(errors.end(), d.errors.begin(), d.errors.end());
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const GraphEntry& e : d.graphs) {
        if (!e.trace || e.trace->frameId < 0 || stageOf(e.trace->record, e.trace->ordinal, false).first.empty())
            continue;
        const std::string a = e.path + "#" + selectorOf(e.trace->rank, e.trace->frameId, e.trace->frameCompileId);
        if (seen.insert(a).second)
            out.push_back(a);
    }
    return out;
}

}  // namespace fxray::io
