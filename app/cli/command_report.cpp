// `fxray report <trace log or dir> [--json] [--verbose] [--code]`: the compile report of TORCH_TRACE logs (what
// tlparse's index shows): per rank, every compile with its status, graph breaks, restarts, recompiles, failures,
// compile times, cache hits/misses and the addresses of its graphs. Exit 1 when a compile failed.
#include "arg_parser.h"
#include "commands.h"
#include "io/compile_report.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace fxray::cli {
namespace {

struct TextOptions {
    bool verbose = false;  // whole reasons, stacks and guard lists
    bool code = false;     // inductor output code
};

std::string firstLine(const std::string& s)
{
    const std::size_t nl = s.find('\n');
    return nl == std::string::npos ? s : s.substr(0, nl) + " …";
}

// The last non-empty line of a traceback or user stack: where it happened.
std::string lastLines(const std::string& s, int count)
{
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
        if (l.find_first_not_of(' ') != std::string::npos)
            lines.push_back(l);
    std::string out;
    for (std::size_t i = lines.size() > std::size_t(count) ? lines.size() - count : 0; i < lines.size(); ++i)
        out += lines[i] + "\n";
    return out;
}

// A graph break's reason opens with a generic line ("Encountered graph break when attempting to trace CALL");
// the "Explanation:" line says what dynamo could not do.
std::string breakSummary(const std::string& reason)
{
    const std::size_t at = reason.find("Explanation: ");
    if (at == std::string::npos)
        return firstLine(reason);
    const std::size_t end = reason.find('\n', at);
    return reason.substr(at + 13, end == std::string::npos ? std::string::npos : end - at - 13);
}

// The innermost frame of a Python traceback and the exception line after it (dynamo's advice lines dropped).
std::string tracebackTail(const std::string& stack)
{
    const std::size_t frame = stack.rfind("\n  File ");
    if (frame == std::string::npos)
        return lastLines(stack, 3);
    std::istringstream in(stack.substr(frame + 1));
    std::string out, l;
    for (int taken = 0; std::getline(in, l) && taken < 4; ++taken) {
        if (taken >= 2 && (l.empty() || l[0] == ' ' || l.starts_with("Set TORCHDYNAMO_VERBOSE")))
            break;
        out += l + "\n";
    }
    return out;
}

void printIndented(const std::string& text, const char* indent)
{
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        std::cout << indent << l << "\n";
}

std::string seconds(const std::optional<double>& s)
{
    if (!s)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", *s);
    return buf;
}

void printMetrics(const io::CompileEntry& c)
{
    const io::CompileMetrics* m = c.lastMetrics();
    if (!m)
        return;
    std::cout << "      time: frame " << seconds(m->entireFrameS) << ", backend " << seconds(m->backendS) << ", inductor "
              << seconds(m->inductorS) << ", code gen " << seconds(m->codeGenS);
    if (m->dynamoBeforeRestartS && *m->dynamoBeforeRestartS > 0)
        std::cout << ", before restart " << seconds(m->dynamoBeforeRestartS);
    std::cout << "\n      graph: " << m->graphOpCount.value_or(0) << " ops, " << m->graphNodeCount.value_or(0) << " nodes, "
              << m->graphInputCount.value_or(0) << " inputs; guards " << m->guardCount.value_or(0) << " (shape env "
              << m->shapeEnvGuardCount.value_or(0) << ")";
    if (c.metrics.size() > 1)
        std::cout << "; " << c.metrics.size() << " metrics records";
    std::cout << "\n";
}

void printProblems(const io::CompileEntry& c, const TextOptions& o)
{
    for (const io::GraphBreak& b : c.graphBreaks) {
        std::cout << "      graph break" << (b.location.empty() ? "" : " at " + b.location) << ": "
                  << (o.verbose ? b.reason : breakSummary(b.reason)) << "\n";
        printIndented(o.verbose ? b.userStack : lastLines(b.userStack, 2), "          ");
    }
    for (const std::string& r : c.restartReasons)
        std::cout << "      restart: " << (o.verbose ? r : firstLine(r)) << "\n";
    for (const std::string& r : c.recompileReasons)
        std::cout << "      recompiled because: " << r << "\n";
    for (const std::string& issue : c.exportIssues)
        std::cout << "      export: " << issue << "\n";
    if (c.failure) {
        std::cout << "      FAILED: " << c.failure->type << ": " << (o.verbose ? c.failure->reason : firstLine(c.failure->reason));
        std::cout << (c.failure->userFrame.empty() ? "" : " (at " + c.failure->userFrame + ")") << "\n";
        printIndented(o.verbose ? c.failure->stack : tracebackTail(c.failure->stack), "          ");
    }
}

void printArtifacts(const io::CompileEntry& c, const TextOptions& o)
{
    for (const io::CacheEvent& e : c.cache)
        std::cout << "      cache: " << e.cache << " " << e.state << (e.reason.empty() ? "" : " (" + firstLine(e.reason) + ")") << "\n";
    if (o.verbose)
        for (const std::string& g : c.guards)
            std::cout << "      guard: " << g << "\n";
    for (const std::string& g : c.shapeGuards)
        std::cout << "      shape guard: " << g << "\n";
    for (const io::CompileArtifact& a : c.artifacts) {
        using K = io::CompileArtifact::Kind;
        if (a.kind == K::Graph)
            std::cout << "      graph " << a.name << ": " << a.address << "\n";
        else if (a.kind == K::OutputCode)
            std::cout << "      output code " << a.name << " (" << a.text.size() << " chars, line " << a.line << ")\n";
        else if (a.kind == K::Link)
            std::cout << "      link " << a.name << ": " << a.url << "\n";
        else if (o.verbose)
            std::cout << "      artifact " << a.name << " (line " << a.line << ")\n";
        if (a.kind == K::OutputCode && o.code)
            printIndented(a.text, "        | ");
    }
}

void printCompile(const io::CompileEntry& c, const TextOptions& o)
{
    std::cout << "  " << c.compileId << " " << (c.function.empty() ? "?" : c.function);
    if (!c.sourceLocation.empty())
        std::cout << "  " << c.sourceLocation;
    if (!c.unknown())
        std::cout << "  " << io::compileStatusName(c.status);
    if (c.attempts > 1)
        std::cout << ", " << c.attempts << " attempts";
    std::cout << "\n";
    if (const std::string resume = c.resumeOf(); !resume.empty())
        std::cout << "      " << resume << "\n";
    // The stack ends in the compiled frame itself; its caller is where the user looks.
    if (c.stack.size() >= 2) {
        const io::StackFrame& f = c.stack[c.stack.size() - 2];
        std::cout << "      called from " << f.file << ":" << f.line << " in " << f.function << "\n";
        if (o.verbose)
            for (auto it = c.stack.rbegin() + 2; it != c.stack.rend(); ++it)
                std::cout << "                  " << it->file << ":" << it->line << " in " << it->function << "\n";
    }
    printProblems(c, o);
    printMetrics(c);
    printArtifacts(c, o);
}

void printRank(const io::RankReport& r, const TextOptions& o)
{
    using S = io::CompileStatus;
    std::size_t compiles = 0;  // the "(unknown)" bucket of frameless records is no compile
    for (const io::CompileEntry& c : r.compiles)
        compiles += c.unknown() ? 0 : 1;
    std::cout << r.path << (r.rank >= 0 ? "  (rank " + std::to_string(r.rank) + ")" : "") << "\n"
              << "  " << compiles << " compile(s): "
              << r.countStatus(S::Ok) << " ok, " << r.countStatus(S::Restarted) << " restarted, " << r.countStatus(S::Empty)
              << " empty, " << r.countStatus(S::Failed) << " failed, " << r.countStatus(S::Missing) << " without metrics; "
              << r.graphBreakCount() << " graph break(s), " << r.recompileCount() << " recompile(s), "
              << r.restartsAndFailures() << " restart(s) and/or failure(s); cache " << r.cacheCount("hit") << " hit, "
              << r.cacheCount("miss") << " miss, " << r.cacheCount("bypass") << " bypass\n";
    for (const std::string& p : r.problemMessages)
        std::cout << "  problem: " << p << "\n";
    for (const io::CompileEntry& c : r.compiles)
        printCompile(c, o);
}

void printGroups(const char* what, const std::vector<std::vector<int>>& groups)
{
    if (groups.size() <= 1)
        return;
    std::cout << "ranks diverge in " << what << ":";
    for (const auto& g : groups) {
        std::cout << "  [";
        for (std::size_t i = 0; i < g.size(); ++i)
            std::cout << (i ? ", " : "") << g[i];
        std::cout << "]";
    }
    std::cout << "\n";
}

}  // namespace

int runReport(const Args& args)
{
    const ArgParser p(args, {}, {"--json", "--verbose", "-v", "--code"});
    p.expectPositionals(1, "fxray report <trace log or directory> [--json] [--verbose] [--code]");
    const io::CompileReport report = io::buildCompileReport(p.positionals()[0]);
    bool failed = false;
    for (const io::RankReport& r : report.ranks)
        failed = failed || r.countStatus(io::CompileStatus::Failed) > 0;
    if (p.flag("--json")) {
        std::cout << io::compileReportToJson(report, p.flag("--code")).dump(json::Style::Pretty) << "\n";
        return failed ? 1 : 0;
    }
    const TextOptions o{p.flag("--verbose") || p.flag("-v"), p.flag("--code")};
    for (std::size_t i = 0; i < report.ranks.size(); ++i) {
        if (i)
            std::cout << "\n";
        printRank(report.ranks[i], o);
    }
    if (report.ranks.size() > 1) {
        std::cout << "\n";
        printGroups("compile ids", report.groups.byCompileIds);
        printGroups("cache hit/miss sequence", report.groups.byCacheSequence);
    }
    return failed ? 1 : 0;
}

}  // namespace fxray::cli
