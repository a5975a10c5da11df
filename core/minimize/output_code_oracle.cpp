#include "minimize/output_code_oracle.h"

#include "base/error.h"
#include "base/json.h"
#include "graph/printer.h"
#include "io/text_file.h"
#include "io/trace_log.h"
#include "minimize/minimizer.h"
#include "minimize/repro_writer.h"
#include "replay/api/output_code_stage.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <regex>
#include <sstream>

namespace fxray::minimize {
namespace {

namespace fs = std::filesystem;

// Literals a config value may be written as: numbers, True/False/None, one-line quoted strings. Anything else (a
// call, a name) is left out: the value reaches Python only through ast.literal_eval, never as code.
bool isPlainLiteral(const std::string& v)
{
    static const std::regex literal(R"(^(-?[0-9][0-9_]*(\.[0-9]*)?([eE][-+]?[0-9]+)?|True|False|None|'[^'\\\n]*'|"[^"\\\n]*")$)");
    return std::regex_match(v, literal);
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// The signature of a divergence from the child's kernel finding (run_output_code.py: localize).
Signature signatureOf(const json::Value& kernel, const replay::ReplayReport& replay, const replay::OutputComparison& c)
{
    Signature s;
    s.kind = "diverge:output_code";
    const std::string output = "output " + std::to_string(c.output) + " of the compiled code vs fxray's replay: max abs " +
                               number(c.maxAbs) + (c.note.empty() ? "" : " (" + c.note + ")");
    if (!(kernel["found"].isBool() && kernel["found"].asBool())) {
        s.messageClass = "no kernel named";
        s.detail = output + "; no divergent kernel named: " + kernel.stringOr("why", "?");
        return s;
    }
    s.node = kernel.stringOr("node", "");
    for (const replay::NodeResult& n : replay.nodes)
        if (n.name == s.node)
            s.op = n.target;
    const double maxAbs = kernel["max_abs"].isNumber() ? kernel["max_abs"].asDouble() : 0;
    const double refMax = kernel["ref_max"].isNumber() ? kernel["ref_max"].asDouble() : 0;
    const std::int64_t bad = kernel.intOr("mismatched", 0);
    const std::string size = bad > 0 && maxAbs == 0 ? "nan" : errorSizeClass(maxAbs, refMax);
    s.messageClass = kernel.stringOr("kind", "?") + " kernel, " + size + " error";
    s.detail = output + "; first divergent kernel " + kernel.stringOr("kernel", "?") + " (" + kernel.stringOr("kind", "?") +
               ") writes " + kernel.stringOr("buffer", "?") + " = node " + s.node + ": " + std::to_string(bad) + " of " +
               std::to_string(kernel.intOr("elements", 0)) + " element(s) differ, max abs " + number(maxAbs) +
               " (values up to " + number(refMax) + ")";
    return s;
}

}  // namespace

int graphOutputCount(const graph::Graph& g)
{
    const int out = g.outputNode();
    if (out < 0 || g.nodes[static_cast<std::size_t>(out)].args.empty())
        return 0;
    const graph::Arg& a = g.nodes[static_cast<std::size_t>(out)].args[0];
    return a.items.empty() ? 1 : static_cast<int>(a.items.size());
}

io::LoadedGraph writeCandidateModule(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                     const replay::ReplayReport& replayed, const std::string& kind,
                                     const InductorConfig& config, const std::string& path)
{
    io::LoadedGraph concrete = candidate;
    auto symbols = options.symbolValues;
    symbols.insert(replayed.symbols.begin(), replayed.symbols.end());
    concretizeMetadata(concrete, symbols);
    ReproSpec spec;
    spec.signature.kind = kind;
    spec.device = options.device;
    spec.inputs = options;
    spec.inductorConfig = config;
    io::writeTextFile(path, writeReproScript(concrete, spec));
    return concrete;
}

OutputCodeOracle::OutputCodeOracle(OutputCodeOracleOptions options)
    : m_options(std::move(options)), m_child(m_options.python, m_options.script, "diverge:output_code")
{
}

std::optional<json::Value> OutputCodeOracle::compileInChild(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                                            const replay::ReplayReport& replayed, const CandidateFiles& f,
                                                            replay::CancelToken* cancel)
{
    // The candidate as its repro.py (the module the child compiles) and as readable text (the kernel search runs it).
    try {
        const io::LoadedGraph concrete = writeCandidateModule(candidate, options, replayed, "diverge:output_code",
                                                              m_options.config, f.module);
        io::writeTextFile(f.readable, graph::printReadable(concrete.graph));
    } catch (const Error& e) {
        m_problem = std::string("the candidate cannot be written as a module: ") + e.what();
        return std::nullopt;
    }
    json::Value req = json::Object{};
    req["module"] = f.module;
    req["graph"] = f.readable;
    req["inputs"] = f.in;
    req["out"] = f.out;
    req["device"] = options.device;
    json::Value config = json::Object{};
    for (const auto& [k, v] : m_options.config)
        config[k] = v;
    req["config"] = std::move(config);
    std::optional<json::Value> answer =
        m_child.request(req, m_options.timeout, cancel, "inductor could not compile or run the candidate: ");
    if (!answer)
        m_problem = m_child.problem();
    return answer;
}

std::pair<std::vector<Signature>, replay::ReplayReport> OutputCodeOracle::judge(const io::LoadedGraph& candidate,
                                                                                const replay::ReplayOptions& options,
                                                                                replay::ReplayRunner& runner,
                                                                                replay::CancelToken* cancel)
{
    m_problem.clear();
    const fs::path dir = m_options.scratchDir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    const CandidateFiles f{(dir / "in.pt").string(), (dir / "ref.pt").string(), (dir / "out.pt").string(),
                           (dir / "candidate.py").string(), (dir / "candidate.readable.py").string()};
    fs::remove(f.ref, ec);
    fs::remove(f.out, ec);

    // 1. fxray's checked replay: its inputs and outputs for the compiled code.
    replay::StageIo io;
    io.outputMap.resize(static_cast<std::size_t>(graphOutputCount(candidate.graph)));
    std::iota(io.outputMap.begin(), io.outputMap.end(), 0);
    replay::ReplayOptions a = options;
    a.compareDevice.clear();
    a.expectedOutputsPath.clear();
    a.stage = io;
    a.stage->saveInputs = f.in;
    a.stage->saveOutputs = f.ref;
    replay::ReplayReport replayed = runner.run(candidate, a, cancel);
    if (!replayed.fatal.empty() || !fs::exists(f.ref, ec)) {
        m_problem = replayed.fatal.empty() ? "fxray's replay of the candidate did not run cleanly (" + replayed.verdict() + ")"
                                           : replayed.fatal;
        return {{}, replayed};
    }
    // 2. The candidate compiled by inductor in the child, run on the same inputs.
    const std::optional<json::Value> answer = compileInChild(candidate, options, replayed, f, cancel);
    if (!answer)
        return {{}, replayed};
    // 3. Its outputs compared with the replay's, with fxray's tolerances.
    replay::ReplayOptions b = options;
    b.compareDevice.clear();
    b.expectedOutputsPath.clear();
    b.stage = io;
    b.stage->outputsFrom = f.out;
    b.stage->referenceOutputs = f.ref;
    const replay::ReplayReport compared = runner.run(candidate, b, cancel);
    if (!compared.fatal.empty()) {
        m_problem = "comparing the compiled code's outputs failed: " + compared.fatal;
        return {{}, replayed};
    }
    replayed.comparisons = compared.comparisons;
    replayed.reference = "fxray's checked replay (outputs of inductor's compiled code compared with it)";
    for (const replay::OutputComparison& c : compared.comparisons)
        if (!c.ok)
            return {{signatureOf((*answer)["kernel"], replayed, c)}, replayed};
    return {{}, replayed};
}

InductorConfig inductorConfigOfCompile(const io::GraphEntry& entry)
{
    InductorConfig out;
    if (entry.format != io::SourceFormat::TraceLog || !entry.trace)
        return out;
    const io::TraceLog log = io::readTraceLog(entry.path);
    const io::TraceOrigin& o = *entry.trace;
    for (const io::TraceRecord& r : log.records) {
        if (r.name() != "fx_graph_runnable" || r.frameId != o.frameId || r.frameCompileId != o.frameCompileId ||
            r.attempt != o.attempt || !r.payloadOk)
            continue;
        static const std::string prefix = "torch._inductor.config.";
        std::istringstream in(r.payload);
        for (std::string line; std::getline(in, line);) {
            if (line.rfind(prefix, 0) != 0)
                continue;
            const std::size_t eq = line.find(" = ");
            if (eq == std::string::npos)
                continue;
            const std::string key = line.substr(prefix.size(), eq - prefix.size()), value = line.substr(eq + 3);
            if (isPlainLiteral(value))
                out.emplace_back(key, value);
        }
        break;  // the compile's first: a training compile's backward runnable repeats the same config
    }
    return out;
}

std::pair<std::string, std::string> parseInductorConfigEntry(const std::string& text)
{
    const std::size_t eq = text.find('=');
    static const std::regex key(R"(^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$)");
    if (eq == std::string::npos || !std::regex_match(text.substr(0, eq), key))
        throw Error("--inductor-config wants KEY=VALUE (e.g. cpp.inject_relu_bug_TESTING_ONLY=accuracy), got '" + text + "'");
    std::string value = text.substr(eq + 1);
    if (!isPlainLiteral(value))
        value = graph::pythonStringRepr(value);  // a bare word is a string: accuracy -> 'accuracy'
    return {text.substr(0, eq), value};
}

}  // namespace fxray::minimize
