// The replay worker's pieces: child processes (Subprocess, runCommand), the wire format (every sample graph
// survives graphToJson -> graphFromJson; reports survive JSON), the seed-layout writer (its .input pickle
// reads back through fxray's own unpickler), and ReplayWorker against the real `fxray worker` of this build:
// a replay, a worker killed with SIGKILL mid-replay (error at the right node, next replay works), a hung
// worker (timeout), cancellation. The last group is skipped in a build without LibTorch (no worker).
#include "base/subprocess.h"
#include "graph/algorithms.h"
#include "io/graph_source.h"
#include "io/input_pickle.h"
#include "io/seed_writer.h"
#include "replay/api/report_format.h"

#include <cmath>
#include "test_support.h"
#include "worker/replay_worker.h"
#include "worker/worker_protocol.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <csignal>
#include <filesystem>
#include <thread>

using namespace fxray;
using namespace std::chrono_literals;

namespace {

// A node result with the fields a test sets; the rest as a replay leaves them.
replay::NodeResult nodeResult(std::string name, std::string target, replay::NodeStatus status)
{
    replay::NodeResult r;
    r.name = std::move(name);
    r.target = std::move(target);
    r.status = status;
    return r;
}

std::string fxrayBinary() { return std::string(FXRAY_BINARY_DIR) + "/app/cli/fxray"; }

std::vector<io::LoadedGraph> sampleGraphs()
{
    std::vector<io::LoadedGraph> out;
    for (const auto& e : io::discover(FXRAY_SAMPLES_DIR).graphs)
        out.push_back(io::loadGraph(e));
    return out;
}

io::LoadedGraph transformerSample()
{
    return io::loadAddress(std::string(FXRAY_SAMPLES_DIR) + "/cpu/dumps/cnn_channels_last/cnn_channels_last_joint_0");
}

}  // namespace

