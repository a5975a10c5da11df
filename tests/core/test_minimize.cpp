// The minimizer's plain parts on real dumps: failure specs and signatures, candidate graphs (fresh
// placeholders carry the dropped producer's metadata; outputs are the sinks plus the failing node; getitems
// go with their op), concrete metadata, and the repro script's text. The search itself runs against real
// replays in tests/cli/test_minimize.py (it needs a worker, hence LibTorch).
#include "graph/algorithms.h"
#include "graph/sym_expr.h"
#include "io/graph_source.h"
#include "minimize/candidate.h"
#include "minimize/failure.h"
#include "minimize/minimizer.h"
#include "minimize/output_code_oracle.h"
#include "minimize/repro_writer.h"
#include "test_support.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace fxray;
using namespace fxray::minimize;

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

std::string sample(const char* rel) { return std::string(FXRAY_SAMPLES_DIR) + "/" + rel; }

std::vector<std::string> opNames(const graph::Graph& g)
{
    std::vector<std::string> out;
    for (const auto& n : g.nodes)
        if (n.kind == graph::NodeKind::CallFunction)
            out.push_back(n.name);
    return out;
}

}  // namespace

class TestMinimize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void failureSpecsParseAndCombine()
    {
        auto s = parseFailureSpecs("mismatch,nan");
        QCOMPARE(s.size(), std::size_t(2));
        QVERIFY(s[0].kind == FailureSpec::Kind::Mismatch && s[1].kind == FailureSpec::Kind::Nan);
        // A pattern may hold commas; only a comma that starts another spec splits.
        s = parseFailureSpecs("error:expected (a, b) got,nan");
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].pattern, std::string("expected (a, b) got"));
        s = parseFailureSpecs("diverge");
        QCOMPARE(s[0].pattern, std::string("cpu"));
        s = parseFailureSpecs("cmd:python {} --compile");
        QVERIFY(s[0].kind == FailureSpec::Kind::Command && s[0].pattern == "python {} --compile");
        QVERIFY(!test::expectError([] { parseFailureSpecs("crash"); }, {"--until", "mismatch"}).empty());
        QVERIFY(!test::expectError([] { parseFailureSpecs("error:(unclosed"); }, {"regular expression"}).empty());
        QVERIFY(!test::expectError([] { parseFailureSpecs("cmd:"); }, {"--until"}).empty());
    }

    void outputCodeSpecsAndInductorConfigEntries()
    {
        // diverge:output_code is its own kind (inductor compiles each candidate), not a device to compare with.
        auto s = parseFailureSpecs("diverge:output_code");
        QVERIFY(s.size() == 1 && s[0].kind == FailureSpec::Kind::OutputCode);
        QCOMPARE(describe(s[0]), std::string("diverge:output_code"));
        QVERIFY(parseFailureSpecs("diverge:cuda")[0].kind == FailureSpec::Kind::Diverge);
        // diverge:post_grad too (inductor's passes only); a custom pass given as "module:name" stays a string (the
        // repro's config_values imports it).
        s = parseFailureSpecs("diverge:post_grad");
        QVERIFY(s.size() == 1 && s[0].kind == FailureSpec::Kind::PostGrad);
        QCOMPARE(describe(s[0]), std::string("diverge:post_grad"));
        QCOMPARE(parseInductorConfigEntry("post_grad_custom_post_pass=my_passes:Planted").second, std::string("'my_passes:Planted'"));
        // Values reach Python only through ast.literal_eval: a bare word becomes a string, literals stay.
        QCOMPARE(parseInductorConfigEntry("cpp.inject_relu_bug_TESTING_ONLY=accuracy").second, std::string("'accuracy'"));
        QCOMPARE(parseInductorConfigEntry("max_autotune=True").second, std::string("True"));
        QCOMPARE(parseInductorConfigEntry("realize_opcount_threshold=30").second, std::string("30"));
        QCOMPARE(parseInductorConfigEntry("a.b='x'").first, std::string("a.b"));
        QVERIFY(!test::expectError([] { parseInductorConfigEntry("no_value"); }, {"KEY=VALUE"}).empty());
        QVERIFY(!test::expectError([] { parseInductorConfigEntry("bad key=1"); }, {"KEY=VALUE"}).empty());
        // The size of an error relative to the values it sits in: part of a codegen failure's signature.
        QCOMPARE(errorSizeClass(1.36, 2.0), std::string("large"));
        QCOMPARE(errorSizeClass(0.05, 0.5), std::string("medium"));
        QCOMPARE(errorSizeClass(3e-3, 100.0), std::string("small"));
        QCOMPARE(errorSizeClass(std::nan(""), 1.0), std::string("nan"));
    }

    void inductorConfigComesFromTheCompilesRunnableRecord()
    {
        // tests/data/output_code/planted.log: compiled with cpp.inject_relu_bug_TESTING_ONLY = 'accuracy', which its
        // fx_graph_runnable record writes as a torch._inductor.config line; the correct log records no such line.
        const std::string dir = std::string(FXRAY_SOURCE_DIR) + "/tests/data/output_code/";
        const auto planted = inductorConfigOfCompile(io::loadAddress(dir + "planted.log#0/0/aot_inference_graph").entry);
        QVERIFY(planted.size() == 1);
        QCOMPARE(planted[0].first, std::string("cpp.inject_relu_bug_TESTING_ONLY"));
        QCOMPARE(planted[0].second, std::string("'accuracy'"));
        const auto correct = inductorConfigOfCompile(io::loadAddress(dir + "correct.log#0/0/aot_inference_graph").entry);
        for (const auto& [k, v] : correct)
            QVERIFY2(k.find("inject") == std::string::npos, k.c_str());
        // A seed dump has no log to read a config from.
        QVERIFY(inductorConfigOfCompile(io::loadAddress(sample("cpu/dumps/mlp/mlp_forward_0")).entry).empty());
    }

    void messageClassIgnoresNumbersNamesAndTrailers()
    {
        const std::string a = messageClass("mat1 and mat2 shapes cannot be multiplied (32x128 and 10x128)\nException raised from x");
        const std::string b = messageClass("mat1 and mat2 shapes cannot be multiplied (4x7 and 3x9)");
        QCOMPARE(a, b);
        QCOMPARE(messageClass("index 5 is out of bounds for dimension 'x'"), messageClass("index 17 is out of bounds for dimension 'y'"));
        QVERIFY(messageClass("CUDA error: device-side assert triggered") != messageClass("CUDA error: out of memory"));
    }

    void signaturesComeFromTheReportInNodeOrder()
    {
        replay::ReplayReport r;
        replay::NodeResult a = nodeResult("mm", "aten.mm.default", replay::NodeStatus::Mismatch);
        a.mismatches.push_back({replay::Mismatch::Kind::Stride, 0, "[1, 4]", "[4, 1]"});
        replay::NodeResult b = nodeResult("log", "aten.log.default", replay::NodeStatus::Passed);
        b.nanOrigin = true;
        b.outputs.push_back(replay::OutputStats{"", true, 0, 0, 0, 3, 0, 8, ""});
        replay::NodeResult c = nodeResult("add", "aten.add.Tensor", replay::NodeStatus::Error);
        c.error = "boom 3 times";
        r.nodes = {a, b, c};
        auto all = failuresIn(r, parseFailureSpecs("mismatch,nan,error"));
        QCOMPARE(all.size(), std::size_t(3));
        QCOMPARE(all[0].kind, std::string("mismatch:stride"));
        QCOMPARE(all[1].kind, std::string("nan"));
        QCOMPARE(all[2].messageClass, std::string("boom # times"));
        QCOMPARE(failuresIn(r, parseFailureSpecs("nan")).size(), std::size_t(1));
        QCOMPARE(failuresIn(r, parseFailureSpecs("error:never")).size(), std::size_t(0));
        QVERIFY(all[2].sameAs(Signature{"error", "aten.add.Tensor", "boom # times", "other", "boom 4 times"}));
        QVERIFY(!all[2].sameAs(Signature{"error", "aten.mul.Tensor", "boom # times", "", ""}));
    }

    void candidateReplacesDroppedProducersWithPlaceholdersCarryingTheirMetadata()
    {
        const io::LoadedGraph g = io::loadAddress(sample("cpu/dumps/mlp/mlp_forward_0"));
        CandidateBuilder b(g);
        const int relu = g.graph.findNode("relu");
        QVERIFY(relu >= 0);
        // Keep relu only: addmm (its producer) becomes a placeholder with addmm's recorded metadata.
        const io::LoadedGraph c = b.build({relu}, relu);
        QCOMPARE(opNames(c.graph), std::vector<std::string>{"relu"});
        const auto ph = c.graph.placeholders();
        QCOMPARE(ph.size(), std::size_t(1));
        const auto& p = c.graph.nodes[static_cast<std::size_t>(ph[0])];
        QCOMPARE(p.name, std::string("addmm"));
        QVERIFY(p.meta && *p.meta == *g.graph.nodes[static_cast<std::size_t>(g.graph.findNode("addmm"))].meta);
        QCOMPARE(c.inputs.size(), std::size_t(1));
        QVERIFY(c.inputs[0].meta && c.inputs[0].source == io::MetaSource::Annotation);
        QVERIFY(c.savedInputsPath.empty());  // fresh inputs, never the recorded ones
        // Ancestors of relu: t, addmm, relu (program order); placeholders are not units.
        std::vector<std::string> names;
        for (int u : b.ancestorUnits(relu))
            names.push_back(g.graph.nodes[static_cast<std::size_t>(u)].name);
        QCOMPARE(names, (std::vector<std::string>{"t", "addmm", "relu"}));
    }

    void candidateOutputsAreTheSinksPlusTheFailingNode()
    {
        const io::LoadedGraph g = io::loadAddress(sample("cpu/dumps/mlp/mlp_forward_0"));
        CandidateBuilder b(g);
        const int t = g.graph.findNode("t"), addmm = g.graph.findNode("addmm"), relu = g.graph.findNode("relu");
        const io::LoadedGraph c = b.build({t, addmm, relu}, addmm);
        const auto& out = c.graph.nodes[static_cast<std::size_t>(c.graph.outputNode())];
        std::vector<std::string> outs;
        for (const auto& a : out.args[0].items)
            outs.push_back(c.graph.nodes[static_cast<std::size_t>(a.node)].name);
        QCOMPARE(outs, (std::vector<std::string>{"addmm", "relu"}));
        // Unused inputs never appear: primals_3 (unused by these nodes) is not a placeholder.
        for (int ph : c.graph.placeholders())
            QVERIFY(c.graph.nodes[static_cast<std::size_t>(ph)].name != "primals_3");
    }

    void getitemsGoWithTheirMultiOutputOp()
    {
        const auto files = test::findFiles(QString(FXRAY_SAMPLES_DIR) + "/cpu/dumps/cnn_channels_last", "*_forward_0.readable.py");
        QVERIFY(!files.empty());
        const io::LoadedGraph g = io::loadAddress(QFileInfo(files[0]).path().toStdString());
        CandidateBuilder b(g);
        int bn = -1;
        for (std::size_t i = 0; i < g.graph.nodes.size(); ++i)
            if (g.graph.nodes[i].target.op.find("batch_norm") != std::string::npos)
                bn = static_cast<int>(i);
        QVERIFY(bn >= 0);
        for (int u : b.units())
            QVERIFY(g.graph.nodes[static_cast<std::size_t>(u)].target.kind != graph::Target::Kind::Getitem);
        const io::LoadedGraph c = b.build({bn}, -1);
        int getitems = 0;
        for (const auto& n : c.graph.nodes)
            getitems += n.target.kind == graph::Target::Kind::Getitem;
        QVERIFY(getitems >= 1);  // the op's outputs are read through its getitems, which are the outputs
    }

    void concreteMetadataBindsSymbols()
    {
        io::LoadedGraph g = io::loadAddress(sample("cpu/dumps/mlp/mlp_forward_0"));
        bool symbolic = false;
        for (const auto& n : g.graph.nodes)
            if (n.meta && n.meta->isTensor())
                for (const auto& d : n.meta->tensor.sizes)
                    symbolic = symbolic || !d.isConstant();
        QVERIFY(symbolic);  // the dynamic-shape sample
        std::map<std::string, std::int64_t, std::less<>> symbols;
        for (const auto& n : g.graph.nodes)
            if (n.meta && n.meta->isTensor())
                for (const auto& d : n.meta->tensor.sizes)
                    if (!d.isConstant())
                        for (const auto& s : graph::SymExpr::parse(d.expr).symbols())
                            symbols[s] = 5;
        concretizeMetadata(g, symbols);
        for (const auto& n : g.graph.nodes)
            if (n.meta && n.meta->isTensor())
                for (const auto& d : n.meta->tensor.sizes)
                    QVERIFY2(d.isConstant(), d.expr.c_str());
    }

    void reproScriptNamesTheFailureAndItsInputs()
    {
        const io::LoadedGraph g = io::loadAddress(std::string(FXRAY_TEST_DATA_DIR) + "/faults/wrong_stride");
        CandidateBuilder b(g);
        const int t = g.graph.findNode("t");
        io::LoadedGraph c = b.build({t}, t);
        ReproSpec spec;
        spec.signature = Signature{"mismatch:stride", "aten.t.default", "", "t", "stride of output 0"};
        spec.failingNode = "t";
        const std::string py = writeReproScript(c, spec);
        QVERIFY(py.find("KIND = 'mismatch:stride'") != std::string::npos);
        QVERIFY(py.find("TARGET = 0") != std::string::npos);
        QVERIFY(py.find("t = torch.ops.aten.t.default(primals_1)") != std::string::npos);
        QVERIFY(py.find("(\"tensor\", [128, 64], [64, 1], 0, torch.float32") != std::string::npos);
        QVERIFY(py.find("\"stride\": [128, 1]") != std::string::npos);
        // A failing node that is not an output cannot be checked: an error, not a repro that passes.
        spec.failingNode = "nowhere";
        QVERIFY(!test::expectError([&] { writeReproScript(c, spec); }, {"not an output"}).empty());
    }

    // An AOT joint graph from a TORCH_TRACE log returns `pytree.tree_unflatten([...], self._out_spec)`: its repro
    // (what diverge:output_code's compile child loads for the baseline query) must return the flat outputs, or the
    // child fails with "name 'pytree' is not defined" and a joint graph can never be minimized that way.
    void reproOfAJointGraphReturnsTheFlatOutputs()
    {
        const io::LoadedGraph g =
            io::loadAddress(std::string(FXRAY_SAMPLES_DIR) + "/h100/trace/mlp_encoder_inductor.log#0/0/aot_joint_graph");
        QCOMPARE(static_cast<int>(g.graph.outputForm), static_cast<int>(graph::OutputForm::Pytree));
        ReproSpec spec;
        spec.signature = Signature{"diverge:output_code", "", "", "", ""};
        std::string py;
        try {
            py = writeReproScript(g, spec);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY2(py.find("pytree") == std::string::npos, py.c_str());
        QVERIFY(py.find("        return (") != std::string::npos);
        QVERIFY(py.find("None, ") != std::string::npos);  // the joint's None outputs stay, flat
    }
};

QTEST_APPLESS_MAIN(TestMinimize)
#include "test_minimize.moc"
