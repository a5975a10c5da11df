#include "minimize/minimizer.h"

#include "base/error.h"
#include "base/subprocess.h"
#include "graph/algorithms.h"
#include "graph/collective_check.h"
#include "graph/sym_expr.h"
#include "minimize/candidate_oracle.h"

#include <algorithm>
#include <set>

namespace fxray::minimize {
namespace {

using Clock = std::chrono::steady_clock;

int computeNodes(const graph::Graph& g)
{
    int n = 0;
    for (const auto& node : g.nodes)
        n += node.kind == graph::NodeKind::CallFunction || node.kind == graph::NodeKind::CallMethod ||
             node.kind == graph::NodeKind::GetAttr;
    return n;
}

bool isCommand(const std::vector<FailureSpec>& specs)
{
    for (const auto& s : specs)
        if (s.kind == FailureSpec::Kind::Command)
            return true;
    return false;
}

class Search {
public:
    Search(const io::LoadedGraph& original, const MinimizeOptions& options, replay::ReplayRunner& runner,
           replay::CancelToken* cancel, const MinimizeSink& sink)
        : m_builder(original), m_options(options), m_runner(runner), m_cancel(cancel), m_sink(sink), m_start(Clock::now())
    {
        m_queryOptions = options.replay;
        m_queryOptions.timing = false;  // per-node timing costs a sync per node and says nothing here
        m_queryOptions.valueChecks = true;  // NaN origin needs it
        m_queryOptions.warmup = m_queryOptions.repeat = 0;
        // Candidates always get fresh inputs; only the original may be replayed with its saved real inputs
        // (a failure that needs real data to show up is still located there).
        m_queryOptions.inputs = replay::ReplayOptions::Inputs::Random;
        // A candidate must fail on inputs its repro.py can make alone: no forward graph replayed first.
        m_queryOptions.chain = false;
        m_baselineOptions = m_queryOptions;
        m_baselineOptions.inputs = options.replay.inputs;
        for (const auto& s : options.failures)
            if ((s.kind == FailureSpec::Kind::OutputCode || s.kind == FailureSpec::Kind::PostGrad) && !options.oracle)
                throw Error("--until " + describe(s) + " needs inductor in a Python child (fxray minimize on the command line)");
        for (const auto& s : options.failures)
            if (s.kind == FailureSpec::Kind::Diverge)
                m_queryOptions.compareDevice = s.pattern;
    }

