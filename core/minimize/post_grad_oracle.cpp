#include "minimize/post_grad_oracle.h"

#include "base/error.h"
#include "graph/printer.h"
#include "io/text_file.h"
#include "minimize/minimizer.h"
#include "minimize/repro_writer.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>

namespace fxray::minimize {
namespace {

namespace fs = std::filesystem;

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::vector<int> identity(std::size_t n)
{
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
}

// The signature of a divergence from the child's node finding (compile_candidates.py: localize_post_grad).
Signature signatureOf(const json::Value& found, const replay::ReplayReport& replay, const replay::OutputComparison& c)
{
    Signature s;
    s.kind = "diverge:post_grad";
    const std::string output = "output " + std::to_string(c.output) + " of the post-grad graph vs fxray's replay of the graph: max abs " +
                               number(c.maxAbs) + (c.note.empty() ? "" : " (" + c.note + ")");
    if (!(found["found"].isBool() && found["found"].asBool())) {
        s.messageClass = "no node named";
        s.detail = output + "; no divergent node named: " + found.stringOr("why", "?");
        return s;
    }
    s.node = found.stringOr("node", "");
    s.op = found.stringOr("op", "");
    for (const replay::NodeResult& n : replay.nodes)
        if (n.name == s.node)
            s.op = n.target;  // fxray's spelling of the op, as every other signature has it
    const double maxAbs = found["max_abs"].isNumber() ? found["max_abs"].asDouble() : INFINITY;
    const double refMax = found["ref_max"].isNumber() ? found["ref_max"].asDouble() : 0;
    const std::int64_t bad = found.intOr("mismatched", 0);
    s.messageClass = (bad > 0 && maxAbs == 0 ? "nan" : errorSizeClass(maxAbs, refMax)) + " error";
    const std::string shown = found.stringOr("shown_at", s.node);
    s.detail = output + "; first divergent node " + s.node +
               (shown == s.node ? "" : " (rewritten by the passes; the divergence shows at " + shown + ")") + ": " +
               std::to_string(bad) + " of " + std::to_string(found.intOr("elements", 0)) + " element(s) differ, max abs " +
               number(maxAbs) + " (values up to " + number(refMax) + ")";
    return s;
}

}  // namespace

PostGradOracle::PostGradOracle(InductorOracleOptions options)
    : m_options(std::move(options)), m_child(m_options.python, m_options.script, "diverge:post_grad")
{
}

std::optional<json::Value> PostGradOracle::passesInChild(const io::LoadedGraph& candidate, const replay::ReplayOptions& options,
                                                         const replay::ReplayReport& replayed, const Files& f,
                                                         replay::CancelToken* cancel)
{
    try {
        writeCandidateModule(candidate, options, replayed, "diverge:post_grad", m_options.config, f.module);
    } catch (const Error& e) {
        m_problem = std::string("the candidate cannot be written as a module: ") + e.what();
        return std::nullopt;
    }
    json::Value req = json::Object{};
    req["mode"] = "post_grad";
    req["module"] = f.module;
    req["inputs"] = f.in;
    req["post_grad"] = f.postGrad;
    req["device"] = options.device;
    req["inference"] = candidate.entry.kind == io::GraphKind::Inference;
    std::optional<json::Value> answer =
        m_child.request(req, m_options.timeout, cancel, "inductor's post-grad passes failed on the candidate: ");
    if (!answer)
        m_problem = m_child.problem();
    return answer;
}

std::optional<replay::ReplayReport> PostGradOracle::replayPostGrad(const io::LoadedGraph& candidate,
                                                                   const replay::ReplayOptions& options,
                                                                   const replay::ReplayReport& replayed, const Files& f,
                                                                   replay::ReplayRunner& runner, replay::CancelToken* cancel)
{
    io::LoadedGraph post;
    try {
        post = io::loadAddress(f.postGrad);
    } catch (const Error& e) {
        m_problem = std::string("fxray cannot load the post-grad graph the passes wrote: ") + e.what();
        return std::nullopt;
    }
    // The passes keep the graph's placeholders and outputs (inductor replaces nodes, never its signature).
    const std::size_t inputs = post.graph.placeholders().size(), outputs = static_cast<std::size_t>(graphOutputCount(post.graph));
    if (inputs != candidate.graph.placeholders().size() || outputs != static_cast<std::size_t>(graphOutputCount(candidate.graph))) {
        m_problem = "the post-grad graph has " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) +
                    " outputs where the candidate has " + std::to_string(candidate.graph.placeholders().size()) + " and " +
                    std::to_string(graphOutputCount(candidate.graph));
        return std::nullopt;
    }
    replay::ReplayOptions b = options;
    b.rng = replay::ReplayOptions::Rng::Aligned;
    b.compareDevice.clear();
    b.expectedOutputsPath.clear();
    b.symbolValues.insert(replayed.symbols.begin(), replayed.symbols.end());
    b.stage = replay::StageIo{};
    b.stage->inputsFile = f.in;
    b.stage->inputMap = identity(inputs);
    b.stage->outputMap = identity(outputs);
    b.stage->referenceOutputs = f.ref;
    replay::ReplayReport r = runner.run(post, b, cancel);
    if (!r.fatal.empty()) {
        m_problem = "replaying the post-grad graph failed: " + r.fatal;
        return std::nullopt;
    }
    return r;
}

