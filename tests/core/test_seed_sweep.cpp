// Seed sweeps and repeat runs (replay/api/seed_sweep.h): option parsing and its errors, the spec and result on the
// wire, and against the real `fxray worker` of this build: a sweep of the committed sharp_softmax dump stops at
// the seed whose replay makes Inf and names it; output digests of two runs of the same inputs are equal, and a
// node planted to compute something else in the second run (its constant changed by one ulp) is the node the
// run comparison names, with everything upstream of it equal. The worker group is skipped without LibTorch.
#include "graph/graph.h"
#include "io/graph_source.h"
#include "replay/api/report_format.h"
#include "replay/api/seed_sweep.h"
#include "test_support.h"
#include "worker/replay_worker.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace fxray;

namespace {

std::string fxrayBinary() { return std::string(FXRAY_BINARY_DIR) + "/app/cli/fxray"; }

io::LoadedGraph sharpSoftmax()
{
    return io::loadAddress(std::string(FXRAY_TEST_DATA_DIR) + "/sweep/sharp_softmax/sharp_softmax_forward_0");
}

worker::WorkerConfig workerConfig()
{
    worker::WorkerConfig cfg;
    cfg.program = fxrayBinary();
    return cfg;
}

}  // namespace

class TestSeedSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seedRangesAndUntilParseAndBadOnesSayWhy()
    {
        replay::SweepSpec s;
        replay::parseSeedRange("3-1002", s);
        QCOMPARE(s.first, std::uint64_t(3));
        QCOMPARE(s.count(), std::uint64_t(1000));
        replay::parseSeedRange("7", s);
        QCOMPARE(s.count(), std::uint64_t(1));
        QVERIFY(!test::expectError([&] { replay::parseSeedRange("9-2", s); }, {"last seed comes before the first"}).empty());
        QVERIFY(!test::expectError([&] { replay::parseSeedRange("-2", s); }, {"--seeds wants A-B"}).empty());
        QVERIFY(!test::expectError([&] { replay::parseSeedRange("1-x", s); }, {"--seeds wants A-B", "1-x"}).empty());
        replay::parseUntil("nan,error,diverge:cuda:1", s);
        QVERIFY(s.nan && s.error && !s.mismatch && !s.divergeRuns);
        QCOMPARE(s.divergeDevice, std::string("cuda:1"));
        QCOMPARE(replay::describeUntil(s), std::string("nan,error,diverge:cuda:1"));
        replay::parseUntil("diverge", s);
        QVERIFY(s.divergeRuns && !s.nan && s.divergeDevice.empty());
        QVERIFY(!test::expectError([&] { replay::parseUntil("nan,", s); }, {"'' is not one of"}).empty());
        QVERIFY(!test::expectError([&] { replay::parseUntil("diverge:", s); }, {"'diverge:' is not one of"}).empty());
    }

    void specAndResultSurviveTheWire()
    {
        replay::SweepSpec s;
        s.first = 10, s.last = 20, s.mismatch = true, s.divergeRuns = true, s.repeat = 4, s.divergeDevice = "cpu";
        const replay::SweepSpec b = replay::sweepSpecFromJson(json::parse(replay::sweepSpecToJson(s).dump()));
        QVERIFY(b.first == 10 && b.last == 20 && b.mismatch && !b.nan && b.divergeRuns && b.repeat == 4 && b.divergeDevice == "cpu");
        replay::SweepResult r;
        r.found = true, r.seed = 17, r.seedsRun = 8, r.failure = "inf at node 'exp'", r.divergentNode = "div", r.divergentRun = 3;
        r.report.address = "g";
        r.report.seed = 17;
        const replay::SweepResult rb = replay::sweepResultFromJson(json::parse(replay::sweepResultToJson(r).dump()));
        QVERIFY(rb.found && rb.seed == 17 && rb.seedsRun == 8 && rb.failure == r.failure && rb.divergentNode == "div");
        QCOMPARE(rb.divergentRun, 3);
        QCOMPARE(rb.report.seed, std::uint64_t(17));
    }

    void sweepInTheWorkerNamesTheFirstSeedThatMakesInf()
    {
        if (!test::fxrayHasWorker(fxrayBinary()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        const io::LoadedGraph g = sharpSoftmax();
        worker::ReplayWorker w(workerConfig());
        replay::SweepSpec spec;
        spec.first = 0, spec.last = 999, spec.nan = true;
        std::uint64_t calls = 0, lastSeed = 0;
        const replay::SweepResult r = w.sweep(g, replay::ReplayOptions{}, spec, nullptr, [&](std::uint64_t seed, std::uint64_t done, std::uint64_t total) {
            QCOMPARE(done, calls);
            QCOMPARE(total, std::uint64_t(1000));
            ++calls, lastSeed = seed;
        });
        QVERIFY2(r.found, r.failure.c_str());
        QCOMPARE(lastSeed, r.seed);
        QCOMPARE(r.seedsRun, r.seed + 1);
        QVERIFY2(r.failure.find("at node 'exp' (aten.exp.default)") != std::string::npos, r.failure.c_str());
        QCOMPARE(r.report.firstNanNode, std::string("exp"));
        QCOMPARE(w.starts(), 1);  // one worker for the whole sweep
        // An ordinary replay of that seed fails the same way; of the seed before, passes.
        replay::ReplayOptions o;
        o.seed = r.seed;
        QCOMPARE(w.run(g, o).firstNanNode, std::string("exp"));
        if (r.seed > 0) {
            o.seed = r.seed - 1;
            QCOMPARE(w.run(g, o).verdict(), std::string("pass"));
        }
    }

    void repeatRunsNameTheNodePlantedToComputeSomethingElse()
    {
        if (!test::fxrayHasWorker(fxrayBinary()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        const io::LoadedGraph g = sharpSoftmax();
        // The planted node: `div` divides by the next f32 after 0.15 in the second run, as an op whose result
        // depends on the run (atomics) computes other low bits.
        io::LoadedGraph planted = g;
        const int div = planted.graph.findNode("div");
        QVERIFY(div >= 0);
        graph::Arg& scale = planted.graph.nodes[static_cast<std::size_t>(div)].args.at(1);
        QVERIFY(scale.kind == graph::Arg::Kind::Float);
        // (f32 arithmetic: the next float, not the next double, which would round back to 0.15f.)
        scale.f = static_cast<double>(std::nextafter(static_cast<float>(scale.f), 1.0f));
        worker::ReplayWorker w(workerConfig());
        replay::ReplayOptions o;
        o.seed = 1;
        o.digests = true;
        const replay::ReplayReport a = w.run(g, o), again = w.run(g, o), other = w.run(planted, o);
        QVERIFY2(a.fatal.empty() && other.fatal.empty(), (a.fatal + other.fatal).c_str());
        QVERIFY(!a.nodes.at(0).outputs.empty() && a.nodes[0].outputs[0].digest.size() == 32);
        std::string what;
        QCOMPARE(replay::firstDivergentNode(a, again, what), -1);
        QCOMPARE(replay::firstDivergentNode(a, other, what), div);
        QVERIFY2(what.find("node 'div' (aten.div.Tensor): output 0") != std::string::npos, what.c_str());

        // The same through the sweep's repeat runs: the second run is the planted graph.
        replay::SweepSpec spec;
        spec.first = spec.last = 1, spec.divergeRuns = true, spec.repeat = 2;
        int runs = 0;
        bool asked = true;  // every run asked for digests of seed 1
        const replay::SweepResult r = replay::runSweep(spec, replay::ReplayOptions{}, [&](const replay::ReplayOptions& ro) {
            asked = asked && ro.digests && ro.seed == 1;
            return w.run(runs++ == 0 ? g : planted, ro);
        });
        QVERIFY(asked);
        QVERIFY(r.found);
        QCOMPARE(r.divergentNode, std::string("div"));
        QCOMPARE(r.divergentRun, 2);
        QCOMPARE(runs, 2);  // stops at the first run that differs
        QVERIFY2(r.failure.starts_with("diverge between runs at node 'div'"), r.failure.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSeedSweep)
#include "test_seed_sweep.moc"
