// TorchScript IR text and lazy-tensor IR dumps (text, DOT): the graphs fxray reads from the committed fixtures
// (samples/cpu/torchscript, samples/cpu/ltc: counts as tools/capture/ir_samples.py printed them into MANIFEST.json),
// print/parse round trips, discovery, and errors with file and line on bad input.
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/lazy_ir_parser.h"
#include "graph/node_namer.h"
#include "graph/printer.h"
#include "graph/torchscript_parser.h"
#include "io/graph_source.h"
#include "io/text_file.h"
#include "render/dot_writer.h"
#include "test_support.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>

using namespace fxray;
using namespace fxray::graph;
namespace fs = std::filesystem;

namespace {

const std::string kTs = std::string(FXRAY_SAMPLES_DIR) + "/cpu/torchscript/";
const std::string kLtc = std::string(FXRAY_SAMPLES_DIR) + "/cpu/ltc/";

Graph loadTs(const std::string& path) { return parseTorchScript(test::readAll(path), path); }

std::vector<std::string> targets(const Graph& g)
{
    std::vector<std::string> out;
    for (const Node& n : g.nodes)
        if (n.kind == NodeKind::CallFunction)
            out.push_back(n.target.kind == Target::Kind::Op ? n.target.ns + "::" + n.target.op : n.target.str());
    return out;
}

int count(const Graph& g, NodeKind kind)
{
    return static_cast<int>(std::count_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.kind == kind; }));
}

std::string meta(const Graph& g, const std::string& name)
{
    const int i = g.findNode(name);
    if (i < 0)
        return "<no node " + name + ">";
    const Node& n = g.nodes[static_cast<std::size_t>(i)];
    return n.meta ? formatAnnotation(*n.meta) : "-";
}

std::string expr(const Graph& g, const std::string& name)
{
    const int i = g.findNode(name);
    return i < 0 ? "<no node " + name + ">" : formatNodeExpr(g, g.nodes[static_cast<std::size_t>(i)]);
}

}  // namespace

