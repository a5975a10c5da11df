// Compiled-autograd graphs from TORCH_TRACE (samples/cpu/trace/compiled_autograd*.log, real torch 2.11 CPU runs
// written by tools/capture/compiled_autograd_samples.py): discovery under their "[!N]" id, metadata taken from
// the dynamo_output_graph of their compile, the parse/print round trip, which helper calls need Python and why,
// the CUDA scalar-move rule, and damaged or incomplete logs.
#include "graph/algorithms.h"
#include "graph/compiled_autograd.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"
#include "io/graph_source.h"
#include "io/text_file.h"

#include "test_support.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>
#include <map>

using namespace fxray;

namespace {

const std::string kTrace = std::string(FXRAY_SAMPLES_DIR) + "/cpu/trace/";

std::string caAddress(const std::string& log) { return kTrace + log + "#!0/compiled_autograd_graph"; }

std::map<std::string, int> targetCounts(const graph::Graph& g)
{
    std::map<std::string, int> out;
    for (const auto& n : g.nodes)
        if (n.kind == graph::NodeKind::CallFunction)
            ++out[n.target.str()];
    return out;
}

const graph::Node& node(const graph::Graph& g, const std::string& name)
{
    const int i = g.findNode(name);
    if (i < 0)
        qFatal("no node %s", name.c_str());
    return g.nodes[static_cast<std::size_t>(i)];
}

std::string writeTemp(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.path().toStdString() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// The log's text cut right after `lines` lines of the compiled_autograd_graph payload (a truncated log).
std::string cutInsideCaPayload(const std::string& text, int lines)
{
    std::size_t at = text.find("{\"compiled_autograd_graph\"");
    at = text.find('\n', at);
    for (int k = 0; k < lines; ++k)
        at = text.find('\n', at + 1);
    return text.substr(0, at + 1);
}

}  // namespace

class TestCompiledAutograd : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void traceListsTheGraphUnderItsCompiledAutogradId()
    {
        io::Discovery d = io::discover(kTrace + "compiled_autograd.log");
        int found = 0;
        for (const auto& e : d.graphs) {
            if (e.kind != io::GraphKind::CompiledAutograd)
                continue;
            ++found;
            QCOMPARE(e.address, caAddress("compiled_autograd.log"));
            QCOMPARE(e.group, std::string("[!0]"));
            QVERIFY(e.trace && e.trace->compiledAutogradId == 0 && e.trace->frameId == -1);
        }
        QCOMPARE(found, 1);
        // the address round-trips through the selector parser
        QCOMPARE(io::loadAddress(caAddress("compiled_autograd.log")).entry.kind, io::GraphKind::CompiledAutograd);
    }

    void graphStructureIsWhatTorchLogged()
    {
        io::LoadedGraph lg = io::loadAddress(caAddress("compiled_autograd.log"));
        const graph::Graph& g = lg.graph;
        QCOMPARE(g.nodes.size(), std::size_t(48));
        std::vector<std::string> ph;
        for (int i : g.placeholders())
            ph.push_back(g.nodes[static_cast<std::size_t>(i)].name);
        QCOMPARE(ph, (std::vector<std::string>{"inputs", "sizes", "scalars", "hooks", "packed_data"}));
        auto c = targetCounts(g);
        QCOMPARE(c["getitem"], 15);
        QCOMPARE(c["aten.t.default"], 8);
        QCOMPARE(c["aten.mm.default"], 3);
        QCOMPARE(c["torch__dynamo_external_utils_call_accumulate_grad"], 4);
        QCOMPARE(c["torch__dynamo_compiled_autograd_ops_validate_outputs"], 1);
        QCOMPARE(c["torch__dynamo_compiled_autograd_call_aot_bwd_prologue"], 1);
        // list literal arguments with device(...) and None survive parsing
        const graph::Node& v = node(g, "validate_outputs");
        QCOMPARE(v.args.size(), std::size_t(2));
        QCOMPARE(v.args[1].kind, graph::Arg::Kind::List);
        QCOMPARE(v.args[1].items[0].items[0].items[2].kind, graph::Arg::Kind::Device);
    }

    void metadataComesFromTheDynamoGraphOfItsCompile()
    {
        io::LoadedGraph lg = io::loadAddress(caAddress("compiled_autograd.log"));
        QVERIFY2(lg.warnings.empty(), lg.warnings.empty() ? "" : lg.warnings[0].c_str());
        const graph::Graph& g = lg.graph;
        QVERIFY(node(g, "getitem_1").meta);
        QCOMPARE(graph::formatAnnotation(*node(g, "getitem_1").meta), std::string("f32[4, 8][8, 1]cpu"));
        QCOMPARE(graph::formatAnnotation(*node(g, "aot0_expand").meta), std::string("f32[4, 4][0, 0]cpu"));
        // Python-level helpers return lists and get nothing; neither do the placeholders (the list itself)
        QVERIFY(!node(g, "call_aot_bwd_prologue").meta);
        QVERIFY(!node(g, "inputs").meta);
        int annotated = 0;
        for (const auto& n : g.nodes)
            annotated += n.meta.has_value();
        // the 8 getitems of `inputs`, validate_outputs' getitem, the prologue's 5 getitems, the 20 aten ops
        // (not `hooks[0]`: a Python object)
        QCOMPARE(annotated, 8 + 1 + 5 + 20);
    }