std::pair<std::vector<Signature>, replay::ReplayReport> PostGradOracle::judge(const io::LoadedGraph& candidate,
                                                                              const replay::ReplayOptions& options,
                                                                              replay::ReplayRunner& runner,
                                                                              replay::CancelToken* cancel)
{
    m_problem.clear();
    const fs::path dir = m_options.scratchDir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    const Files f{(dir / "in.pt").string(), (dir / "ref.pt").string(), (dir / "candidate.py").string(),
                  (dir / "post_grad.py").string()};
    for (const std::string& p : {f.ref, f.postGrad})
        fs::remove(p, ec);

    // 1. fxray's checked replay of the candidate: the inputs and outputs the post-grad graph is held against.
    replay::ReplayOptions a = options;
    // Random ops draw alike in both graphs whatever the passes did to them (joint-graph passes turn rand_like into
    // inductor's random prims, post-grad sorting may move them), as in stage compare.
    a.rng = replay::ReplayOptions::Rng::Aligned;
    a.compareDevice.clear();
    a.expectedOutputsPath.clear();
    a.stage = replay::StageIo{};
    a.stage->outputMap = identity(static_cast<std::size_t>(graphOutputCount(candidate.graph)));
    a.stage->saveInputs = f.in;
    a.stage->saveOutputs = f.ref;
    replay::ReplayReport replayed = runner.run(candidate, a, cancel);
    if (!replayed.fatal.empty() || !fs::exists(f.ref, ec)) {
        m_problem = replayed.fatal.empty() ? "fxray's replay of the candidate did not run cleanly (" + replayed.verdict() + ")"
                                           : replayed.fatal;
        return {{}, replayed};
    }
    // 2. Its post-grad graph, from inductor's passes in the child.
    const std::optional<json::Value> answer = passesInChild(candidate, options, replayed, f, cancel);
    if (!answer)
        return {{}, replayed};
    // 3. The post-grad graph replayed natively on the same inputs, compared with the candidate.
    const std::optional<replay::ReplayReport> post = replayPostGrad(candidate, options, replayed, f, runner, cancel);
    if (!post)
        return {{}, replayed};
    replayed.comparisons = post->comparisons;
    replayed.reference = "fxray's checked replay (outputs of inductor's post-grad graph, replayed, compared with it)";
    for (const replay::OutputComparison& c : post->comparisons)
        if (!c.ok)
            return {{signatureOf((*answer)["node"], replayed, c)}, replayed};
    return {{}, replayed};
}

}  // namespace fxray::minimize