class TestIrParsers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void torchScriptTracedFunction()
    {
        // MANIFEST: inputs 5, 11 statements of which 4 prim::Constant and 2 prim::TupleConstruct (inlined as
        // literals), so 5 op statements; aten::max has two outputs: one tuple node + 2 getitems.
        const Graph g = loadTs(kTs + "mlp.ts.txt");
        QCOMPARE(count(g, NodeKind::Placeholder), 5);
        QCOMPARE(g.nodes.size(), std::size_t(5 + 5 + 2 + 1));
        QCOMPARE(targets(g), (std::vector<std::string>{"aten::linear", "aten::relu", "aten::linear", "aten::log_softmax",
                                                        "aten::max", "getitem", "getitem"}));
        QCOMPARE(meta(g, "x"), std::string("f32[4, 8][8, 1]cpu"));
        QCOMPARE(meta(g, "b1"), std::string("f32[16][1]cpu"));
        QCOMPARE(meta(g, "input"), std::string("f32[4, 16][16, 1]cpu"));  // TorchScript's own names are kept
        QCOMPARE(meta(g, "max"), std::string("-"));                        // a tuple value carries none
        QCOMPARE(meta(g, "getitem_1"), std::string("i64[4][1]cpu"));
        // Constants are literal arguments, as FX prints them; the plain parser knows no overloads.
        QCOMPARE(expr(g, "log_softmax"), std::string("torch.ops.aten.log_softmax(linear, -1, None)"));
        QCOMPARE(expr(g, "max"), std::string("torch.ops.aten.max(h, 1, False)"));
        QCOMPARE(g.outputForm, OutputForm::Tuple);
        QCOMPARE(formatArg(g, g.nodes.back().args[0]), std::string("(log_softmax, (getitem, getitem_1))"));
        // "# tools/capture/ir_samples.py:47:0" -> a stack frame at file:line
        const Node& first = g.nodes[static_cast<std::size_t>(g.findNode("input"))];
        QVERIFY(first.stack >= 0);
        QCOMPARE(g.stacks[static_cast<std::size_t>(first.stack)].file, std::string("tools/capture/ir_samples.py"));
        QCOMPARE(g.stacks[static_cast<std::size_t>(first.stack)].line, 47);
        QCOMPARE(first.line, 6);
    }

    void torchScriptTracedModule()
    {
        // inlined_graph of a traced nn.Module: %self is no input; GetAttr chains are get_attr paths; ", scope:" read.
        const Graph g = loadTs(kTs + "cnn.ts.txt");
        QCOMPARE(count(g, NodeKind::Placeholder), 1);
        QCOMPARE(count(g, NodeKind::GetAttr), 8);
        QCOMPARE(count(g, NodeKind::CallFunction), 6);
        std::vector<std::string> attrs;
        for (const Node& n : g.nodes)
            if (n.kind == NodeKind::GetAttr)
                attrs.push_back(n.attr);
        QVERIFY(std::find(attrs.begin(), attrs.end(), "conv.weight") != attrs.end());
        QVERIFY(std::find(attrs.begin(), attrs.end(), "bn.running_var") != attrs.end());
        QCOMPARE(expr(g, "input_3"), std::string("torch.ops.aten.batch_norm(input_1, bn_weight, bn_bias, bn_running_mean, "
                                                 "bn_running_var, False, 0.1, 1e-05, True)"));
        QCOMPARE(expr(g, "input"), std::string("torch.ops.aten.mean(relu, [2, 3], False, None)"));
        QCOMPARE(meta(g, "softmax"), std::string("f32[2, 5][5, 1]cpu"));
    }

    void lazyTextDotAndBackendAgree()
    {
        // MANIFEST: 9 IR nodes, 3 of them device_data; DOT: 9 nodes, 8 edges (= the operands of the text dump).
        const Graph text = parseLazyIrText(test::readAll(kLtc + "mlp.ltc.txt"), "mlp.ltc.txt");
        const Graph dot = parseLazyIrDot(test::readAll(kLtc + "mlp.ltc.dot"), "mlp.ltc.dot");
        const Graph backend = loadTs(kLtc + "mlp_backend.ts.txt");
        QCOMPARE(count(text, NodeKind::Placeholder), 3);
        QCOMPARE(text.nodes.size(), std::size_t(3 + 6 + 2 + 1));
        int operands = 0;
        for (const Node& n : text.nodes)
            if (n.isOp())
                operands += static_cast<int>(n.args.size());
        QCOMPARE(operands, 8);
        QCOMPARE(meta(text, "p0"), std::string("f32[4, 5]"));
        QCOMPARE(meta(text, "getitem_1"), std::string("i64[2]"));
        QCOMPARE(expr(text, "sum"), std::string("torch.ops.aten.sum(mm_1, dim = 1, keepdim = 0, dtype = None)"));
        QCOMPARE(formatArg(text, text.nodes.back().args[0]), std::string("(_softmax, getitem, getitem_1)"));
        // The DOT dump is the same graph; it shows the first output's shape only.
        QCOMPARE(dot.nodes.size(), text.nodes.size());
        for (std::size_t i = 0; i < text.nodes.size(); ++i) {
            QCOMPARE(dot.nodes[i].name, text.nodes[i].name);
            QVERIFY(dot.nodes[i].target == text.nodes[i].target);
            QVERIFY(dot.nodes[i].args == text.nodes[i].args && dot.nodes[i].kwargs == text.nodes[i].kwargs);
            if (text.nodes[i].name != "getitem_1")
                QVERIFY2(dot.nodes[i].meta == text.nodes[i].meta, text.nodes[i].name.c_str());
        }
        QCOMPARE(meta(dot, "getitem_1"), std::string("-"));
        // The TorchScript backend lowers the same ops over the same inputs (p2 @ p1 first).
        QCOMPARE(targets(backend), targets(text));
        QCOMPARE(expr(backend, "mm"), std::string("torch.ops.aten.mm(p2, p1)"));
        QCOMPARE(expr(text, "mm"), std::string("torch.ops.aten.mm(p2, p1)"));
        const Node& mm = backend.nodes[static_cast<std::size_t>(backend.findNode("mm"))];
        QCOMPARE(backend.stacks[static_cast<std::size_t>(mm.stack)].function, std::string("<module>"));  // source="..."
    }

    void printParseRoundTrip()
    {
        // parse(print(g)) == g for every fixture, in both printed forms (module.py form has no metas or stacks).
        int files = 0;
        for (const auto& dir : {kTs, kLtc})
            for (const auto& e : fs::directory_iterator(dir)) {
                const std::string p = e.path().string();
                Graph g;
                if (p.ends_with(".ts.txt"))
                    g = loadTs(p);
                else if (p.ends_with(".ltc.txt"))
                    g = parseLazyIrText(test::readAll(p), p);
                else if (p.ends_with(".ltc.dot"))
                    g = parseLazyIrDot(test::readAll(p), p);
                else
                    continue;
                ++files;
                std::string why;
                const Graph readable = parseFxModule(printReadable(g), {"rt.py", 1}).graph;
                QVERIFY2(graphsEqual(g, readable, &why), (p + ": " + why).c_str());
                Graph bare = g;
                for (Node& n : bare.nodes) {
                    n.meta.reset();
                    n.stack = -1;
                }
                const Graph module = parseFxModule(printFxModule(g), {"rt.py", 1}).graph;
                QVERIFY2(graphsEqual(bare, module, &why), (p + ": " + why).c_str());
                QCOMPARE(structuralHash(readable), structuralHash(g));
            }
        QCOMPARE(files, 9);
    }

    void namesArePythonIdentifiers()
    {
        NodeNamer n;
        QCOMPARE(n.unique("input.3"), std::string("input_3"));
        QCOMPARE(n.unique("input_3"), std::string("input_3_1"));
        QCOMPARE(n.unique("13"), std::string("v13"));
        QCOMPARE(n.unique("device"), std::string("device_1"));  // FX reads device(...) as a literal
        QCOMPARE(n.unique("self.fc.bias"), std::string("self_fc_bias"));
        const Graph g = parseTorchScript("graph(%x.1 : Tensor, %self : Float(2)):\n  %None : Tensor = aten::relu(%x.1)\n"
                                         "  return (%None)\n",
                                         "names.ts.txt");
        QCOMPARE(g.nodes[0].name, std::string("x_1"));
        QCOMPARE(g.nodes[1].name, std::string("self_1"));  // a tensor named self is an input, not the module
        QCOMPARE(g.nodes[2].name, std::string("None_1"));
        std::string why;
        QVERIFY2(graphsEqual(g, parseFxModule(printReadable(g), {"rt.py", 1}).graph, &why), why.c_str());
    }

    void torchScriptConstantsAndUnpacking()
    {
        const Graph g = parseTorchScript(
            "graph(%x : Float(2, 6, strides=[6, 1], requires_grad=0, device=cuda:0)):\n"
            "  %d : Device = prim::Constant[value=\"cuda:0\"]()\n"
            "  %s : str = prim::Constant[value=\"a \\\"q\\\"\"]()\n"
            "  %f : float = prim::Constant[value=1.]()\n"
            "  %n : int = prim::Constant[value=3]()\n"
            "  %l : int[] = prim::ListConstruct(%n, %n)\n"
            "  %c : Tensor[] = aten::split(%x, %n, %n)\n"
            "  %a : Tensor, %b : Tensor = prim::ListUnpack(%c)\n"
            "  %t : (Tensor, int[]) = prim::TupleConstruct(%a, %l)\n"
            "  %u : Tensor, %v : int[] = prim::TupleUnpack(%t)\n"
            "  %w : Tensor = aten::add(%u, %b, %f)\n"
            "  %k : Tensor = prim::Constant[value=<Tensor>]()\n"
            "  %z : Tensor = aten::to(%w, %d, %s, %v, %k)\n"
            "  return (%z, %v)\n",
            "consts.ts.txt");
        QCOMPARE(meta(g, "x"), std::string("f32[2, 6][6, 1]cuda:0"));
        QCOMPARE(expr(g, "c"), std::string("torch.ops.aten.split(x, 3, 3)"));
        QCOMPARE(expr(g, "a"), std::string("c[0]"));                          // unpacking a node: getitems
        QCOMPARE(expr(g, "w"), std::string("torch.ops.aten.add(a, b, 1.0)"));  // unpacking a construct: its items
        QCOMPARE(expr(g, "z"), std::string("torch.ops.aten.to(w, device(type='cuda', index=0), 'a \"q\"', [3, 3], k)"));
        QCOMPARE(g.nodes[static_cast<std::size_t>(g.findNode("k"))].attr, std::string("_tensor_constant0"));
        QCOMPARE(formatArg(g, g.nodes.back().args[0]), std::string("(z, [3, 3])"));
    }

    void badTorchScriptNamesLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::newRow("undefined") << "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n"
                                   << "bad.ts.txt:2: undefined value %z";
        QTest::newRow("redefined") << "graph(%x : Tensor):\n  %x : Tensor = aten::relu(%x)\n  return (%x)\n"
                                   << "bad.ts.txt:2: value %x is defined twice (first on line 1)";
        QTest::newRow("bad size") << "graph(%x : Float(2, a, strides=[1, 1])):\n  return (%x)\n"
                                  << "bad.ts.txt:1: node 'x': bad size or stride 'a'";
        QTest::newRow("stride rank") << "graph(%x : Float(2, 3, strides=[1])):\n  return (%x)\n"
                                     << "bad.ts.txt:1: node 'x': 1 strides for 2 sizes";
        QTest::newRow("negative size") << "graph(%x : Tensor):\n  %y : Float(-2) = aten::relu(%x)\n  return (%y)\n"
                                       << "bad.ts.txt:2: node 'y': bad size or stride '-2'";
        QTest::newRow("bad device") << "graph(%x : Float(2, device=c0u)):\n  return (%x)\n"
                                    << "bad.ts.txt:1: node 'x': bad device 'c0u'";
        QTest::newRow("numel overflow") << "graph(%x : Float(4294967296, 4294967296)):\n  return (%x)\n" << "bad.ts.txt:1";
        QTest::newRow("unclosed type") << "graph(%x : Float(2, 3):\n  return (%x)\n" << "bad.ts.txt:1";
        QTest::newRow("truncated") << "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n"
                                   << "bad.ts.txt:2: the graph ends without a return statement";
        QTest::newRow("truncated line") << "graph(%x : Tensor):\n  %y : Tensor = aten::add(%x, %x\n"
                                        << "bad.ts.txt:2:26: unclosed '('";
        QTest::newRow("header") << "graph(%x : Tensor,\n" << "graph header is not closed";
        QTest::newRow("control flow") << "graph(%c : bool, %x : Tensor):\n  %y : Tensor = prim::If(%c)\n"
                                         "    block0():\n      -> (%x)\n    block1():\n      -> (%x)\n  return (%y)\n"
                                      << "bad.ts.txt:2: prim::If has nested blocks";
        QTest::newRow("after return") << "graph(%x : Tensor):\n  return (%x)\n  %y : Tensor = aten::relu(%x)\n"
                                      << "bad.ts.txt:3:3: text after the return statement";
        QTest::newRow("no op") << "graph(%x : Tensor):\n  %y : Tensor = relu(%x)\n  return (%y)\n"
                               << "bad.ts.txt:2:17: expected an operator 'ns::op'";
        QTest::newRow("two namespaces") << "graph(%x : Tensor):\n  %y : Tensor = aten::relu::x(%x)\n  return (%y)\n"
                                        << "bad.ts.txt:2: bad operator name 'aten::relu::x'";
        QTest::newRow("not ts") << "def forward(self, x):\n    return x\n" << "bad.ts.txt:1:1: not TorchScript IR";
        QTest::newRow("unpack count") << "graph(%x : Tensor):\n  %l : Tensor[] = prim::ListConstruct(%x)\n"
                                         "  %a : Tensor, %b : Tensor = prim::ListUnpack(%l)\n  return (%a)\n"
                                      << "bad.ts.txt:3: prim::ListUnpack of 2 values from %l, which holds 1";
        QTest::newRow("getattr") << "graph(%x : Tensor):\n  %w : Tensor = prim::GetAttr[name=\"w\"](%x)\n  return (%w)\n"
                                 << "bad.ts.txt:2: prim::GetAttr on a value that is not the graph's module";
        QTest::newRow("bad bool") << "graph(%x : Tensor):\n  %b : bool = prim::Constant[value=2]()\n  return (%b)\n"
                                  << "bad.ts.txt:2:36: bad bool constant '2'";
        QTest::newRow("big int") << "graph():\n  %b : int = prim::Constant[value=99999999999999999999]()\n  return (%b)\n"
                                 << "integer constant out of int64 range";
        QTest::newRow("deep list") << "graph():\n  %b : int[] = prim::Constant[value=" + QString(40, '[') + QString(40, ']') +
                                          "]()\n  return (%b)\n"
                                   << "bad.ts.txt:2";
        QTest::newRow("empty") << "\n\n" << "empty file";
    }

    void badTorchScriptNamesLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        EXPECT_ERROR(parseTorchScript(text.toStdString(), "bad.ts.txt"), needle.toStdString());
    }

    void whatCannotBePrintedAsFxIsRefused()
    {
        // Found by fuzz_ir_parsers: every graph read is printed as FX code (UTF-8, identifiers after "self.").
        const std::string latin1 = "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x) # \xFC\n  return (%y)\n";
        EXPECT_ERROR(parseTorchScript(latin1, "bad.ts.txt"), "bad.ts.txt:2:34: not UTF-8 text: byte 0xFC");
        EXPECT_ERROR(parseLazyIrText("IR {\n  %0 = [Float[2]] lazy_tensors::device_data(), device=\xC3\n}\n", "bad"),
                     "bad:2:55: not UTF-8 text: byte 0xC3");
        EXPECT_ERROR(parseTorchScript("graph(%self : __torch__.M):\n  %w : Tensor = prim::GetAttr[name=\"a.b\"](%self)\n"
                                      "  return (%w)\n",
                                      "bad.ts.txt"),
                     "bad.ts.txt:2: prim::GetAttr name 'a.b' is not an identifier");
        // A control character in a source comment would end the printed comment line: the frame is dropped.
        const Graph g = parseTorchScript("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x) # a\x0b.py:3:0\n"
                                         "  return (%y)\n",
                                         "ok.ts.txt");
        QCOMPARE(g.nodes[1].stack, -1);
    }

    void truncatedFixturesFailCleanly()
    {
        // Every prefix of the real dumps is either a graph or an fxray::Error naming the file (never a crash).
        for (const std::string& path : {kTs + "cnn.ts.txt", kLtc + "mlp.ltc.txt", kLtc + "mlp.ltc.dot"}) {
            const std::string text = test::readAll(path);
            int errors = 0;
            for (std::size_t cut = 0; cut < text.size(); cut += 7) {
                try {
                    if (path.ends_with(".ts.txt"))
                        parseTorchScript(text.substr(0, cut), "cut");
                    else if (path.ends_with(".dot"))
                        parseLazyIrDot(text.substr(0, cut), "cut");
                    else
                        parseLazyIrText(text.substr(0, cut), "cut");
                } catch (const Error& e) {
                    ++errors;
                    QVERIFY2(std::string(e.what()).starts_with("cut:"), e.what());
                }
            }
            QCOMPARE(errors, static_cast<int>((text.size() + 6) / 7));  // no prefix is a whole graph
        }
    }

    void badLazyNamesLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("dot");
        QTest::addColumn<QString>("needle");
        const QString dd = "  %0 = [Float[2]] lazy_tensors::device_data(), device=CPU0\n";
        QTest::newRow("unclosed") << "IR {\n" + dd << false << "bad:2: the IR dump ends without its closing '}'";
        QTest::newRow("later operand") << "IR {\n" + dd + "  %1 = [Float[2]] aten::relu(%2)\n}\n" << false
                                       << "bad:3:30: operand %2 is not defined before node %1";
        QTest::newRow("bad shape") << "IR {\n  %0 = [Flot[2]] lazy_tensors::device_data()\n}\n" << false
                                   << "bad:2: unknown scalar type 'Flot'";
        QTest::newRow("output index") << "IR {\n" + dd + "  %1 = [Float[2]] aten::relu(%0.3)\n}\n" << false
                                      << "bad:3: operand %0.3: node 0 has 1 output(s)";
        QTest::newRow("bad op") << "IR {\n" + dd + "  %1 = [Float[2]] relu(%0)\n}\n" << false
                                << "bad:3: bad operator name 'relu'";
        QTest::newRow("truncated node") << "IR {\n  %0 = [Float[2]] lazy_tensors::device_data(\n}\n" << false
                                        << "bad:2:44: unclosed '(' of the operands";
        QTest::newRow("not ir") << "graph(%x : Tensor):\n" << false << "bad:1: not a lazy-tensor IR dump";
        const QString nodes = "digraph G {\n  node0 [label=\"lazy_tensors::device_data\\nFloat[2]\"]\n"
                              "  node1 [label=\"aten::add\\nFloat[2]\"]\n";
        QTest::newRow("dot undeclared") << nodes + "  node7 -> node1\n}\n" << true
                                        << "bad:4: edge between undeclared nodes (node7 -> node1)";
        QTest::newRow("dot input gap") << nodes + "  node0 -> node1 [label=\"i=1\"]\n}\n" << true
                                       << "bad:3: node1 has no edge for input i=0";
        QTest::newRow("dot twice") << nodes + "  node0 -> node1\n  node0 -> node1\n}\n" << true
                                   << "bad:5: second edge into input i=0 of node1";
        QTest::newRow("dot cycle") << nodes + "  node1 -> node0\n  node0 -> node1\n}\n" << true
                                   << "is on a cycle of operands";
        QTest::newRow("dot label") << nodes + "  node0 -> node1 [label=\"x=1\"]\n}\n" << true << "bad:4:18: bad edge label 'x=1'";
        QTest::newRow("dot unclosed") << nodes << true << "bad:3: the DOT dump ends without its closing '}'";
    }

    void badLazyNamesLine()
    {
        QFETCH(QString, text);
        QFETCH(bool, dot);
        QFETCH(QString, needle);
        const std::string t = text.toStdString();
        if (dot)
            EXPECT_ERROR(parseLazyIrDot(t, "bad"), needle.toStdString());
        else
            EXPECT_ERROR(parseLazyIrText(t, "bad"), needle.toStdString());
    }

    void discoveryByNameAndContent()
    {
        io::Discovery ts = io::discover(kTs);
        QCOMPARE(ts.graphs.size(), std::size_t(3));
        for (const io::GraphEntry& e : ts.graphs)
            QCOMPARE(e.format, io::SourceFormat::TorchScript);
        io::Discovery ltc = io::discover(kLtc);
        std::vector<std::string> formats;
        for (const io::GraphEntry& e : ltc.graphs)
            formats.emplace_back(io::sourceFormatName(e.format));
        QCOMPARE(formats, (std::vector<std::string>{"ltc-dot", "ltc-ir", "torchscript", "ltc-dot", "ltc-ir", "torchscript"}));
        // The module's state_dict beside its graph supplies the get_attr values.
        const io::LoadedGraph cnn = io::loadAddress(kTs + "cnn.ts.txt");
        QVERIFY(cnn.stateDictPath.ends_with("cnn.state_dict.pt"));
        QCOMPARE(cnn.inputs.size(), std::size_t(1));
        QVERIFY(cnn.inputs[0].meta.has_value());
        QVERIFY(cnn.warnings.empty());  // no LibTorch importer in this process: the plain parser alone

        // In a folder walk only IR file names are looked into; given by itself, any file is sniffed.
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        io::writeTextFile(dir + "/notes.txt", test::readAll(kTs + "mlp.ts.txt"));
        io::writeTextFile(dir + "/graph.dot", render::writeDot(loadTs(kTs + "mlp.ts.txt"), {}));
        EXPECT_ERROR(io::discover(dir), "no graphs found");
        QCOMPARE(io::discover(dir + "/notes.txt").graphs.at(0).format, io::SourceFormat::TorchScript);
        EXPECT_ERROR(io::discover(dir + "/graph.dot"), "not a graph file");  // fxray's own DOT is no LTC dump
        io::writeTextFile(dir + "/x.ltc.txt", "IR {\n  %0 = [Float[2]] lazy_tensors::device_data()\n");
        EXPECT_ERROR(io::loadAddress(dir + "/x.ltc.txt"), "x.ltc.txt:2: the IR dump ends without its closing '}'");
    }
};

QTEST_APPLESS_MAIN(TestIrParsers)
#include "test_ir_parsers.moc"
