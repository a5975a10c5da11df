// Structural hash, users, topological order, dead-code elimination, subgraph extraction, input-metadata merge.
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"
#include "io/graph_source.h"
#include "io/input_merge.h"

#include <QtTest/QtTest>

#include <filesystem>

using namespace fxray;
using namespace fxray::graph;

namespace {

Graph parse(const std::string& text) { return parseFxModule(text, ParseOptions{"t.py", 1}).graph; }

const char* kGraph =
    "class G(torch.nn.Module):\n"
    "    def forward(self, a: \"f32[4][1]cpu\", b: \"f32[4][1]cpu\"):\n"
    "        x: \"f32[4][1]cpu\" = torch.ops.aten.relu.default(a)\n"
    "        y: \"f32[4][1]cpu\" = torch.ops.aten.neg.default(b)\n"
    "        dead: \"f32[4][1]cpu\" = torch.ops.aten.exp.default(a)\n"
    "        z: \"f32[4][1]cpu\" = torch.ops.aten.add.Tensor(x, y)\n"
    "        return (z,)\n";

// Same graph, every name changed and the two independent ops swapped.
const char* kRenamedReordered =
    "class G(torch.nn.Module):\n"
    "    def forward(self, p0: \"f32[4][1]cpu\", p1: \"f32[4][1]cpu\"):\n"
    "        n2: \"f32[4][1]cpu\" = torch.ops.aten.neg.default(p1)\n"
    "        n1: \"f32[4][1]cpu\" = torch.ops.aten.relu.default(p0)\n"
    "        n9: \"f32[4][1]cpu\" = torch.ops.aten.exp.default(p0)\n"
    "        out: \"f32[4][1]cpu\" = torch.ops.aten.add.Tensor(n1, n2)\n"
    "        return (out,)\n";

}  // namespace