class TestWorker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void commandExitCodesSignalsAndTimeouts()
    {
        CommandResult r = runCommand("echo out; echo err >&2; exit 3", 10s);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.status, std::string("exit 3"));
        QVERIFY(r.output.find("out") != std::string::npos && r.output.find("err") != std::string::npos);
        r = runCommand("kill -SEGV $$", 10s);
        QCOMPARE(r.exitCode, -1);
        QVERIFY2(r.status.find("signal 11") != std::string::npos, r.status.c_str());
        const auto start = std::chrono::steady_clock::now();
        r = runCommand("sleep 30", 300ms);
        QVERIFY(r.timedOut);
        QVERIFY(std::chrono::steady_clock::now() - start < 5s);
        r = runCommand("test \"$FXRAY_REPRO\" = /x/repro.py", 10s, {{"FXRAY_REPRO", "/x/repro.py"}});
        QCOMPARE(r.exitCode, 0);
        // A timed-out command's own children die with it (its process group is killed).
        QTemporaryDir dir;
        const std::string marker = dir.path().toStdString() + "/late";
        r = runCommand("(sleep 1; touch '" + marker + "') & wait", 200ms);
        QVERIFY(r.timedOut);
        std::this_thread::sleep_for(1500ms);
        QVERIFY(!std::filesystem::exists(marker));
    }

    void writingToADeadChildIsAnErrorNotADeath()
    {
        Subprocess p({"/bin/sh", "-c", "exit 0"});
        QVERIFY(p.wait(5s));
        std::string big(1 << 20, 'x');
        QVERIFY(!p.write(big));  // EPIPE, and this process is still here (SIGPIPE ignored)
        QVERIFY(!test::expectError([] { Subprocess q({"/nonexistent/program"}); }, {"cannot start", "/nonexistent/program"}).empty());
    }

    void readLineWaitsAndDrainsStderr()
    {
        Subprocess p({"/bin/sh", "-c", "head -c 200000 /dev/zero | tr '\\0' e >&2; echo one; sleep 0.2; echo two"});
        std::string line;
        QCOMPARE(p.readLine(line, 5s), Subprocess::Read::Line);
        QCOMPARE(line, std::string("one"));
        QCOMPARE(p.readLine(line, 5s), Subprocess::Read::Line);
        QCOMPARE(line, std::string("two"));
        QCOMPARE(p.readLine(line, 5s), Subprocess::Read::Eof);
        QVERIFY(p.stderrTail().size() == 16 * 1024);  // the tail of 200 kB that would have filled the pipe
    }

    void everySampleGraphSurvivesTheWireFormat()
    {
        const auto graphs = sampleGraphs();
        QVERIFY(graphs.size() >= 50);
        for (const auto& g : graphs) {
            const json::Value j = json::parse(worker::graphToJson(g).dump());
            const io::LoadedGraph back = worker::graphFromJson(j);
            QCOMPARE(graph::structuralHash(back.graph), graph::structuralHash(g.graph));
            QCOMPARE(back.graph.nodes.size(), g.graph.nodes.size());
            for (std::size_t k = 0; k < g.graph.nodes.size(); ++k)
                QCOMPARE(back.graph.nodes[k].name, g.graph.nodes[k].name);
            QCOMPARE(back.inputs.size(), g.inputs.size());
            for (std::size_t k = 0; k < g.inputs.size(); ++k) {
                QVERIFY2(back.inputs[k].meta == g.inputs[k].meta, (g.entry.address + " input " + g.inputs[k].name).c_str());
                QVERIFY(back.inputs[k].source == g.inputs[k].source);
            }
            QCOMPARE(back.savedInputsPath, g.savedInputsPath);
            QVERIFY(back.entry.kind == g.entry.kind);
        }
    }

    void optionsAndReportsSurviveJson()
    {
        replay::ReplayOptions o;
        o.device = "cuda:1";
        o.seed = 42;
        o.floatDist = replay::ReplayOptions::FloatDist::Uniform;
        o.symbolValues = {{"s0", 7}, {"s77", 32}};
        o.compareDevice = "cpu";
        const auto back = worker::optionsFromJson(json::parse(worker::optionsToJson(o).dump()));
        QCOMPARE(back.device, o.device);
        QCOMPARE(back.seed, o.seed);
        QVERIFY(back.floatDist == o.floatDist);
        QVERIFY(back.symbolValues == o.symbolValues);
        QCOMPARE(back.compareDevice, o.compareDevice);

        replay::ReplayReport r;
        r.address = "a";
        r.device = "cpu";
        r.symbols = {{"s0", 3}};
        replay::NodeResult n = nodeResult("mm", "aten.mm.default", replay::NodeStatus::Mismatch);
        n.nanOrigin = true;
        n.timeUs = 1.5;
        n.schema = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
        n.mismatches.push_back({replay::Mismatch::Kind::Size, 0, "[2, 3]", "[3, 2]"});
        n.outputs.push_back(replay::OutputStats{"f32[3, 2]", true, -1, 2, 0.5, 1, 0, 6, ""});
        r.nodes.push_back(n);
        replay::NodeResult mask = nodeResult("full", "aten.full.default", replay::NodeStatus::Passed);
        mask.timeUs = 0.5;
        mask.nonFiniteConstant = true;
        r.nodes.push_back(mask);
        r.firstNanNode = "mm";
        r.reference = "expected.pt";
        replay::OutputComparison skipped;
        skipped.compared = false;
        skipped.note = "not compared: depends on random op aten.native_dropout.default";
        r.comparisons.push_back(skipped);
        const replay::ReplayReport rb = replay::reportFromJson(json::parse(replay::reportToJson(r).dump()));
        QCOMPARE(rb.nodes.size(), std::size_t(2));
        QVERIFY(rb.nodes[0].status == replay::NodeStatus::Mismatch && rb.nodes[0].nanOrigin);
        QVERIFY(!rb.nodes[0].nonFiniteConstant && rb.nodes[1].nonFiniteConstant && !rb.nodes[1].nanOrigin);
        QVERIFY(!rb.comparisons.at(0).compared && rb.comparisons[0].note == skipped.note);
        QCOMPARE(rb.nodes[0].schema, n.schema);  // the inspector shows it
        QCOMPARE(rb.nodes[0].mismatches[0].actual, std::string("[3, 2]"));
        QCOMPARE(rb.nodes[0].outputs[0].nanCount, std::int64_t(1));
        // A mask's -inf minimum and an infinite max_abs survive the round trip (JSON has no Infinity: they were
        // written as null and read back as NaN, and the GUI showed "nan" for a mask's min).
        r.nodes[0].outputs[0].min = -HUGE_VAL;
        r.nodes[0].outputs[0].max = HUGE_VAL;
        r.comparisons[0].maxAbs = HUGE_VAL;
        const replay::ReplayReport inf = replay::reportFromJson(json::parse(replay::reportToJson(r).dump()));
        QVERIFY(std::isinf(inf.nodes[0].outputs[0].min) && inf.nodes[0].outputs[0].min < 0);
        QVERIFY(std::isinf(inf.nodes[0].outputs[0].max) && inf.nodes[0].outputs[0].max > 0);
        QVERIFY(std::isinf(inf.comparisons[0].maxAbs));
        QVERIFY(std::isnan(inf.nodes[0].outputs[0].mean) == std::isnan(r.nodes[0].outputs[0].mean));
        QVERIFY(rb.symbols == r.symbols);
        QCOMPARE(rb.verdict(), r.verdict());
        // A checked CUDA graph's value checks: the presence-only replays, the note and each node's counted flag.
        replay::CudaGraphReport cg;
        cg.status = "captured";
        cg.valueChecks = true;
        cg.checkedReplays = 9, cg.presenceReplays = 8, cg.nanReplays = 2, cg.firstNanNode = "mm";
        cg.valueChecksNote = "full statistics on every replay: CUDA error: x";
        cg.nonFinite = {{"mm", 1, 0, true, false}, {"relu", 3, 0, false, true}};
        r.cudaGraph = cg;
        const replay::CudaGraphReport cgBack = *replay::reportFromJson(json::parse(replay::reportToJson(r).dump())).cudaGraph;
        QCOMPARE(cgBack.presenceReplays, 8);
        QCOMPARE(cgBack.valueChecksNote, cg.valueChecksNote);
        QVERIFY(cgBack.nonFinite.size() == 2 && !cgBack.nonFinite[0].counted && cgBack.nonFinite[1].counted);
    }

    void seedDumpWrittenByFxrayLoadsBackEqual()
    {
        QTemporaryDir dir;
        for (const char* rel : {"cpu/dumps/mlp/mlp_forward_0", "cpu/dumps/embed_ce/embed_ce_backward_0",
                                "cpu/dumps/cnn_channels_last/cnn_channels_last_joint_0"}) {
            const io::LoadedGraph g = io::loadAddress(std::string(FXRAY_SAMPLES_DIR) + "/" + rel);
            const std::string folder = "copy_" + std::string(io::graphKindName(g.entry.kind)) + "_0";
            const std::string path = io::writeSeedDump(g, dir.path().toStdString() + "/" + std::filesystem::path(rel).filename().string(), folder);
            const io::LoadedGraph back = io::loadAddress(path);
            QCOMPARE(graph::structuralHash(back.graph), graph::structuralHash(g.graph));
            QVERIFY2(back.warnings.empty(), back.warnings.empty() ? "" : back.warnings[0].c_str());
            QCOMPARE(back.inputs.size(), g.inputs.size());
            for (std::size_t k = 0; k < g.inputs.size(); ++k) {
                QVERIFY(back.inputs[k].source == io::MetaSource::InputPickle);
                QVERIFY(back.inputs[k].meta->kind == g.inputs[k].meta->kind);
                if (g.inputs[k].meta->isTensor()) {
                    QVERIFY(back.inputs[k].meta->tensor.sizes == g.inputs[k].meta->tensor.sizes);
                    QVERIFY(back.inputs[k].meta->tensor.dtype == g.inputs[k].meta->tensor.dtype);
                }
            }
        }
        // Large and negative ints and symbolic entries take the pickle's other integer forms.
        graph::ValueMeta big;
        big.kind = graph::ValueMeta::Kind::SymInt;
        big.symExpr = "5000000000";
        graph::ValueMeta neg = big;
        neg.symExpr = "-7";
        graph::TensorMeta t;
        t.sizes = {graph::SymDim::symbolic("s0"), graph::SymDim::constant(70000)};
        t.strides = std::vector<graph::SymDim>{graph::SymDim::constant(70000), graph::SymDim::constant(1)};
        t.device = graph::Device{"cuda", 0};
        const auto back = io::parseInputPickle(io::serializeInputPickle({big, neg, graph::ValueMeta::ofTensor(t)}), "mem");
        QCOMPARE(back.size(), std::size_t(3));
        QCOMPARE(back[0].symExpr, std::string("5000000000"));
        QCOMPARE(back[1].symExpr, std::string("-7"));
        QVERIFY(back[2].tensor.sizes == t.sizes && back[2].tensor.strides == t.strides && back[2].tensor.device == t.device);
    }

    void torchScriptLoadedWithoutLibTorchReplaysInTheWorkerWithItsOverloads()
    {
        if (!test::fxrayHasWorker(fxrayBinary()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        // This process has no parseIR importer (like the GUI): its ops carry no overload names.
        // The cnn module: aten::mean(x, dims, keepdim, dtype) has a keyword-only dtype only the schema knows of.
        const io::LoadedGraph g = io::loadAddress(std::string(FXRAY_SAMPLES_DIR) + "/cpu/torchscript/cnn.ts.txt");
        int unresolved = 0;
        for (const auto& n : g.graph.nodes)
            unresolved += n.isOp() && n.target.overload.empty();
        QVERIFY(unresolved > 0);
        worker::WorkerConfig cfg;
        cfg.program = fxrayBinary();
        worker::ReplayWorker w(cfg);
        const replay::ReplayReport r = w.run(g, replay::ReplayOptions{});
        QVERIFY2(r.fatal.empty(), r.fatal.c_str());
        QVERIFY2(r.unsupported.empty(), r.unsupported.empty() ? "" : r.unsupported.front().c_str());
        QCOMPARE(r.verdict(), std::string("pass"));
        QCOMPARE(r.count(replay::NodeStatus::Passed), static_cast<int>(g.graph.nodes.size()));
    }

    void workerReplaysAndSurvivesAKillAHangAndACancel()
    {
        if (!test::fxrayHasWorker(fxrayBinary()))
            QSKIP("this build has no LibTorch, hence no `fxray worker`");
        const io::LoadedGraph g = transformerSample();
        worker::WorkerConfig cfg;
        cfg.program = fxrayBinary();
        worker::ReplayWorker w(cfg);
        replay::ReplayOptions o;
        replay::ReplayReport r = w.run(g, o);
        QVERIFY2(r.fatal.empty(), r.fatal.c_str());
        QCOMPARE(r.verdict(), std::string("pass"));
        QCOMPARE(r.nodes.size(), g.graph.nodes.size());
        QCOMPARE(w.starts(), 1);
        r = w.run(g, o);  // the same worker again
        QCOMPARE(w.starts(), 1);

        // SIGKILL from outside in the middle of a replay: the worker hangs at a known node so that the kill
        // lands there for sure.
        const std::string hangAt = g.graph.nodes[g.graph.nodes.size() / 2].name;
        worker::WorkerConfig hangCfg = cfg;
        hangCfg.env = {{"FXRAY_WORKER_FAULT", "hang:" + hangAt}};
        worker::ReplayWorker hw(hangCfg);
        std::thread killer([&] {
            for (int k = 0; k < 600 && hw.pid() < 0; ++k)
                std::this_thread::sleep_for(10ms);
            // Long enough for a worker that loads LibTorch on a busy machine to reach the hang (1.5 s was not,
            // with two builds running: the kill landed at the first node).
            std::this_thread::sleep_for(5000ms);
            ::kill(hw.pid(), SIGKILL);
        });
        r = hw.run(g, o);
        killer.join();
        QVERIFY2(r.fatal.find("signal 9") != std::string::npos, r.fatal.c_str());
        QVERIFY2(r.fatal.find("'" + hangAt + "'") != std::string::npos, r.fatal.c_str());
        const auto at = std::find_if(r.nodes.begin(), r.nodes.end(), [&](const auto& n) { return n.name == hangAt; });
        QVERIFY(at != r.nodes.end() && at->status == replay::NodeStatus::Error);
        QVERIFY(r.nodes.front().status == replay::NodeStatus::Passed);  // streamed before the kill: kept
        // The next replay gets a fresh worker (without the fault: the same config would hang again).
        r = w.run(g, o);
        QCOMPARE(r.verdict(), std::string("pass"));

        // A hang with a timeout: killed, reported at the node, and the next run respawns.
        hangCfg.replayTimeout = 2s;
        worker::ReplayWorker tw(hangCfg);
        r = tw.run(g, o);
        QVERIFY2(r.fatal.find("hung") != std::string::npos && r.fatal.find(hangAt) != std::string::npos, r.fatal.c_str());
        QCOMPARE(tw.starts(), 1);
        r = tw.run(g, o);
        QCOMPARE(tw.starts(), 2);

        // Cancel from another thread: the run returns promptly, marked cancelled.
        replay::CancelToken cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(1500ms);
            cancel.cancelled.store(true);
        });
        const auto start = std::chrono::steady_clock::now();
        r = tw.run(g, o, &cancel);
        canceller.join();
        QVERIFY(r.cancelled);
        QVERIFY(std::chrono::steady_clock::now() - start < 10s);
    }
};

QTEST_APPLESS_MAIN(TestWorker)
#include "test_worker.moc"
