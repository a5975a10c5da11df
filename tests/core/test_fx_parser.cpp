// The FX-code parser and printers over every graph form in samples/, and the errors it gives on bad code.
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"
#include "graph/sym_expr.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxray;
using namespace std::string_literals;
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

    // The code panel maps nodes to lines from the printer's own count (no second parse of 100k lines): it must be
    // what parsing the printed text says, for every sample (pytree inputs, in-place statements, renamed inputs too),
    // also with the signature written one parameter per line (what the panel does with thousands of inputs).
    void printerLineMapIsWhatAReparseSays()
    {
        std::vector<fs::path> files = sampleGraphFiles();
        files.push_back(fs::path(FXRAY_TEST_DATA_DIR) / "fx/dynamo_rename.py");
        int checked = 0;
        const auto check = [&](const fs::path& f, std::size_t wrap) {
            const Graph g = parseFxModule(readFile(f), ParseOptions{f.string(), 1}).graph;
            std::vector<int> lines;
            const std::string text = printReadableWithLines(g, lines, wrap);
            if (wrap == SIZE_MAX)
                QCOMPARE(text, printReadable(g));
            else if (g.pytreeInputs.empty() && !g.placeholders().empty())
                QVERIFY(text.find("def forward(\n") != std::string::npos);
            const Graph again = parseText(text, f.string() + " (reprinted)");
            std::string why;
            QVERIFY2(graphsEqual(g, again, &why), (f.string() + ": " + why).c_str());
            QCOMPARE(lines.size(), g.nodes.size());
            for (std::size_t i = 0; i < g.nodes.size(); ++i) {
                const int at = again.findNode(g.nodes[i].name);
                QVERIFY2(at >= 0, g.nodes[i].name.c_str());
                QVERIFY2(lines[i] == again.nodes[static_cast<std::size_t>(at)].line,
                         (f.string() + ": " + g.nodes[i].name + " printed at line " + std::to_string(lines[i]) + ", parsed at " +
                          std::to_string(again.nodes[static_cast<std::size_t>(at)].line)).c_str());
                ++checked;
            }
        };
        for (const auto& f : files) {
            check(f, SIZE_MAX);
            check(f, 0);
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(checked > 1000);
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

    // Inductor writes the storage of a dynamic-shape CUDA attention output (padded rows) with sympy functions and
    // parenthesised terms (Qwen2's dynamic recipe on an H100); the size expression of a storage is not a value.
    void loadArgsStorageSizesMayCallSympyFunctions()
    {
        const std::string text =
            "class Repro(torch.nn.Module):\n"
            "    def forward(self, primals_1, buf):\n"
            "        relu = torch.ops.aten.relu.default(buf)\n"
            "        return (relu,)\n"
            "\n"
            "def load_args(reader):\n"
            "    reader.symint(16)  # primals_1\n"
            "    buf28 = reader.storage(None, 4*s27*Max(1, s27 - (Mod(s27, 8)) + 8) + 4*(s27 - 1)*Max(1, s27 - "
            "(Mod(s27, 8)) + 8) - 4*(Mod(s27, 8)) + 32, device=device(type='cuda', index=0))\n"
            "    reader.tensor(buf28, (2, (s27 + 1)*(2 + s27)), dtype=torch.float32)  # buf\n"
            "load_args._version = 0\n"
            "mod = Repro()\n";
        ParsedModule m = parseFxModule(text, ParseOptions{"runnable.py", 1});
        QCOMPARE(m.loadArgs.size(), std::size_t(2));
        QCOMPARE(m.loadArgs[1].meta.tensor.sizes[1].expr, std::string("(s27+1)*(2+s27)"));
        QCOMPARE(m.loadArgs[1].meta.tensor.device->str(), std::string("cuda:0"));
        QVERIFY_THROWS_EXCEPTION(Error, parseFxModule("class Repro(torch.nn.Module):\n"
                                                     "    def forward(self, buf):\n"
                                                     "        return (buf,)\n"
                                                     "def load_args(reader):\n"
                                                     "    buf0 = reader.storage(None, Max(1 2), device=device(type='cpu'))\n"
                                                     "mod = Repro()\n",
                                                     ParseOptions{"runnable.py", 1}));
    }

    void runnableOfAGraphWithoutInputsLoadsDespiteItsEmptyLoadArgs()
    {
        // torch 2.11 writes "def load_args(reader):" with no body when the graph has no inputs (Python refuses it;
        // seen in inductor traces of BART and Whisper).
        const std::string text = "class Repro(torch.nn.Module):\n"
                                 "    def forward(self):\n"
                                 "        iota = torch.ops.prims.iota.default(16, start = 0, step = 1, dtype = torch.int64, "
                                 "device = device(type='cpu'), requires_grad = False)\n"
                                 "        return (iota,)\n"
                                 "\n"
                                 "def load_args(reader):\n"
                                 "load_args._version = 0\n"
                                 "mod = Repro()\n";
        ParsedModule m = parseFxModule(text, ParseOptions{"runnable.py", 1});
        QVERIFY(m.hasLoadArgs && m.loadArgs.empty());
        QCOMPARE(m.graph.nodes[static_cast<std::size_t>(m.graph.findNode("iota"))].line, 3);  // lines stay right
        QCOMPARE(m.graph.nodes.size(), std::size_t(2));
    }

    void attributeAccessOnANodeIsAGetattrCall()
    {
        // FX prints call_function(getattr, (x, 'T')) as "x.T" (CLIP's dynamo graph: logits_per_text.T).
        Graph g = parseText("class G(torch.nn.Module):\n"
                            "    def forward(self, x: \"f32[2, 3][3, 1]cpu\"):\n"
                            "        getattr_1: \"f32[3, 2][1, 3]cpu\" = x.T\n"
                            "        return (getattr_1,)\n");
        const Node& n = g.nodes[static_cast<std::size_t>(g.findNode("getattr_1"))];
        QCOMPARE(n.target.kind, Target::Kind::Python);
        QCOMPARE(n.target.op, std::string("getattr"));
        QVERIFY(n.args.size() == 2 && n.args[0].kind == Arg::Kind::Node && n.args[1].s == "T");
        std::string why;
        QVERIFY2(graphsEqual(g, parseText(printReadable(g)), &why), why.c_str());
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

    // A compiled tensor-parallel step's dynamo graph annotates its DTensor parameters with their global shape and
    // placements (torch/fx/graph.py); "int" / "float" is how an input record's unhinted number prints.
    void tensorSubclassAndUnhintedNumberAnnotations()
    {
        SourceLocation here{"t", 1, 1, {}};
        const ValueMeta d = parseAnnotation("DTensor(f32[256, 64][64, 1]cpu, S(0))", here);
        QVERIFY(d.isTensor());
        QCOMPARE(d.tensor.subclass, std::string("DTensor"));
        QCOMPARE(d.tensor.subclassDetail, std::string("S(0)"));
        QCOMPARE(d.tensor.sizes.size(), std::size_t(2));
        QCOMPARE(*d.tensor.sizes[0].value, std::int64_t(256));
        QCOMPARE(formatAnnotation(d), std::string("DTensor(f32[256, 64][64, 1]cpu, S(0))"));
        QCOMPARE(parseAnnotation("DTensor(bf16[8, s0][s0, 1]cuda:0, PS(1)[1]S(1)[0]R)", here).tensor.subclassDetail,
                 std::string("PS(1)[1]S(1)[0]R"));
        QCOMPARE(parseAnnotation("TwoTensor(f32[4][1]cpu)", here).tensor.subclass, std::string("TwoTensor"));
        QCOMPARE(parseAnnotation("int", here).kind, ValueMeta::Kind::Int);
        QCOMPARE(formatAnnotation(parseAnnotation("int", here)), std::string("int"));
        QCOMPARE(parseAnnotation("float", here).kind, ValueMeta::Kind::Float);
        QVERIFY_THROWS_EXCEPTION(Error, parseAnnotation("DTensor(nonsense, S(0))", here));
        QVERIFY_THROWS_EXCEPTION(Error, parseAnnotation("DTensor(DTensor(f32[4][1]cpu))", here));
    }

    // ---- bad input (tests/data/bad/fx, made by make_bad_fx.py, holds a file for each of these) ----------

    // A graph in the shape print_readable writes, for the tests below to break.
    static std::string graphText(const std::string& body = "        y: \"f32[4][1]cpu\" = torch.ops.aten.relu.default(x)\n"
                                                            "        return (y,)\n")
    {
        return "class G(torch.nn.Module):\n    def forward(self, x: \"f32[4][1]cpu\"):\n" + body;
    }

    void bomAndEveryLineEndLoadAndCountLines()
    {
        // utf8_bom.py failed with "unexpected character" at 1:1; cr_only.py's errors quoted the wrong line.
        const std::string text = graphText();
        QCOMPARE(parseText("\xEF\xBB\xBF" + text).nodes.size(), std::size_t(3));
        for (const std::string eol : {"\r\n", "\r"}) {
            std::string t = "\xEF\xBB\xBF" + graphText("        y = torch.ops.aten.relu.default(z)\n        return (y,)\n");
            for (std::size_t at = 0; (at = t.find('\n', at)) != std::string::npos; at += eol.size())
                t.replace(at, 1, eol);
            const std::string e = expectError(t);
            QVERIFY2(e.find("bad.py:3:41: node 'y': undefined name 'z'\n    y = torch.ops.aten.relu.default(z)") == 0, e.c_str());
            QVERIFY2(e.find('\r') == std::string::npos, e.c_str());
        }
    }

    void textThatIsNotUtf8IsRefusedAtItsFirstBadByte()
    {
        // latin1_comment.py loaded, stray bytes and all; latin1_annotation.py gave a garbled device error.
        std::string e = expectError(graphText("        # File: mod\xE8le.py:3 in f\n        return (x,)\n"));
        QVERIFY2(e.find("bad.py:3:20: not UTF-8 text: byte 0xE8") == 0, e.c_str());
        QVERIFY2(e.find("mod\\xE8le.py") != std::string::npos, e.c_str());  // the excerpt shows the byte escaped
        for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x9C"})  // overlong, surrogate, > U+10FFFF, cut
            QVERIFY(expectError(graphText("        # " + std::string(bad) + "\n        return (x,)\n")).find("not UTF-8") != std::string::npos);
        QCOMPARE(parseText(graphText("        # \xE2\x9C\x93 \xF0\x9F\x98\x80\n        return (x,)\n")).nodes.size(), std::size_t(2));
    }

    void unexpectedCharactersAreShownWholeAndPrintable()
    {
        // nul_byte.py's message stopped at the NUL (what() is a C string); utf8_identifier.py's quoted half a character.
        std::string e = expectError(graphText("        y = torch.ops.aten.relu.default(x\0x)\n        return (y,)\n"s));
        QVERIFY2(e.find("bad.py:3:42: unexpected character '\\x00'\n") == 0, e.c_str());
        QVERIFY2(e.find("y = torch.ops.aten.relu.default(x\\x00x)") != std::string::npos, e.c_str());
        e = expectError(graphText("        rel\xC3\xBC = torch.ops.aten.relu.default(x)\n        return (x,)\n"));
        QVERIFY2(e.find("bad.py:3:12: unexpected character '\xC3\xBC' (U+00FC)") == 0, e.c_str());
        // A NUL decoded from an escape inside an annotation string is escaped in the message too.
        e = expectError("class G:\n    def forward(self, x: \"f32[4]\\x00\"):\n        return (x,)\n");
        QVERIFY2(e.find("bad device '\\x00'") != std::string::npos && e.find('\0') == std::string::npos, e.c_str());
    }

    void pythonIndentationRulesHold()
    {
        // Consistent tabs load (tab stops of 8), as in python.
        QCOMPARE(parseText("class G:\n\tdef forward(self, x):\n\t\ty = torch.ops.aten.relu.default(x)\n\t\treturn (y,)\n").nodes.size(),
                 std::size_t(3));
        // mixed_tabs_spaces.py, unindent_mismatch.py, unexpected_indent.py loaded, or failed as "no return statement".
        std::string e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\n\treturn (y,)\n"));
        QVERIFY2(e.find("bad.py:4:2: inconsistent use of tabs and spaces in indentation") == 0, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\n      return (y,)\n"));
        QVERIFY2(e.find("bad.py:4:7: unindent does not match any outer indentation level") == 0, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\n            return (y,)\n"));
        QVERIFY2(e.find("bad.py:4:13: unexpected indent") == 0, e.c_str());
        e = expectError(graphText("y = torch.ops.aten.relu.default(x)\n"));
        QVERIFY2(e.find("bad.py:3:1: expected an indented block after line 2") == 0, e.c_str());
        // A block opener at the end (trunc_class_body.py said "no graph found"); comments are no block.
        e = expectError("class G(torch.nn.Module):\n    # only a comment\n");
        QVERIFY2(e.find("bad.py:1:1: expected an indented block after line 1, but the text ends (truncated?)") == 0, e.c_str());
        // A snippet may start indented: its first statement sets the base level.
        QCOMPARE(parseText("    class G:\n        def forward(self, x):\n            return (x,)\n").nodes.size(), std::size_t(2));
    }

    void truncatedTextPointsAtWhatItStopsInside()
    {
        // trunc_def_multiline.py pointed at the end (8:1) with an empty excerpt.
        std::string e = expectError("class G:\n    def forward(\n        self,\n        x: \"f32[4]\",\n");
        QVERIFY2(e.find("bad.py:2:16: unclosed '(': the text ends inside it (truncated?)\n") == 0, e.c_str());
        QVERIFY2(e.ends_with("def forward("), e.c_str());  // the excerpt is the line the bracket opens
        e = expectError(graphText("        y: \"f32[4"));
        QVERIFY2(e.find("bad.py:3:12: unterminated string: the text ends inside it (truncated?)") == 0, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\n"));
        QVERIFY2(e.find("no return statement (the text ends inside forward(): truncated?)") != std::string::npos, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\nz = 1\n"));
        QVERIFY2(e.find("no return statement\n") != std::string::npos, e.c_str());
        // trunc_def_colon.py: "def forward(...)" without its ':' said "no return statement".
        e = expectError("class G:\n    def forward(self, x)\n");
        QVERIFY2(e.find("bad.py:2:24: expected ':' after the parameters of forward()") == 0, e.c_str());
        QCOMPARE(parseText("class G:\n    def forward(self, x) -> None:  # c\n        return (x,)\n").nodes.size(), std::size_t(2));
        // trunc_mid_frees.py: "a = b =" named a node it is not and said "unexpected '='".
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x);  x = \n        return (y,)\n"));
        QVERIFY2(e.find("bad.py:3:48: missing value after '='") == 0, e.c_str());
    }

    void returnIsLastAndCarriesAValue()
    {
        // statement_after_return.py loaded a node after the output node; return_bare.py loaded as "return None".
        std::string e = expectError(graphText("        return (x,)\n        y = torch.ops.aten.relu.default(x)\n"));
        QVERIFY2(e.find("bad.py:4:9: statement after the return statement (line 3)") == 0, e.c_str());
        e = expectError(graphText("        return\n"));
        QVERIFY2(e.find("bad.py:3:9: node 'output': 'return' without a value") == 0, e.c_str());
        QCOMPARE(parseText(graphText("        return ()\n")).outputForm, OutputForm::Tuple);
        QCOMPARE(parseText(graphText("        return None\n")).outputForm, OutputForm::Single);
    }

    void namesUsedTooEarlyTwiceOrByThemselvesSayWhere()
    {
        std::string e = expectError(graphText("        y = torch.ops.aten.relu.default(z)\n        z = torch.ops.aten.relu.default(x)\n        return (y,)\n"));
        QVERIFY2(e.find("bad.py:3:41: node 'y': undefined name 'z': it is defined later, on line 4") == 0, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(y)\n        return (y,)\n"));
        QVERIFY2(e.find("node 'y': undefined name 'y': a node cannot use its own value") != std::string::npos, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x)\n        y = torch.ops.aten.relu.default(x)\n        return (y,)\n"));
        QVERIFY2(e.find("bad.py:4:9: node 'y': duplicate name 'y' (first defined on line 3)") == 0, e.c_str());
        e = expectError("class G:\n    def forward(self, x, x):\n        return (x,)\n");
        QVERIFY2(e.find("bad.py:2:26: node 'x': duplicate name 'x'") == 0, e.c_str());
        e = expectError(graphText("        y = torch.ops.aten.relu.default(x);  w = None\n        return (y,)\n"));
        QVERIFY2(e.find("bad.py:3:46: node 'y': frees undefined name 'w'") == 0, e.c_str());
        // A free ("z = None") is no definition: a use of z before it stays a plain undefined name.
        e = expectError(graphText("        y = torch.ops.aten.relu.default(z)\n        z = None\n        return (y,)\n"));
        QVERIFY2(e.find("undefined name 'z'\n") != std::string::npos, e.c_str());
    }

    void pythonStatementsInForwardAreNamed()
    {
        std::string e = expectError(graphText("        pass\n        return (x,)\n"));
        QVERIFY2(e.find("bad.py:3:9: unsupported statement 'pass'") == 0, e.c_str());
        e = expectError(graphText("        if x:\n            y = x\n        return (x,)\n"));
        QVERIFY2(e.find("bad.py:3:9: unsupported statement 'if'") == 0, e.c_str());
    }

    void annotationSizesMustDescribeAnAddressableTensor()
    {
        SourceLocation here{"a.py", 2, 5, "x"};
        auto error = [&](const char* text) {
            try {
                parseAnnotation(text, here);
            } catch (const Error& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        // annot_int64_overflow.py loaded its size as a symbol named "99999999999999999999".
        QVERIFY(error("f32[99999999999999999999]").starts_with("a.py:2:5: node 'x': size/stride entry '99999999999999999999' is out of int64 range"));
        QVERIFY(error("f32[4][99999999999999999999]").find("out of int64 range") != std::string::npos);
        // annot_huge_sizes.py / annot_huge_stride.py loaded: numel or the last offset overflow int64.
        QVERIFY(error("f32[99999999999999, 99999999999999]").find("sizes multiply to more than 2^63 - 1 elements") != std::string::npos);
        QVERIFY(error("f32[10, 64][9223372036854775807, 1]").find("address elements beyond offset 2^63 - 1") != std::string::npos);
        // Huge but representable, empty, or symbolic: fine.
        QCOMPARE(parseAnnotation("f32[99999999999999][1]cpu", here).tensor.sizes.size(), std::size_t(1));
        QCOMPARE(parseAnnotation("f32[0, 9223372036854775807][9223372036854775807, 1]", here).tensor.sizes.size(), std::size_t(2));
        QCOMPARE(parseAnnotation("f32[s0, 99999999999999, 99999999999999]", here).tensor.sizes.size(), std::size_t(3));
        QCOMPARE(parseAnnotation("f32[1, 4][9223372036854775807, 1]", here).tensor.sizes.size(), std::size_t(2));
    }

    void annotationNestingIsBoundedAtLoad()
    {
        // deep_annotation.py loaded; replay's SymExpr would have refused it later, without file or line.
        SourceLocation here{"a.py", 2, 5, "x"};
        const std::string deep = "f32[" + std::string(kMaxSymExprDepth + 1, '(') + "s0" + std::string(kMaxSymExprDepth + 1, ')') + "]";
        try {
            parseAnnotation(deep, here);
            QFAIL("no error");
        } catch (const Error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("nested deeper than 200 parentheses") != std::string::npos, what.c_str());
            QVERIFY2(what.size() < 300, what.c_str());  // the annotation is quoted cut short
        }
        const std::string fine = "f32[" + std::string(20, '(') + "s0" + std::string(20, ')') + "]";
        QCOMPARE(parseAnnotation(fine, here).tensor.sizes.size(), std::size_t(1));
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