    void printedGraphParsesBackToTheSameGraph()
    {
        for (const char* log : {"compiled_autograd.log", "compiled_autograd_hook.log", "compiled_autograd_eager.log"}) {
            graph::Graph g = io::loadAddress(caAddress(log)).graph;
            graph::Graph again = graph::parseFxModule(graph::printReadable(g), {std::string(log) + " (reprinted)", 1}).graph;
            std::string why;
            QVERIFY2(graph::graphsEqual(g, again, &why), (std::string(log) + ": " + why).c_str());
        }
    }

    void nodesThatNeedPythonAreNamedWithTheReason()
    {
        graph::Graph hook = io::loadAddress(caAddress("compiled_autograd_hook.log")).graph;
        QCOMPARE(graph::compiledAutogradPythonReason(node(hook, "call_hook")),
                 std::string("needs Python: call_hook runs a user hook (tensor_pre_hook)"));
        graph::Graph eager = io::loadAddress(caAddress("compiled_autograd_eager.log")).graph;
        QVERIFY(graph::compiledAutogradPythonReason(node(eager, "mul_backward0")).empty());  // runs natively
        graph::Node other = node(eager, "mul_backward0");
        other.target.op = "torch__dynamo_compiled_autograd_ops_CumsumBackward0";  // one fxray has no node for
        QCOMPARE(graph::compiledAutogradPythonReason(other),
                 std::string("needs Python: compiled autograd runs autograd node CumsumBackward0 through "
                             "torch._dynamo.compiled_autograd.ops"));
        // the helpers of the hook-free graph run natively
        graph::Graph plain = io::loadAddress(caAddress("compiled_autograd.log")).graph;
        int helpers = 0;
        for (const auto& n : plain.nodes) {
            if (graph::compiledAutogradCall(n) == graph::CompiledAutogradCall::None)
                continue;
            ++helpers;
            QVERIFY2(graph::compiledAutogradPythonReason(n).empty(), n.name.c_str());
        }
        QCOMPARE(helpers, 7);
        // a custom Function's backward is user code
        graph::Node custom = node(eager, "mul_backward0");
        custom.target.op = "torch__dynamo_compiled_autograd_ops_CppNodeMyFn0";
        QCOMPARE(graph::compiledAutogradCall(custom), graph::CompiledAutogradCall::CustomFunction);
        QVERIFY(graph::compiledAutogradPythonReason(custom).find("MyFn0 is a custom autograd.Function") !=
                std::string::npos);
    }

    void cpuScalarsMoveOnlyBesideCudaInputsAndOnlyForOpUsers()
    {
        graph::Graph eager = io::loadAddress(caAddress("compiled_autograd_eager.log")).graph;
        QVERIFY(graph::cudaMovableScalarInputs(eager).empty());  // a CPU graph: nothing on CUDA, nothing moves
        // The same graph as if it ran on a GPU: activations on CUDA, the two 0-dim tensors (the root gradient
        // read by validate_outputs, the loss scale read by MulBackward0) stay CPU tensors.
        for (auto& n : eager.nodes)
            if (n.meta && n.meta->isTensor() && !n.meta->tensor.sizes.empty())
                n.meta->tensor.device = graph::Device{"cuda", 0};
        QCOMPARE(graph::cudaMovableScalarInputs(eager), (std::vector<int>{0, 1}));
        // a custom Function reading the scale could look at its device: it stays
        eager.nodes[static_cast<std::size_t>(eager.findNode("mul_backward0"))].target.op =
            "torch__dynamo_compiled_autograd_ops_CppNodeMyFn0";
        QCOMPARE(graph::cudaMovableScalarInputs(eager), (std::vector<int>{0}));
        // compiled forward: the scale goes through call_aot_bwd_prologue (not an op), only the root gradient moves
        graph::Graph plain = io::loadAddress(caAddress("compiled_autograd.log")).graph;
        for (auto& n : plain.nodes)
            if (n.meta && n.meta->isTensor() && !n.meta->tensor.sizes.empty())
                n.meta->tensor.device = graph::Device{"cuda", 0};
        QCOMPARE(graph::cudaMovableScalarInputs(plain), (std::vector<int>{0}));
    }

    void truncatedPayloadIsAnErrorNamingTheRecord()
    {
        QTemporaryDir dir;
        const std::string text = io::readTextFile(kTrace + "compiled_autograd.log");
        const std::string path = writeTemp(dir, "cut.log", cutInsideCaPayload(text, 5));
        const std::string what = test::expectError([&] { io::loadAddress(path + "#!0/compiled_autograd_graph"); },
                                                   {"cut.log:"});
        QVERIFY(!what.empty());
    }

    void missingCompanionGraphIsSaidAndInputsLackMetadata()
    {
        // the log cut right after the whole compiled_autograd_graph record: its compile was never logged
        QTemporaryDir dir;
        const std::string text = io::readTextFile(kTrace + "compiled_autograd.log");
        std::size_t next = text.find("\nV", text.find("{\"compiled_autograd_graph\""));
        const std::string path = writeTemp(dir, "nocompile.log", text.substr(0, next + 1));
        io::LoadedGraph lg = io::loadAddress(path + "#!0/compiled_autograd_graph");
        QCOMPARE(lg.warnings.size(), std::size_t(1));
        QVERIFY(lg.warnings[0].find("no dynamo_output_graph") != std::string::npos);
        QVERIFY(!node(lg.graph, "getitem_1").meta);
    }
};

QTEST_APPLESS_MAIN(TestCompiledAutograd)
#include "test_compiled_autograd.moc"
