// The dynamo-level FX grammar: what print_readable writes beyond aten calls (tests/data/fx/dynamo, written by
// tools/capture/dynamo_grammar_samples.py from torch 2.11): Ellipsis and slices in indexing, in-place operator
// statements, dicts, complex literals, higher-order-op subgraphs, str(ExportedProgram).
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxray;
using namespace fxray::graph;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(FXRAY_TEST_DATA_DIR) / "fx" / "dynamo";

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

Graph fixture(const char* name) { return parseText(readFile(kDir / name), name); }

const Node& node(const Graph& g, const std::string& name)
{
    const int i = g.findNode(name);
    if (i < 0)
        throw std::runtime_error("no node " + name);
    return g.nodes[static_cast<std::size_t>(i)];
}

std::string expectError(const std::string& body)
{
    try {
        parseText("class G(torch.nn.Module):\n    def forward(self, x, y):\n" + body, "bad.py");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

class TestFxDynamoGrammar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void indexingKeepsEllipsisNoneAndSlices()
    {
        // `undefined name 'Ellipsis'` on x[(Ellipsis, slice(None, 16, None))] in every dynamo_output_graph that indexes.
        const Graph g = fixture("indexing.py");
        const Node& first = node(g, "getitem");
        QCOMPARE(first.target.kind, Target::Kind::Getitem);
        const Arg& index = first.args[1];
        QCOMPARE(index.kind, Arg::Kind::Tuple);
        QCOMPARE(index.items[0].kind, Arg::Kind::Ellipsis);
        QCOMPARE(index.items[1].kind, Arg::Kind::Slice);
        QCOMPARE(index.items[1].items[0].kind, Arg::Kind::None);
        QCOMPARE(index.items[1].items[1].i, std::int64_t(16));
        const Arg& second = node(g, "getitem_1").args[1];
        QCOMPARE(second.items[0].kind, Arg::Kind::None);
        QCOMPARE(second.items[2].kind, Arg::Kind::Ellipsis);
        QCOMPARE(formatArg(g, second), std::string("(None, slice(1, None, None), Ellipsis)"));
    }

    void inplaceStatementsAreOperatorNodesNamedByTheirBinding()
    {
        // `expected '=' in statement` on "out += y;  out_1: ... = out": FX's form of a call to operator.iadd.
        const Graph g = fixture("inplace.py");
        const Node& iadd = node(g, "out_1");
        QCOMPARE(iadd.target.str(), std::string("operator.iadd"));
        QCOMPARE(iadd.args.size(), std::size_t(2));
        QCOMPARE(iadd.args[0].node, g.findNode("out"));
        QCOMPARE(iadd.args[1].node, g.findNode("l_y_"));
        QVERIFY(iadd.meta && iadd.meta->isTensor());
        QCOMPARE(iadd.frees, std::vector<int>{g.findNode("out")});
        QVERIFY(iadd.stack >= 0);
        QCOMPARE(node(g, "out_2").target.op, std::string("imul"));
        QCOMPARE(node(g, "out_2").args[1].i, std::int64_t(2));
        QCOMPARE(node(g, "out_3").target.op, std::string("isub"));
        QCOMPARE(node(g, "out_4").target.op, std::string("itruediv"));
        QCOMPARE(node(g, "mask_1").target.op, std::string("ior"));
        // "t[(0, slice(1, None, None))] = 1.0;  setitem = t;  setitem = None": operator.setitem(t, index, value)
        const Node& setitem = node(g, "setitem");
        QCOMPARE(setitem.target.str(), std::string("operator.setitem"));
        QCOMPARE(setitem.args.size(), std::size_t(3));
        QCOMPARE(setitem.args[0].node, g.findNode("t"));
        QCOMPARE(formatArg(g, setitem.args[1]), std::string("(0, slice(1, None, None))"));
        QCOMPARE(setitem.args[2].f, 1.0);
        QCOMPARE(setitem.frees, std::vector<int>{g.findNode("setitem")});
    }

    void inplaceStatementsPrintAsFxDoes()
    {
        const Graph g = fixture("inplace.py");
        const std::string text = printReadable(g);
        QVERIFY2(contains(text, "out += l_y_;  out_1: \"f32[4, 32][32, 1]cpu\" = out;  out = None"), text.c_str());
        QVERIFY2(contains(text, "t[(0, slice(1, None, None))] = 1.0;  setitem = t;  setitem = None"), text.c_str());
    }

    void inplaceStatementWithoutItsBindingIsAnError()
    {
        std::string e = expectError("        x += y\n        return (x,)\n");
        QVERIFY2(contains(e, "bad.py:3:9") && contains(e, "in-place statement without its node"), e.c_str());
        e = expectError("        x += y;  z = y\n        return (z,)\n");
        QVERIFY2(contains(e, "bad.py:3:") && contains(e, "must be followed by 'z = x'"), e.c_str());
        e = expectError("        x[0] = y\n        return (x,)\n");
        QVERIFY2(contains(e, "in-place statement without its node"), e.c_str());
        e = expectError("        q += y;  z = q\n        return (z,)\n");
        QVERIFY2(contains(e, "undefined name 'q'"), e.c_str());
    }

    void keywordLiteralsAndComplexNumbers()
    {
        // `bad number '1j'` on a complex scalar.
        const Graph g = fixture("literals.py");
        const Node& a = node(g, "a");
        QCOMPARE(a.kwargs[0].second.kind, Arg::Kind::DType);
        QCOMPARE(a.kwargs[1].second.kind, Arg::Kind::Layout);
        QCOMPARE(a.kwargs[2].second.s, std::string("cpu"));  // device = 'cpu': a string, as dynamo wrote it
        QCOMPARE(node(g, "b").kwargs[0].second.kind, Arg::Kind::MemoryFormat);
        const Arg& j = node(g, "mul").args[1];
        QCOMPARE(j.kind, Arg::Kind::Complex);
        QCOMPARE(j.f, 0.0);
        QCOMPARE(j.imag, 1.0);
        const Arg& z = node(g, "d").args[1];
        QCOMPARE(z.kind, Arg::Kind::Complex);
        QCOMPARE(z.f, 0.5);
        QCOMPARE(z.imag, -2.0);
        QCOMPARE(node(g, "to").args[1].kind, Arg::Kind::Device);
    }

    void complexLiteralsPrintAsPythonRepr_data()
    {
        QTest::addColumn<QString>("literal");
        QTest::addColumn<QString>("printed");
        QTest::newRow("imaginary") << "1j" << "1j";
        QTest::newRow("fraction") << "2.5j" << "2.5j";
        QTest::newRow("exponent") << "1e-05j" << "1e-05j";
        QTest::newRow("with real part") << "(1+2j)" << "(1+2j)";
        QTest::newRow("negative imaginary") << "(0.5-2j)" << "(0.5-2j)";
        QTest::newRow("negated: real part -0.0") << "-1j" << "(-0-1j)";
        QTest::newRow("negative zero real") << "(-0-1j)" << "(-0-1j)";
        QTest::newRow("infinite") << "infj" << "infj";
        QTest::newRow("nan imaginary") << "(1+nanj)" << "(1+nanj)";
    }

    void complexLiteralsPrintAsPythonRepr()
    {
        QFETCH(QString, literal);
        QFETCH(QString, printed);
        const Graph g = parseText("class G(torch.nn.Module):\n    def forward(self, x):\n        y = x * " +
                                  literal.toStdString() + "\n        return (y,)\n");
        const Arg& z = node(g, "y").args[1];
        QCOMPARE(z.kind, Arg::Kind::Complex);
        QCOMPARE(QString::fromStdString(formatArg(g, z)), printed);
        std::string why;
        QVERIFY2(graphsEqual(g, parseText(printReadable(g)), &why), why.c_str());
    }

    void parenthesesAroundARealStayAValue()
    {
        // (1+2j) is one complex; (1, 2) a tuple; (3) the int 3: the complex rule must not take the others.
        const Graph g = parseText("class G(torch.nn.Module):\n    def forward(self, x):\n"
                                  "        y = torch.ops.aten.foo.default(x, (1, 2), (3), (-1))\n        return (y,)\n");
        const Node& y = node(g, "y");
        QCOMPARE(y.args[1].kind, Arg::Kind::Tuple);
        QCOMPARE(y.args[2].i, std::int64_t(3));
        QCOMPARE(y.args[3].i, std::int64_t(-1));
    }

    void dictArgumentsHoldLiteralsAndNodes()
    {
        // `unexpected '{' in argument` on flex_attention's kernel options.
        const Graph g = parseText("class G(torch.nn.Module):\n    def forward(self, x):\n"
                                  "        y = torch.foo(x, {'a': 1, 'b': [x, None], 2: {}})\n        return (y,)\n");
        const Arg& d = node(g, "y").args[1];
        QCOMPARE(d.kind, Arg::Kind::Dict);
        QCOMPARE(d.items.size(), std::size_t(6));  // keys and values alternate
        QCOMPARE(d.items[0].s, std::string("a"));
        QCOMPARE(d.items[3].items[0].node, g.findNode("x"));
        QCOMPARE(d.items[5].kind, Arg::Kind::Dict);
        QCOMPARE(formatArg(g, d), std::string("{'a': 1, 'b': [x, None], 2: {}}"));
        std::vector<int> refs;
        forEachNodeRef(node(g, "y"), [&](int i) { refs.push_back(i); });
        QCOMPARE(refs.size(), std::size_t(2));  // x, and x inside the dict
        QVERIFY(contains(expectError("        z = torch.foo({'a' 1})\n        return (z,)\n"), "expected ':' after a dict key"));
    }

    void flexAttentionKeepsDictTuplesAndSubgraphReferences()
    {
        const Graph g = fixture("flex.py");
        const Node& flex = node(g, "flex_attention");
        QCOMPARE(flex.target.str(), std::string("higher_order.flex_attention"));
        const Node& scoreMod = g.nodes[static_cast<std::size_t>(flex.args[3].node)];
        QCOMPARE(scoreMod.kind, NodeKind::GetAttr);
        QCOMPARE(scoreMod.attr, std::string("score_mod_0"));
        QCOMPARE(flex.args[4].kind, Arg::Kind::Tuple);
        QCOMPARE(flex.args[4].items.size(), std::size_t(13));
        QCOMPARE(flex.args[6].kind, Arg::Kind::Dict);
        QCOMPARE(flex.args[6].items[0].s, std::string("BACKEND"));
        QCOMPARE(flex.args[6].items[1].s, std::string("AUTO"));
        QCOMPARE(g.subgraphs.size(), std::size_t(2));
        QCOMPARE(g.subgraphs[0].name, std::string("score_mod_0"));
        QCOMPARE(g.subgraphs[1].name, std::string("mask_fn_0"));
        QCOMPARE(g.subgraphs[0].graph.placeholders().size(), std::size_t(5));
        QVERIFY(g.subgraphs[0].graph.outputNode() >= 0);
    }

    void higherOrderOpsReferToTheirSubgraphs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QStringList>("subgraphs");
        QTest::newRow("checkpoint") << "checkpoint.py" << "tag_activation_checkpoint" << QStringList{"wrap_body_0"};
        QTest::newRow("cond") << "cond.py" << "cond" << QStringList{"cond_true_0", "cond_false_0"};
    }

    void higherOrderOpsReferToTheirSubgraphs()
    {
        QFETCH(QString, file);
        QFETCH(QString, op);
        QFETCH(QStringList, subgraphs);
        const Graph g = fixture(file.toStdString().c_str());
        const Node& call = node(g, op.toStdString());
        QCOMPARE(call.target.ns, std::string("higher_order"));
        QStringList referenced;  // get_attr arguments of the call, in order
        forEachNodeRef(call, [&](int i) {
            const Node& n = g.nodes[static_cast<std::size_t>(i)];
            if (n.kind == NodeKind::GetAttr)
                referenced << QString::fromStdString(n.attr);
        });
        QCOMPARE(referenced, subgraphs);
        QStringList defined;
        for (const Subgraph& s : g.subgraphs)
            defined << QString::fromStdString(s.name);
        QCOMPARE(defined, subgraphs);
    }

    void everyFixtureRoundTripsThroughThePrinters()
    {
        int files = 0;
        for (const auto& e : fs::directory_iterator(kDir)) {
            const Graph g = parseText(readFile(e.path()), e.path().string());
            std::string why;
            QVERIFY2(graphsEqual(g, parseText(printReadable(g)), &why), (e.path().string() + ": " + why).c_str());
            QCOMPARE(structuralHash(parseText(printReadable(g))), structuralHash(g));
            QCOMPARE(parseText(printFxModule(g)).nodes.size(), g.nodes.size());  // module.py form: no annotations
            ++files;
        }
        QCOMPARE(files, 6);
    }

    void exportedProgramTextHoldsItsGraphModule()
    {
        // str(ExportedProgram), as export logs' exported_program records hold it.
        const std::string text =
            "ExportedProgram:\n"
            "    class GraphModule(torch.nn.Module):\n"
            "        def forward(self, x: \"i64[]\", y: \"f32[s0]\"):\n"
            "            _local_scalar_dense: \"Sym(u1)\" = torch.ops.aten._local_scalar_dense.default(x);  x = None\n"
            "            neg: \"Sym(-u1)\" = -_local_scalar_dense;  _local_scalar_dense = None\n"
            "            cat: \"f32[2*s0]\" = torch.ops.aten.cat.default([y, y]);  y = None\n"
            "            return (cat,)\n"
            "\n"
            "Graph signature: ExportGraphSignature(input_specs=[InputSpec(kind=<InputKind.USER_INPUT: 1>, "
            "arg=TensorArgument(name='x'), target=None, persistent=None)], output_specs=[])\n"
            "Range constraints: {u0: VR[-int_oo, 15], s0: VR[2, int_oo]}\n";
        const Graph g = parseText(text);
        QCOMPARE(g.className, std::string("GraphModule"));
        QCOMPARE(g.placeholders().size(), std::size_t(2));
        QCOMPARE(node(g, "neg").target.str(), std::string("operator.neg"));
        QCOMPARE(g.nodes.size(), std::size_t(6));
    }
};

QTEST_APPLESS_MAIN(TestFxDynamoGrammar)
#include "test_fx_dynamo_grammar.moc"
