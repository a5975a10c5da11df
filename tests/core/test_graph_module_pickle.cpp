// Subgraphs pickled as GraphModules beside module.py (core/io/graph_module_pickle.h): flex_attention's score_mod /
// mask_mod of the flex fixture (tests/data/flex, written by make_flex.py there), read from their `_code` without
// Python, and the errors and warnings for .pt files that are not such pickles.
#include "base/error.h"
#include "graph/graph.h"
#include "io/graph_module_pickle.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace fxray;

namespace {

const std::string kDump = FXRAY_TEST_DATA_DIR "/flex/flex_causal/flex_causal_forward_0";

std::vector<std::string> opsOf(const graph::Graph& g)
{
    std::vector<std::string> out;
    for (const graph::Node& n : g.nodes)
        if (n.isOp())
            out.push_back(n.target.str());
    return out;
}

}  // namespace

class TestGraphModulePickle : public QObject {
    Q_OBJECT
private slots:
    void theScoreModsCodeIsReadFromThePickle()
    {
        const graph::Subgraph s = io::readPickledGraphModule(kDump + "/sdpa_score0.pt", "sdpa_score0");
        QCOMPARE(s.name, std::string("sdpa_score0"));
        QCOMPARE(s.graph.placeholders().size(), std::size_t{5});  // score, b, h, q_idx, kv_idx
        // score + (q_idx - kv_idx) * 0.1, as make_flex.py's bias writes it
        QCOMPARE(opsOf(s.graph), (std::vector<std::string>{"aten.sub.Tensor", "aten.mul.Tensor", "aten.add.Tensor"}));
        QVERIFY(s.graph.outputNode() >= 0);
    }

    void aStateDictIsNotAGraphModule()
    {
        QVERIFY(!fxray::test::expectError([] { io::readPickledGraphModule(kDump + "/state_dict.pt", "state_dict"); },
                                          {"not a pickled GraphModule", "state_dict.pt"})
                     .empty());
    }

    void moduleGetAttrsGainTheirPickledSubgraphsAndABrokenOneIsAWarning()
    {
        QTemporaryDir tmp;
        namespace fs = std::filesystem;
        const fs::path dir(tmp.path().toStdString());
        fs::copy_file(kDump + "/sdpa_score0.pt", dir / "sdpa_score0.pt");
        std::ofstream(dir / "sdpa_mask0.pt") << "not a zip";
        graph::Graph g;
        for (const char* attr : {"sdpa_score0", "sdpa_mask0", "_tensor_constant0"}) {  // the last has no .pt
            graph::Node n;
            n.kind = graph::NodeKind::GetAttr;
            n.name = n.attr = attr;
            g.nodes.push_back(n);
        }
        std::vector<std::string> warnings;
        io::addPickledSubgraphs(g, dir.string(), warnings);
        QCOMPARE(g.subgraphs.size(), std::size_t{1});
        QCOMPARE(g.subgraphs[0].name, std::string("sdpa_score0"));
        QCOMPARE(warnings.size(), std::size_t{1});
        QVERIFY2(warnings[0].find("sdpa_mask0.pt") != std::string::npos && warnings[0].find("self.sdpa_mask0") != std::string::npos,
                 warnings[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestGraphModulePickle)
#include "test_graph_module_pickle.moc"