class TestGraphAlgorithms : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hashIsEqualUpToRenamingAndReordering()
    {
        QCOMPARE(structuralHash(parse(kGraph)), structuralHash(parse(kRenamedReordered)));
    }

    void hashSeesOpArgumentAndMetadataChanges()
    {
        const std::uint64_t base = structuralHash(parse(kGraph));
        std::string changedOp = kGraph;
        changedOp.replace(changedOp.find("relu"), 4, "gelu");
        std::string changedMeta = kGraph;
        changedMeta.replace(changedMeta.find("x: \"f32[4][1]"), 13, "x: \"f16[4][1]");
        std::string swappedInputs = kGraph;
        swappedInputs.replace(swappedInputs.find("add.Tensor(x, y)"), 16, "add.Tensor(y, x)");
        QVERIFY(structuralHash(parse(changedOp)) != base);
        QVERIFY(structuralHash(parse(changedMeta)) != base);
        QVERIFY(structuralHash(parse(swappedInputs)) != base);
    }

    void usersAndTopologicalOrder()
    {
        Graph g = parse(kGraph);
        auto users = computeUsers(g);
        QCOMPARE(users[0], (std::vector<int>{2, 4}));  // a -> relu, exp
        QCOMPARE(topologicalOrder(g), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        // A shuffled node list is put back in dependency order.
        Graph shuffled = g;
        std::swap(shuffled.nodes[2], shuffled.nodes[5]);  // z before x
        for (Node& n : shuffled.nodes)
            for (Arg& a : n.args)
                if (a.kind == Arg::Kind::Node && (a.node == 2 || a.node == 5))
                    a.node = a.node == 2 ? 5 : 2;
        auto order = topologicalOrder(shuffled);
        auto pos = [&](int v) { return std::find(order.begin(), order.end(), v) - order.begin(); };
        QVERIFY(pos(5) < pos(2));  // x (now at 5) comes before z (now at 2)
    }

    void cycleIsAnErrorNamingANode()
    {
        Graph g = parse(kGraph);
        g.nodes[2].args[0] = Arg::ofNode(5);  // x reads z, z reads x
        try {
            topologicalOrder(g);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("cycle") != std::string::npos);
            QVERIFY(!e.where().node.empty());
        }
    }

    void deadCodeEliminationRemovesUnusedOpsOnly()
    {
        Graph g = parse(kGraph);
        QCOMPARE(eliminateDeadCode(g), 1);
        QCOMPARE(g.findNode("dead"), -1);
        QVERIFY(g.findNode("x") >= 0 && g.findNode("a") >= 0);
        // In-place ops have effects: kept even without users.
        Graph h = parse(std::string(kGraph).replace(std::string(kGraph).find("exp.default"), 11, "exp_.default"));
        QCOMPARE(eliminateDeadCode(h), 0);
        // Frees are recomputed: 'a' dies after its last use.
        std::string why;
        QVERIFY2(graphsEqual(g, parse(printReadable(g)), &why), why.c_str());
    }

    void subgraphTurnsOutsideProducersIntoPlaceholdersWithTheirMetadata()
    {
        Graph g = parse(kGraph);
        Graph sub = extractSubgraph(g, {g.findNode("z")}, {g.findNode("z")});
        QCOMPARE(sub.placeholders().size(), std::size_t(2));
        QCOMPARE(sub.nodes[0].name, std::string("x"));
        QCOMPARE(formatAnnotation(*sub.nodes[0].meta), std::string("f32[4][1]cpu"));
        QCOMPARE(sub.nodes.size(), std::size_t(4));  // x, y, z, output
        // It prints and parses back as the same graph.
        std::string why;
        QVERIFY2(graphsEqual(sub, parse(printReadable(sub)), &why), why.c_str());
    }

    void inputMetadataPrecedenceAndDisagreements()
    {
        Graph g = parse(kGraph);
        std::vector<ValueMeta> pickled(2);
        pickled[0] = ValueMeta::ofTensor(TensorMeta{DType::Float32, {SymDim::constant(4)}, std::vector{SymDim::constant(1)},
                                                    Device{"cpu", -1}, std::nullopt, {}, {}});
        pickled[1] = pickled[0];
        pickled[1].tensor.dtype = DType::Float16;  // disagrees with the annotation f32
        std::vector<std::string> warnings;
        auto specs = io::mergeInputMetadata(g, pickled, "x.input", {}, warnings);
        QCOMPARE(specs.size(), std::size_t(2));
        QCOMPARE(specs[0].source, io::MetaSource::InputPickle);
        QCOMPARE(specs[1].meta->tensor.dtype, DType::Float16);  // the pickle wins
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY(warnings[0].find("input 'b'") != std::string::npos && warnings[0].find("dtype") != std::string::npos);

        // A pickle with the wrong number of entries is not used; annotations are.
        warnings.clear();
        pickled.pop_back();
        specs = io::mergeInputMetadata(g, pickled, "x.input", {}, warnings);
        QCOMPARE(specs[0].source, io::MetaSource::Annotation);
        QCOMPARE(warnings.size(), std::size_t(1));
    }

    void loadsEverySampleGraphWithoutWarnings()
    {
        io::Discovery d = io::discover(FXRAY_SAMPLES_DIR);
        QVERIFY(d.errors.empty());
        QVERIFY(d.graphs.size() >= 50);
        for (const auto& e : d.graphs) {
            io::LoadedGraph lg = io::loadGraph(e);
            QVERIFY2(lg.graph.outputNode() >= 0, e.address.c_str());
            for (const auto& w : lg.warnings)
                qWarning("%s: %s", e.address.c_str(), w.c_str());
            QVERIFY2(lg.warnings.empty(), e.address.c_str());
            for (const auto& in : lg.inputs)
                // (TorchScript: the LTC backend's text types its inputs plain "Tensor", without shapes.)
                QVERIFY2(in.meta.has_value() || e.kind == io::GraphKind::Dynamo || e.format == io::SourceFormat::TraceLog ||
                             e.format == io::SourceFormat::TorchScript,
                         (e.address + " input " + in.name).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestGraphAlgorithms)
#include "test_graph_algorithms.moc"