    MinimizeResult run()
    {
        MinimizeResult res;
        const io::LoadedGraph& g = m_builder.original();
        res.originalNodes = computeNodes(g.graph);
        std::vector<int> all = m_builder.units();

        // Baseline: does the original fail as asked, and where?
        report("baseline", res.originalNodes);
        auto [found, baseline] = prefixBaseline(all, res);
        m_queryOptions.symbolValues.insert(baseline.symbols.begin(), baseline.symbols.end());
        if (found.empty()) {
            res.why = baseline.fatal.empty() ? "the graph does not fail that way (verdict: " + baseline.verdict() + ")"
                                             : baseline.fatal;
            if (m_options.oracle && !m_options.oracle->lastProblem().empty())
                res.why = m_options.oracle->lastProblem();
            else if (m_options.oracle)
                res.why = std::string(postGrad() ? "inductor's post-grad graph" : "inductor's compiled code") +
                          " agrees with fxray's replay (" + std::to_string(baseline.comparisons.size()) + " output(s) compared)";
            return finish(res, m_builder.build(all, -1), -1);
        }
        m_target = found.front();
        res.reproduced = true;
        res.signature = m_target;
        res.log.push_back("failure: " + m_target.str() + (m_target.node.empty() ? "" : " at node '" + m_target.node + "'") +
                          (m_target.detail.empty() ? "" : " (" + m_target.detail + ")"));
        const int targetNode = g.graph.findNode(m_target.node);
        m_mustOutput = targetNode;

        std::vector<int> kept = all;
        // 1. Truncate: nothing after the failing node can matter to it.
        if (targetNode >= 0 && !cancelled()) {
            std::vector<int> cut = m_builder.ancestorUnits(targetNode);
            if (cut.size() < kept.size() && test(cut, "truncate"))
                accept(kept, cut, "truncate at '" + m_target.node + "'", res);
        }
        // Protected: the failing node, and for NaN/Inf its statement (see minimizer.h).
        std::set<int> protectedUnits;
        if (targetNode >= 0) {
            protectedUnits.insert(targetNode);
            const auto& tn = g.graph.nodes[static_cast<std::size_t>(targetNode)];
            if (m_options.keepStatement && (m_target.kind == "nan" || m_target.kind == "inf") && tn.stack >= 0)
                for (int u : kept)
                    if (g.graph.nodes[static_cast<std::size_t>(u)].stack == tn.stack)
                        protectedUnits.insert(u);
        }
        // 2. ddmin over the unprotected nodes, in program-order ranges.
        int n = 2;
        while (!cancelled()) {
            std::vector<int> free;
            for (int u : kept)
                if (!protectedUnits.count(u))
                    free.push_back(u);
            if (free.empty())
                break;
            n = std::min<int>(n, static_cast<int>(free.size()));
            bool reduced = false;
            for (int c = 0; c < n && !cancelled(); ++c) {
                const std::size_t lo = free.size() * static_cast<std::size_t>(c) / static_cast<std::size_t>(n);
                const std::size_t hi = free.size() * static_cast<std::size_t>(c + 1) / static_cast<std::size_t>(n);
                std::set<int> drop(free.begin() + static_cast<std::ptrdiff_t>(lo), free.begin() + static_cast<std::ptrdiff_t>(hi));
                std::vector<int> candidate;
                for (int u : kept)
                    if (!drop.count(u))
                        candidate.push_back(u);
                if (candidate.empty())
                    continue;
                if (test(candidate, "ddmin n=" + std::to_string(n))) {
                    accept(kept, candidate, "ddmin n=" + std::to_string(n) + ": dropped " + std::to_string(drop.size()) + " nodes",
                           res);
                    n = std::max(n - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (n >= static_cast<int>(free.size()))
                    break;  // 1-minimal: no single node can go
                n = std::min(2 * n, static_cast<int>(free.size()));
            }
        }
        io::LoadedGraph best = m_builder.build(kept, m_mustOutput);
        // 3. Verify on other seeds: a minimal repro that fails only for one seed is worth knowing about.
        if (!isCommand(m_options.failures))
            for (int k = 1; k <= m_options.verifySeeds && !cancelled(); ++k) {
                report("verify", computeNodes(best.graph));
                replay::ReplayOptions o = m_queryOptions;
                o.seed = m_queryOptions.seed + static_cast<std::uint64_t>(k) * 7919;
                ++m_queries;
                auto [seen, r] = judged(best, o);
                ++res.verifiedSeeds;
                for (const auto& s : seen)
                    if (s.sameAs(m_target)) {
                        ++res.verifyFailed;
                        break;
                    }
            }
        return finish(res, best, m_mustOutput);
    }

private:
    // The baseline query. An oracle's query is inductor in Python (the whole graph of a 24-layer model: minutes), so
    // with one, and generated inputs, prefixes of the graph in program order (closed under their inputs) are judged
    // first, from kFirstPrefix units and doubling: the failure found in the first prefix that fails is the one the
    // whole graph would show first (the same node), and the whole graph is judged only when no prefix fails.
    std::pair<std::vector<Signature>, replay::ReplayReport> prefixBaseline(const std::vector<int>& all, MinimizeResult& res)
    {
        static constexpr std::size_t kFirstPrefix = 64;
        if (m_options.oracle && m_baselineOptions.inputs == replay::ReplayOptions::Inputs::Random)
            for (std::size_t n = kFirstPrefix; n < all.size() && !cancelled(); n *= 2) {
                const std::vector<int> prefix(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
                report("baseline prefix", m_builder.computeNodes(prefix));
                auto judgedPrefix = failuresOf(m_builder.build(prefix, -1), nullptr, &m_baselineOptions);
                if (judgedPrefix.first.empty() && !m_options.oracle->lastProblem().empty())
                    res.log.push_back("baseline: the first " + std::to_string(m_builder.computeNodes(prefix)) +
                                      " nodes could not be judged: " + m_options.oracle->lastProblem());
                if (!judgedPrefix.first.empty()) {
                    res.log.push_back("baseline: the first " + std::to_string(m_builder.computeNodes(prefix)) + " of " +
                                      std::to_string(res.originalNodes) + " nodes fail (query " + std::to_string(m_queries) + ")");
                    return judgedPrefix;
                }
            }
        report("baseline", res.originalNodes);
        return failuresOf(m_builder.original(), nullptr, &m_baselineOptions);
    }

    bool postGrad() const
    {
        return std::any_of(m_options.failures.begin(), m_options.failures.end(),
                           [](const FailureSpec& s) { return s.kind == FailureSpec::Kind::PostGrad; });
    }

    bool cancelled() const { return m_cancel && m_cancel->cancelled.load(); }

    void report(const std::string& strategy, int nodesLeft)
    {
        m_strategy = strategy;
        m_nodesLeft = nodesLeft;
        if (m_sink)
            m_sink(MinimizeProgress{strategy, nodesLeft, m_queries,
                                    std::chrono::duration<double>(Clock::now() - m_start).count()});
    }

    // One replay's failures, or the oracle's judgement (diverge:output_code).
    std::pair<std::vector<Signature>, replay::ReplayReport> judged(const io::LoadedGraph& c, const replay::ReplayOptions& o)
    {
        if (m_options.oracle)
            return m_options.oracle->judge(c, o, m_runner, m_cancel);
        replay::ReplayReport r = m_runner.run(c, o, m_cancel);
        return {failuresIn(r, m_options.failures), r};
    }

    // The failures the options select, of one candidate; for commands, the command's verdict.
    std::pair<std::vector<Signature>, replay::ReplayReport> failuresOf(const io::LoadedGraph& c, const Signature* target,
                                                                       const replay::ReplayOptions* baseline = nullptr)
    {
        const replay::ReplayOptions& opts = baseline ? *baseline : m_queryOptions;
        ++m_queries;
        report(m_strategy, m_nodesLeft);
        replay::ReplayReport r;
        std::vector<Signature> found;
        if (isCommand(m_options.failures)) {
            if (!m_options.exportForCommand)
                throw Error("cmd: failures need a repro exporter");
            // Symbols are concrete in the repro; they come from one replay of the original, done once.
            if (m_queryOptions.symbolValues.empty() && !m_symbolsKnown) {
                m_symbolsKnown = true;
                r = m_runner.run(c, m_queryOptions, m_cancel);
                m_queryOptions.symbolValues.insert(r.symbols.begin(), r.symbols.end());
            }
            r.symbols = m_queryOptions.symbolValues;
            io::LoadedGraph concrete = c;
            concretizeMetadata(concrete, m_queryOptions.symbolValues);
            const Signature placeholder = target ? *target : Signature{"cmd", "", "", "", ""};
            const std::string path = m_options.exportForCommand(concrete, placeholder);
            for (const auto& s : m_options.failures) {
                if (s.kind != FailureSpec::Kind::Command)
                    continue;
                std::string cmd = s.pattern;
                for (std::size_t p = cmd.find("{}"); p != std::string::npos; p = cmd.find("{}", p + path.size()))
                    cmd.replace(p, 2, path);
                const CommandResult cr = runCommand(cmd, m_options.commandTimeout, {{"FXRAY_REPRO", path}});
                if (cr.exitCode != 0)
                    found.push_back({"cmd", "", cr.status, "", cr.output.substr(cr.output.size() > 400 ? cr.output.size() - 400 : 0)});
            }
            return {found, r};
        }
        return judged(c, opts);
    }

    bool test(const std::vector<int>& kept, const std::string& strategy)
    {
        std::string key(m_builder.original().graph.nodes.size(), '0');
        for (int u : kept)
            key[static_cast<std::size_t>(u)] = '1';
        if (auto it = m_cache.find(key); it != m_cache.end())
            return it->second;
        m_strategy = strategy;
        io::LoadedGraph c;
        try {
            c = m_builder.build(kept, m_mustOutput);
        } catch (const Error&) {
            // No graph keeps the failing value this way (e.g. the failure is at an input itself).
            m_cache.emplace(std::move(key), false);
            return false;
        }
        auto [found, r] = failuresOf(c, &m_target);
        bool same = false;
        for (const auto& s : found)
            same = same || s.sameAs(m_target);
        if (r.cancelled)
            same = false;
        m_cache.emplace(std::move(key), same);
        return same;
    }

    void accept(std::vector<int>& kept, std::vector<int> next, const std::string& what, MinimizeResult& res)
    {
        kept = std::move(next);
        const int left = m_builder.computeNodes(kept);
        res.log.push_back(what + " -> " + std::to_string(left) + " nodes (query " + std::to_string(m_queries) + ")");
        report(m_strategy, left);
    }

    MinimizeResult& finish(MinimizeResult& res, io::LoadedGraph best, int failing)
    {
        res.cancelled = cancelled();
        res.queries = m_queries;
        if (failing >= 0)
            res.failingNode = m_builder.original().graph.nodes[static_cast<std::size_t>(failing)].name;
        if (res.reproduced && !res.cancelled && !isCommand(m_options.failures)) {
            ++m_queries;
            res.queries = m_queries;
            res.finalReport = judged(best, m_queryOptions).second;
        }
        // The baseline's symbols (or, for cmd:, the ones learned from one replay) are all in the query options.
        res.symbols = m_queryOptions.symbolValues;
        concretizeMetadata(best, res.symbols);
        res.minimizedNodes = computeNodes(best.graph);
        res.minimized = std::move(best);
        res.seconds = std::chrono::duration<double>(Clock::now() - m_start).count();
        report("done", res.minimizedNodes);
        return res;
    }

    CandidateBuilder m_builder;
    const MinimizeOptions& m_options;
    replay::ReplayRunner& m_runner;
    replay::CancelToken* m_cancel;
    MinimizeSink m_sink;
    Clock::time_point m_start;
    replay::ReplayOptions m_queryOptions, m_baselineOptions;
    Signature m_target;
    int m_mustOutput = -1;
    int m_queries = 0;
    int m_nodesLeft = 0;
    bool m_symbolsKnown = false;
    std::string m_strategy;
    std::map<std::string, bool> m_cache;
};

graph::SymDim concrete(const graph::SymDim& d, const graph::SymExpr::Bindings& b)
{
    if (d.isConstant())
        return d;
    try {
        if (auto v = graph::SymExpr::parse(d.expr).evaluate(b))
            return graph::SymDim::constant(*v);
    } catch (const Error&) {
    }
    return d;
}

void concretize(graph::ValueMeta& m, const graph::SymExpr::Bindings& b)
{
    if (m.isTensor()) {
        for (auto& d : m.tensor.sizes)
            d = concrete(d, b);
        if (m.tensor.strides)
            for (auto& d : *m.tensor.strides)
                d = concrete(d, b);
        if (m.tensor.storageOffset)
            m.tensor.storageOffset = concrete(*m.tensor.storageOffset, b);
    } else if ((m.kind == graph::ValueMeta::Kind::SymInt || m.kind == graph::ValueMeta::Kind::Int) && !m.symExpr.empty()) {
        const graph::SymDim d = concrete(graph::SymDim::symbolic(m.symExpr), b);
        if (d.isConstant())
            m.symExpr = d.expr;
    }
}

}  // namespace

void concretizeMetadata(io::LoadedGraph& g, const std::map<std::string, std::int64_t, std::less<>>& symbols)
{
    const graph::SymExpr::Bindings b(symbols.begin(), symbols.end());
    for (auto& n : g.graph.nodes)
        if (n.meta)
            concretize(*n.meta, b);
    for (auto& s : g.inputs)
        if (s.meta)
            concretize(*s.meta, b);
}

MinimizeResult minimizeGraph(const io::LoadedGraph& original, const MinimizeOptions& options, replay::ReplayRunner& runner,
                             replay::CancelToken* cancel, const MinimizeSink& progress)
{
    // A candidate replays alone, where a collective has no peer and no process group: every failure would shrink
    // to "could not resolve the process group". Said up front instead of minimizing to the wrong failure.
    if (const auto calls = graph::collectiveCalls(original.graph, original.entry.address); !calls.empty())
        throw Error("minimize runs one rank, and " + original.entry.address + " calls " + std::to_string(calls.size()) +
                    " collective(s) (first: " + calls.front().describe() + ") that need their peers: replay the ranks " +
                    "together with `fxray replay <folder of ranks>` (or --ranks N) to find the failing node, then " +
                    "minimize a graph without collectives");
    Search search(original, options, runner, cancel, progress);
    return search.run();
}

}  // namespace fxray::minimize
