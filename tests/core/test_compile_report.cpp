// The compile report (io/compile_report.h) against what tlparse's own tests and index say about its test logs
// (../shared/corpora/tlparse_test_inputs.tgz, BSD, unpacked at test time, never committed; those checks skip
// without it), and against tests/data/report/graph_breaks.log (torch 2.11: graph breaks, recompiles, a failure).
#include "base/error.h"
#include "io/compile_report.h"
#include "io/compile_report_parse.h"
#include "io/graph_source.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <filesystem>

using namespace fxray;
using namespace fxray::io;
namespace fs = std::filesystem;

namespace {

const fs::path kArchive = fxray::test::sharedCorpus("tlparse_test_inputs.tgz");
const fs::path kUnpacked = fs::path(FXRAY_BINARY_DIR) / "test_tmp" / "compile_report_corpus";
const fs::path kGraphBreaks = fs::path(FXRAY_SOURCE_DIR) / "tests" / "data" / "report" / "graph_breaks.log";

const CompileEntry& compile(const RankReport& r, const std::string& id)
{
    for (const CompileEntry& c : r.compiles)
        if (c.compileId == id)
            return c;
    throw Error("no compile " + id + " in the report", fileLocation(r.path));
}

std::vector<std::string> graphAddresses(const CompileEntry& c)
{
    std::vector<std::string> out;
    for (const CompileArtifact& a : c.artifacts)
        if (a.kind == CompileArtifact::Kind::Graph)
            out.push_back(a.address);
    return out;
}

bool contains(const std::string& haystack, const char* needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

class TestCompileReport : public QObject {
    Q_OBJECT
    bool m_haveCorpus = false;

    RankReport corpusLog(const char* name)
    {
        if (!m_haveCorpus)
            throw Error("corpus not unpacked");
        return buildRankReport((kUnpacked / name).string());
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_haveCorpus = fs::exists(kArchive);
        if (!m_haveCorpus)
            return;
        fs::remove_all(kUnpacked);
        fs::create_directories(kUnpacked);
        QProcess tar;
        tar.start("tar", {"-xzf", QString::fromStdString(kArchive.string()), "-C", QString::fromStdString(kUnpacked.string())});
        QVERIFY2(tar.waitForFinished(60000), "tar did not finish");
        QVERIFY2(tar.exitStatus() == QProcess::NormalExit && tar.exitCode() == 0, tar.readAllStandardError().constData());
    }

    void init()
    {
        const QByteArray name = QTest::currentTestFunction();
        if (name.startsWith("tlparse") && !m_haveCorpus)
            QSKIP("tlparse's test logs are not beside the repository (../shared/corpora)");
    }

    // tlparse test_parse_compilation_failures: comp_failure.log's [0/0] is a failure; its page names the
    // exception, the reason and (dynamo_error) the traceback; the index counts 1 restart/failure.
    void tlparseCompilationFailureNamesTypeReasonAndStack()
    {
        const RankReport r = corpusLog("comp_failure.log");
        const CompileEntry& c = compile(r, "[0/0]");
        QCOMPARE(c.status, CompileStatus::Failed);
        QVERIFY(c.failure.has_value());
        QCOMPARE(c.failure->type, std::string("BackendCompilerFailed"));
        QVERIFY(contains(c.failure->reason, "RuntimeError: broken backend"));
        QVERIFY(c.failure->stack.starts_with("Traceback (most recent call last):"));
        QVERIFY(contains(c.failure->stack, "_call_user_compiler"));
        QCOMPARE(r.restartsAndFailures(), std::size_t(1));
        QCOMPARE(graphAddresses(c).size(), std::size_t(1));  // -_0_0_0/dynamo_output_graph
    }

    // tlparse test_parse_compilation_metrics: comp_metrics.log has -_0_0_1, -_1_0_1 and -_2_0_0: two frames
    // restarted once (graph break in an inlined call, "skip function graph_break"), the third compiled at once.
    void tlparseCompilationMetricsShowRestartsAndAttempts()
    {
        const RankReport r = corpusLog("comp_metrics.log");
        QCOMPARE(r.compiles.size(), std::size_t(3));
        for (const char* id : {"[0/0]", "[1/0]"}) {
            const CompileEntry& c = compile(r, id);
            QCOMPARE(c.status, CompileStatus::Restarted);
            QCOMPARE(c.attempts, 2);
            QCOMPARE(c.restartReasons.size(), std::size_t(1));
            QVERIFY(contains(c.restartReasons[0], "skip function graph_break"));
            QCOMPARE(c.guards.size(), std::size_t(3));  // dynamo_guards' list
        }
        QCOMPARE(compile(r, "[2/0]").status, CompileStatus::Ok);
        QCOMPARE(r.restartsAndFailures(), std::size_t(2));
        QVERIFY(graphAddresses(compile(r, "[0/0]"))[0].ends_with("#0/0_1/dynamo_output_graph"));
        QCOMPARE(compile(r, "[2/0]").resumeOf(), std::string("resumes after a graph break in fn at line 9553"));
        QCOMPARE(compile(r, "[2/0]").lastMetrics()->guardCount.value_or(-1), std::int64_t(6));
        QVERIFY(compile(r, "[0/0]").lastMetrics()->entireFrameS.has_value());
    }

    // tlparse test_cache_hit_miss: -_1_0_0 has fx_graph_cache_miss (x2) and fx_graph_cache_hit (x1).
    void tlparseCacheHitMissCounted()
    {
        const RankReport r = corpusLog("cache_hit_miss.log");
        const CompileEntry& c = compile(r, "[1/0]");
        int hits = 0, misses = 0, bypasses = 0;
        for (const CacheEvent& e : c.cache) {
            hits += e.cache == "fx_graph" && e.state == "hit";
            misses += e.cache == "fx_graph" && e.state == "miss";
            bypasses += e.cache == "aotautograd" && e.state == "bypass";
        }
        QCOMPARE(hits, 1);
        QCOMPARE(misses, 2);
        QCOMPARE(bypasses, 3);
        QCOMPARE(r.cacheCount("hit"), std::size_t(1));
        QVERIFY(!c.cache.front().key.empty());
        // The same compile ids, compiled three times (torch._dynamo.reset between runs), merge as in tlparse.
        QCOMPARE(r.compiles.size(), std::size_t(2));
        QCOMPARE(compile(r, "[0/0]").metrics.size(), std::size_t(3));
    }

    // The multi-rank logs: rank 3 recompiles [0/0] because of a size guard (recompile_reasons).
    void tlparseRecompileNamesTheFailedGuard()
    {
        const RankReport r = corpusLog("multi_rank_logs/dedicated_log_torch_trace_rank_3.log");
        QCOMPARE(r.rank, 3);
        QCOMPARE(compile(r, "[0/0]").recompileReasons.size(), std::size_t(0));
        const CompileEntry& c = compile(r, "[0/1]");
        QCOMPARE(c.recompileReasons, std::vector<std::string>{"0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"});
        QCOMPARE(compile(r, "[0/2]").recompileReasons.size(), std::size_t(2));
        QCOMPARE(r.recompileCount(), std::size_t(6));
    }

    // tlparse test_diverging_compile_ids_warning / test_diverging_cache_events_multiple_groups on
    // multi_rank_logs; test_all_ranks_messy_input: the empty decoy files are no ranks.
    void tlparseRanksDivergeInCompileIdsAndCache()
    {
        const CompileReport all = buildCompileReport((kUnpacked / "multi_rank_logs").string());
        QCOMPARE(all.ranks.size(), std::size_t(4));
        for (int i = 0; i < 4; ++i)
            QCOMPARE(all.ranks[static_cast<std::size_t>(i)].rank, i);
        QVERIFY(all.groups.byCompileIds.size() > 1);
        QVERIFY(all.groups.byCacheSequence.size() > 2);
        const CompileReport messy = buildCompileReport((kUnpacked / "multi_rank_messy_input").string());
        QCOMPARE(messy.ranks.size(), std::size_t(2));
        QCOMPARE(messy.groups.byCompileIds.size(), std::size_t(1));  // identical logs: no divergence
    }

    // tlparse test_parse_simple: -_0_0_0 holds dynamo_output_graph, inductor_post_grad_graph and
    // inductor_output_code; each graph link loads, the output code is there as text.
    void tlparseSimpleLinksGraphsAndOutputCode()
    {
        const RankReport r = corpusLog("simple.log");
        const CompileEntry& c = compile(r, "[0/0]");
        QCOMPARE(c.status, CompileStatus::Ok);
        const std::vector<std::string> graphs = graphAddresses(c);
        QVERIFY(graphs.size() >= 3);
        for (const char* record : {"#0/0/dynamo_output_graph", "#0/0/aot_inference_graph", "#0/0/inductor_post_grad_graph"})
            QVERIFY2(std::any_of(graphs.begin(), graphs.end(), [&](const std::string& a) { return a.ends_with(record); }), record);
        for (const std::string& a : graphs)
            QVERIFY2(loadAddress(a).graph.outputNode() >= 0, a.c_str());
        const auto code = std::find_if(c.artifacts.begin(), c.artifacts.end(),
                                       [](const CompileArtifact& a) { return a.kind == CompileArtifact::Kind::OutputCode; });
        QVERIFY(code != c.artifacts.end());
        QCOMPARE(code->text.size(), std::size_t(10450));
        QVERIFY(code->name.ends_with(".py"));
        QVERIFY(!c.stack.empty());
        QVERIFY(c.stack.back().function != "_convert_frame_assert");  // dynamo's own frames dropped
    }

    // tlparse's LinkParser: a link record becomes a named link of its compile.
    void tlparseLinkRecordKept()
    {
        const RankReport r = corpusLog("links.log");
        const CompileEntry& c = compile(r, "[0/0]");
        const auto link = std::find_if(c.artifacts.begin(), c.artifacts.end(),
                                       [](const CompileArtifact& a) { return a.kind == CompileArtifact::Kind::Link; });
        QVERIFY(link != c.artifacts.end());
        QCOMPARE(link->name, std::string("manifold_url"));
        QCOMPARE(link->url, std::string("https://www.google.com"));
    }

    // tlparse test_export_report / test_export_guard_report: the exported program (no compile id) and the
    // export failures of its index (data-dependent error; a guard evaluated).
    void tlparseExportIssuesAndProgram()
    {
        const RankReport r = corpusLog("export.log");
        const CompileEntry& c = compile(r, "(unknown)");
        QVERIFY(graphAddresses(c).at(0).ends_with("#-/exported_program"));
        QCOMPARE(c.exportIssues.size(), std::size_t(1));
        QVERIFY(contains(c.exportIssues[0], "data-dependent expression Eq((((-u0)//3)) + 5, 0) specialized to False"));
        const RankReport guarded = corpusLog("export_guard_added.log");
        const CompileEntry& g = compile(guarded, "(unknown)");
        QCOMPARE(g.exportIssues, std::vector<std::string>{"guard evaluated: Eq(s0, 3) (may have caused a constraint violation)"});
    }

    // Every graph record of every log is linked from its compile, by an address the loader knows.
    void tlparseEveryGraphRecordLinked()
    {
        std::size_t logs = 0;
        for (const auto& e : fs::recursive_directory_iterator(kUnpacked)) {
            if (!e.is_regular_file() || !looksLikeTraceLog(e.path().string()))
                continue;
            ++logs;
            const TraceLog log = readTraceLog(e.path().string(), false);
            const RankReport r = buildRankReport(e.path().string());
            std::size_t linked = 0;
            for (const CompileEntry& c : r.compiles)
                for (const std::string& a : graphAddresses(c)) {
                    QVERIFY2(!a.empty(), e.path().c_str());
                    ++linked;
                }
            QCOMPARE(linked, graphRecords(log).size());
        }
        QCOMPARE(logs, std::size_t(36));
    }

    // torch 2.11's graph-break record: where, why, and the user's stack; the resume frames; the recompiles and
    // the failed compile of tests/data/report/graph_breaks.log.
    void graphBreaksWithReasonAndUserStack()
    {
        const RankReport r = buildRankReport(kGraphBreaks.string());
        QCOMPARE(r.graphBreakCount(), std::size_t(3));
        const GraphBreak& b = compile(r, "[0/0]").graphBreaks.at(0);
        QVERIFY(b.location.ends_with("make_graph_breaks_log.py:23"));
        QVERIFY(contains(b.reason, "Dynamo does not know how to trace builtin operator `print`"));
        QVERIFY(contains(b.userStack, "in scale"));
        QVERIFY(contains(b.userStack, "print(\"scaling\")"));
        QVERIFY(!contains(b.userStack, "Traceback"));  // dynamo's own traceback is not the user's stack
        QCOMPARE(compile(r, "[2/0]").resumeOf(), std::string("resumes after a graph break in scale at line 23"));
        QCOMPARE(compile(r, "[0/0]").status, CompileStatus::Restarted);
        QCOMPARE(compile(r, "[1/0]").status, CompileStatus::Empty);  // scale's graph before the print is empty
    }

    void recompileReasonFromTorchsPlainTextPayload()
    {
        const RankReport r = buildRankReport(kGraphBreaks.string());
        QCOMPARE(compile(r, "[0/1]").recompileReasons,
                 std::vector<std::string>{"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"});
        QCOMPARE(r.recompileCount(), std::size_t(3));
    }

    void failureStackFromDynamoError()
    {
        const RankReport r = buildRankReport(kGraphBreaks.string());
        const CompileEntry& c = compile(r, "[4/0]");
        QCOMPARE(c.status, CompileStatus::Failed);
        QCOMPARE(c.failure->type, std::string("BackendCompilerFailed"));
        QVERIFY(contains(c.failure->stack, "raise RuntimeError(\"broken backend\")"));
        QCOMPARE(c.function, std::string("fails"));
    }

    void recompileReasonPayloadForms()
    {
        QCOMPARE(parseRecompileReasons(R"(["a", "b"])"), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(parseRecompileReasons(R"("one")"), std::vector<std::string>{"one"});
        QCOMPARE(parseRecompileReasons("0/0: tensor 'x' size mismatch\n"), std::vector<std::string>{"0/0: tensor 'x' size mismatch"});
    }

    void graphBreakSkipForm()
    {
        const GraphBreak b = parseGraphBreak(
            "Graph break: torch.compile cannot properly resume from this graph break, which results in a skip.\n"
            "torch.compile will skip tracing the frame f (x.py line 3) and fall back to eager.\n"
            "The graph break occurred in the following user code:\n  File \"x.py\", line 4, in f\n    g()\n\n"
            "Traceback (most recent call last):\n  File \"torch/x.py\", line 1\n",
            7, 0);
        QVERIFY(b.reason.starts_with("Graph break: torch.compile cannot properly resume"));
        QCOMPARE(b.userStack, std::string("File \"x.py\", line 4, in f\n    g()"));
        QCOMPARE(b.line, 7);
    }

    void missingPathAndNonLogAreErrors()
    {
        QVERIFY_THROWS_EXCEPTION(Error, buildCompileReport("/nonexistent/trace.log"));
        QVERIFY_THROWS_EXCEPTION(Error, buildCompileReport((fs::path(FXRAY_SOURCE_DIR) / "README.md").string()));
    }

    void cleanupTestCase()
    {
        if (m_haveCorpus)
            fs::remove_all(kUnpacked);
    }
};

QTEST_GUILESS_MAIN(TestCompileReport)
#include "test_compile_report.moc"
