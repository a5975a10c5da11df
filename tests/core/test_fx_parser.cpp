// The FX-code parser and printers over every graph form in samples/, and the errors it gives on bad code.
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxray;
using namespace fxray::graph;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Graph parseText(const std::string& text, const std::string& name = "test.py")
{
    return parseFxModule(text, ParseOptions{name, 1}).graph;
}

// Every module.py / *.readable.py under samples/.
std::vector<fs::path> sampleGraphFiles()
{
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(FXRAY_SAMPLES_DIR)) {
        const std::string name = e.path().filename().string();
        if (name == "module.py" || name.ends_with(".readable.py") || name == "fx_graph_readable.py" ||
            name == "fx_graph_runnable.py")
            out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string expectError(const std::string& text)
{
    try {
        parseText(text, "bad.py");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

class TestFxParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesModulePyWithFreesAndTupleReturn()
    {
        Graph g = parseText(readFile(fs::path(FXRAY_SAMPLES_DIR) / "h100/dumps/mlp/mlp_forward_0/module.py"));
        QCOMPARE(g.className, std::string("FxModule"));
        QCOMPARE(g.placeholders().size(), std::size_t(5));
        QCOMPARE(g.nodes.size(), std::size_t(12));  // 5 placeholders + 6 ops + output
        const Node& addmm = g.nodes[static_cast<std::size_t>(g.findNode("addmm"))];
        QCOMPARE(addmm.target.str(), std::string("aten.addmm.default"));
        QCOMPARE(addmm.args.size(), std::size_t(3));
        QCOMPARE(addmm.args[0].node, g.findNode("primals_2"));
        // "primals_2 = t = None" after addmm
        QCOMPARE(addmm.frees.size(), std::size_t(2));
        QCOMPARE(g.nodes[static_cast<std::size_t>(addmm.frees[1])].name, std::string("t"));
        QCOMPARE(g.outputForm, OutputForm::Tuple);
    }

    void parsesReadableAnnotationsAndStackComments()
    {
        Graph g = parseText(readFile(fs::path(FXRAY_SAMPLES_DIR) / "h100/dumps/mlp/mlp_forward_0/mlp_forward_0.readable.py"));
        const Node& p1 = g.nodes[0];
        QVERIFY(p1.meta && p1.meta->isTensor());
        QCOMPARE(formatAnnotation(*p1.meta), std::string("f32[128, 64][64, 1]cuda:0"));
        const Node& t = g.nodes[static_cast<std::size_t>(g.findNode("t"))];
        QCOMPARE(formatAnnotation(*t.meta), std::string("f32[64, 128][1, 64]cuda:0"));
        QVERIFY(t.stack >= 0);
        const StackFrame& f = g.stacks[static_cast<std::size_t>(t.stack)];
        QCOMPARE(f.file, std::string("/src/lab/gen_dumps.py"));
        QCOMPARE(f.line, 36);
        QCOMPARE(f.function, std::string("forward"));
        QVERIFY(f.code.rfind("def forward(s, x)", 0) == 0);
    }

    void parsesPytreeJointForm()
    {
        Graph g = parseText(readFile(fs::path(FXRAY_SAMPLES_DIR) / "h100/dumps/embed_ce/embed_ce_joint_0/embed_ce_joint_0.readable.py"));
        QCOMPARE(g.pytreeInputs, (std::vector<std::string>{"primals", "tangents"}));
        QCOMPARE(g.placeholders().size(), std::size_t(6));
        QCOMPARE(g.nodes[1].name, std::string("primals_2"));
        QCOMPARE(formatAnnotation(*g.nodes[1].meta), std::string("i64[8, 32][32, 1]cuda:0"));
        QCOMPARE(formatAnnotation(*g.nodes[5].meta), std::string("f32[][]cuda:0"));
        QCOMPARE(g.outputForm, OutputForm::Pytree);
        const Node& nll = g.nodes[static_cast<std::size_t>(g.findNode("nll_loss_forward"))];
        QCOMPARE(nll.args[2].kind, Arg::Kind::None);
        QCOMPARE(nll.args[4].i, std::int64_t(-100));
        const Node& gi = g.nodes[static_cast<std::size_t>(g.findNode("getitem_1"))];
        QCOMPARE(gi.target.kind, Target::Kind::Getitem);
        QCOMPARE(gi.args[1].i, std::int64_t(1));
    }

    void everySampleRoundTripsThroughBothPrinters()
    {
        auto files = sampleGraphFiles();
        QVERIFY(files.size() >= 18);
        for (const auto& f : files) {
            Graph g = parseFxModule(readFile(f), ParseOptions{f.string(), 1}).graph;
            QVERIFY2(g.outputNode() == static_cast<int>(g.nodes.size()) - 1, f.c_str());
            for (auto printer : {&printFxModule, &printReadable}) {
                std::string text = printer(g);
                Graph again = parseText(text, f.string() + " (reprinted)");
                std::string why;
                bool annotationsKept = printer == &printReadable;
                Graph expected = g;
                if (!annotationsKept) {  // module.py carries no annotations or stack comments
                    for (Node& n : expected.nodes) {
                        n.meta.reset();
                        n.stack = -1;
                    }
                    for (Node& n : again.nodes)
                        n.stack = -1;
                }
                QVERIFY2(graphsEqual(expected, again, &why), (f.string() + ": " + why).c_str());
                QCOMPARE(structuralHash(again), structuralHash(expected));
            }
        }
    }

    void readableAndModuleOfOneDumpAreTheSameGraph()
    {
        const fs::path dir = fs::path(FXRAY_SAMPLES_DIR) / "h100/dumps/cnn_channels_last/cnn_channels_last_backward_0";
        Graph code = parseText(readFile(dir / "module.py"));
        Graph readable = parseText(readFile(dir / "cnn_channels_last_backward_0.readable.py"));
        QCOMPARE(code.nodes.size(), readable.nodes.size());
        for (std::size_t i = 0; i < code.nodes.size(); ++i) {
            QCOMPARE(code.nodes[i].name, readable.nodes[i].name);
            QCOMPARE(code.nodes[i].args, readable.nodes[i].args);
        }
    }

    void parsesEveryLiteralForm()
    {
        const std::string text = readFile(fs::path(FXRAY_TEST_DATA_DIR) / "fx/literals.py");
        Graph g = parseText(text);
        const Node& a = g.nodes[static_cast<std::size_t>(g.findNode("a"))];
        QCOMPARE(a.args[1].kind, Arg::Kind::Float);
        QVERIFY(std::isinf(a.args[1].f) && a.args[1].f < 0);
        QCOMPARE(a.kwargs.size(), std::size_t(4));
        QCOMPARE(a.kwargs[2].second.device.str(), std::string("cuda:0"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("b"))].kwargs[0].second.s, std::string("channels_last"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("c"))].args[3].i, std::int64_t(9223372036854775807));
        const Node& e = g.nodes[static_cast<std::size_t>(g.findNode("e"))];
        QCOMPARE(e.args[3].s, std::string("str\"q"));
        QCOMPARE(e.args[4].kind, Arg::Kind::Tuple);
        QCOMPARE(e.args[5].kind, Arg::Kind::Tuple);
        QCOMPARE(e.args[7].kind, Arg::Kind::Slice);
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("mul"))].target.str(), std::string("operator.mul"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("floordiv"))].target.op, std::string("floordiv"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("neg"))].target.op, std::string("neg"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("m"))].kind, NodeKind::CallMethod);
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("_tensor_constant0"))].kind, NodeKind::GetAttr);
        QCOMPARE(g.nodes[0].meta->tensor.sizes[0].expr, std::string("s0"));
        QCOMPARE(g.nodes[1].meta->kind, ValueMeta::Kind::SymInt);
        QCOMPARE(g.outputForm, OutputForm::List);
        // and it survives printing
        std::string why;
        QVERIFY2(graphsEqual(g, parseText(printReadable(g)), &why), why.c_str());
    }

    void parsesLoadArgsOfRunnableScripts()
    {
        const std::string text = readFile(fs::path(FXRAY_TEST_DATA_DIR) / "fx/runnable_load_args.py");
        ParsedModule m = parseFxModule(text, ParseOptions{"runnable.py", 1});
        QVERIFY(m.hasLoadArgs);
        QCOMPARE(m.loadArgs.size(), std::size_t(3));
        QCOMPARE(formatAnnotation(m.loadArgs[0].meta), std::string("f32[4, 64, 256][16384, 256, 1]cuda:0"));
        QCOMPARE(m.loadArgs[0].name, std::string("primals_1"));
        QCOMPARE(formatAnnotation(m.loadArgs[1].meta), std::string("i64[8, 8][1, 8]cuda:0"));
        QCOMPARE(*m.loadArgs[1].meta.tensor.storageOffset->value, std::int64_t(4));
        QCOMPARE(m.loadArgs[2].meta.kind, ValueMeta::Kind::SymInt);
        QCOMPARE(m.loadArgs[2].meta.symExpr, std::string("150"));
        QCOMPARE(m.graph.className, std::string("Repro"));
    }

    void dynamoPlaceholderRenameKeepsArgumentName()
    {
        Graph g = parseText(readFile(fs::path(FXRAY_TEST_DATA_DIR) / "fx/dynamo_rename.py"));
        QCOMPARE(g.nodes[0].name, std::string("l_x_"));
        QCOMPARE(g.nodes[0].attr, std::string("L_x_"));
        QCOMPARE(g.nodes[1].target.kind, Target::Kind::Python);
        std::string why;
        QVERIFY2(graphsEqual(g, parseText(printReadable(g)), &why), why.c_str());
    }

    void errorsNameFileLineColumnAndText()
    {
        std::string e = expectError("class G(torch.nn.Module):\n    def forward(self, x):\n        y = x if x else x\n        return (y,)\n");
        QVERIFY2(e.find("bad.py:3:") != std::string::npos, e.c_str());
        QVERIFY2(e.find("y = x if x else x") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        y = torch.ops.aten.relu.default(z)\n        return (y,)\n");
        QVERIFY2(e.find("undefined name 'z'") != std::string::npos && e.find("bad.py:3:41") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x: \"q32[4]\"):\n        return (x,)\n");
        QVERIFY2(e.find("unknown dtype 'q32'") != std::string::npos && e.find("bad.py:2:") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        for i in x:\n            pass\n        return (x,)\n");
        QVERIFY2(e.find("bad.py:3:") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        y = torch.ops.aten.relu.default(x\n");
        QVERIFY2(e.find("unclosed") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        y = torch.ops.aten.relu.default(x)\n");
        QVERIFY2(e.find("no return") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        x = torch.ops.aten.relu.default(x)\n        return (x,)\n");
        QVERIFY2(e.find("duplicate name 'x'") != std::string::npos, e.c_str());

        e = expectError("import torch\nprint('no graph here')\n");
        QVERIFY2(e.find("no graph found") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x: \"f32[4, 4][1]cpu\"):\n        return (x,)\n");
        QVERIFY2(e.find("stride has 1 entries but size has 2") != std::string::npos, e.c_str());

        e = expectError("class G:\n    def forward(self, x):\n        y = 'unterminated\n        return (x,)\n");
        QVERIFY2(e.find("unterminated string") != std::string::npos, e.c_str());
    }

    void annotationForms()
    {
        SourceLocation here{"t", 1, 1, {}};
        QCOMPARE(formatAnnotation(parseAnnotation("i64[]", here)), std::string("i64[]"));
        QCOMPARE(formatAnnotation(parseAnnotation("f32[s0, 2*s0 + 1][Max(1, s0), 1]cuda:1", here)),
                 std::string("f32[s0, 2*s0 + 1][Max(1, s0), 1]cuda:1"));
        QCOMPARE(parseAnnotation("b8[4]", here).tensor.dtype, DType::Bool);
        QVERIFY(!parseAnnotation("bf16[2, 3]", here).tensor.strides.has_value());
        QCOMPARE(parseAnnotation("Sym(Eq(s0, 4))", here).kind, ValueMeta::Kind::SymBool);
        QVERIFY_THROWS_EXCEPTION(Error, parseAnnotation("f32[4", here));
        QVERIFY_THROWS_EXCEPTION(Error, parseAnnotation("f32[4]cuda:x", here));
        QVERIFY_THROWS_EXCEPTION(Error, parseAnnotation("f32[4;]", here));
    }

    void floatReprMatchesPython()
    {
        QCOMPARE(pythonFloatRepr(1e-05), std::string("1e-05"));
        QCOMPARE(pythonFloatRepr(0.1), std::string("0.1"));
        QCOMPARE(pythonFloatRepr(100000.0), std::string("100000.0"));
        QCOMPARE(pythonFloatRepr(1e16), std::string("1e+16"));
        QCOMPARE(pythonFloatRepr(-0.0001), std::string("-0.0001"));
        QCOMPARE(pythonFloatRepr(0.125), std::string("0.125"));
        QCOMPARE(pythonFloatRepr(2.0), std::string("2.0"));
    }
};

QTEST_APPLESS_MAIN(TestFxParser)
#include "test_fx_parser.moc"
