// DTensor layouts for a distributed replay (graph/dtensor_layout, graph/dtensor_global): the DeviceMesh a trace
// records, where a rank sits in it, the sub-groups its dimensions make (group membership where the log names
// none), placements as annotations print them, and the unsharded reading of a dynamo graph of DTensor code.
#include "base/error.h"
#include "graph/dtensor_global.h"
#include "graph/dtensor_layout.h"
#include "graph/fx_parser.h"

#include <QtTest/QtTest>

using namespace fxray;
using namespace fxray::graph;

namespace {

using Groups = std::map<std::string, std::vector<int>>;

// torch 2.11's describe_tensor ctx of a 2x2 mesh with dim names, in a line of other text.
const std::string kMesh2x2 = "DeviceMesh((dp=2, tp=2), 'cpu', stride=(2, 1))";

}  // namespace

class TestDtensorLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsTheMeshesATraceRecords()
    {
        const std::string log = "{\"ctx\": \"(DTensorSpec(mesh=" + kMesh2x2 + ", placements=(Shard(dim=0),)...\"}\n"
                                "{\"ctx\": \"(DTensorSpec(mesh=DeviceMesh((2,), 'cpu', stride=(1,)), ...\"}\n"
                                "{\"ctx\": \"(DTensorSpec(mesh=" + kMesh2x2 + ", placements=(Replicate(),)...\"}\n";
        const auto meshes = findDeviceMeshes(log);
        QCOMPARE(meshes.size(), std::size_t(2));  // distinct, in order
        QVERIFY((meshes[0].shape == std::vector<std::int64_t>{2, 2}));
        QVERIFY((meshes[0].stride == std::vector<std::int64_t>{2, 1}));
        QVERIFY((meshes[0].dimNames == std::vector<std::string>{"dp", "tp"}));
        QCOMPARE(meshes[0].deviceType, std::string("cpu"));
        QVERIFY((meshes[1].shape == std::vector<std::int64_t>{2}));
        QVERIFY(meshes[1].dimNames.empty());
        QVERIFY(!parseDeviceMesh("DeviceMesh((2, x), 'cpu', stride=(1,))"));
        QVERIFY(!parseDeviceMesh("DeviceMesh((2, 2), 'cpu', stride=(1,))"));  // one stride per dimension
    }

    void aRanksCoordinateAndEachDimensionsGroupsFollowTheStrides()
    {
        const DeviceMeshInfo m = *parseDeviceMesh(kMesh2x2);
        QVERIFY((*meshCoordinate(m, 1) == std::vector<std::int64_t>{0, 1}));
        QVERIFY((*meshCoordinate(m, 2) == std::vector<std::int64_t>{1, 0}));
        QVERIFY(!meshCoordinate(m, 4));
        // dp (dim 0) groups {0,2},{1,3}; tp (dim 1) groups {0,1},{2,3}: DeviceMesh's creation order.
        QVERIFY((meshDimGroups(m, 0) == std::vector<std::vector<int>>{{0, 2}, {1, 3}}));
        QVERIFY((meshDimGroups(m, 1) == std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
        const DeviceMeshInfo m3 = *parseDeviceMesh("DeviceMesh((2, 2, 2), 'cpu', stride=(4, 2, 1))");
        QVERIFY((meshDimGroups(m3, 1) == std::vector<std::vector<int>>{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
    }

    void membershipComesFromTheRanksThatCallAGroup()
    {
        const DeviceMeshInfo m = *parseDeviceMesh(kMesh2x2);
        // A 4-rank job's graphs: ranks 0 and 2 call "1", 1 and 3 call "2", 0 and 1 call "3", 2 and 3 call "4".
        const auto d = groupsFromMeshes({{"0", {0, 1, 2, 3}}, {"1", {0, 2}}, {"2", {1, 3}}, {"3", {0, 1}}, {"4", {2, 3}}}, {m}, 4);
        QVERIFY((d.groups == Groups{{"1", {0, 2}}, {"2", {1, 3}}, {"3", {0, 1}}, {"4", {2, 3}}}));
        QVERIFY(!d.groups.count("0"));  // the world group is the caller's
    }

    void rankSymmetricCopiesFallBackToTorchsGroupNumbering()
    {
        // --ranks 4 of one rank's graphs: every rank calls every name, so only new_group's numbering (world "0",
        // then dp's groups 1-2, then tp's 3-4) tells them apart.
        const DeviceMeshInfo m = *parseDeviceMesh(kMesh2x2);
        const auto d = groupsFromMeshes({{"1", {0, 1, 2, 3}}, {"3", {0, 1, 2, 3}}}, {m}, 4);
        QVERIFY((d.groups == Groups{}));  // all four ranks fit no sub-group of 2: nothing is guessed
        const auto e = groupsFromMeshes({{"3", {0}}, {"9", {0}}}, {m}, 4);
        QVERIFY((e.groups == Groups{{"3", {0, 1}}}));
        QCOMPARE(e.notes.size(), std::size_t(2));
        QVERIFY2(e.notes[1].find("no sub-group") != std::string::npos, e.notes[1].c_str());
        // A mesh of another size than the job says nothing about it.
        QVERIFY(groupsFromMeshes({{"1", {0, 2}}}, {m}, 8).groups.empty());
    }

    void placementsAsAnnotationsPrintThem()
    {
        const auto p = parsePlacements("PS(1)[1]S(1)[0]R");
        QCOMPARE(p.size(), std::size_t(4));
        QVERIFY(p[0].kind == Placement::Kind::Partial && p[0].reduceOp == "sum");
        QVERIFY(p[1].kind == Placement::Kind::Shard && p[1].dim == 1 && p[1].order == 1);
        QVERIFY(p[2].kind == Placement::Kind::Shard && p[2].order == 0);
        QVERIFY(p[3].kind == Placement::Kind::Replicate);
        QCOMPARE(parsePlacements("P(avg)")[0].reduceOp, std::string("avg"));
        QVERIFY(parsePlacements("_S(0, 2)")[0].kind == Placement::Kind::StridedShard);
        QVERIFY_THROWS_EXCEPTION(Error, parsePlacements("Q"));
        QVERIFY_THROWS_EXCEPTION(Error, parsePlacements("S(x)"));
    }

    void aShardCutTravelsAsTextAndIsChecked()
    {
        const ShardCut c = ShardCut::parse("S(0)R@2,2@1,0");
        QCOMPARE(c.str(), std::string("S(0)R@2,2@1,0"));
        QVERIFY(!c.partial());
        QVERIFY(ShardCut::parse("P(sum)@2@1").partial());
        QVERIFY_THROWS_EXCEPTION(Error, ShardCut::parse("S(0)@2@2"));    // coordinate outside the mesh
        QVERIFY_THROWS_EXCEPTION(Error, ShardCut::parse("S(0)R@2@0"));   // two placements, one mesh dimension
    }

    void theDynamoGraphReadAsTheUnshardedComputation()
    {
        // The tp_mlp fixture's dynamo graph, shortened: a replicated input made a DTensor, a column-sharded linear,
        // to_local, a plain relu on the rank's columns, back to a DTensor and out as a replicated value.
        const std::string text =
            "class G(torch.nn.Module):\n"
            "    def forward(self, L_x_: \"f32[4, 16][16, 1]cpu\", L_w_: \"DTensor(f32[32, 16][16, 1]cpu, S(0))\", L_s_: \"f32[2, 16][16, 1]cpu\"):\n"
            "        x = torch__dynamo_variables_torch_prim_from_local(L_x_)\n"
            "        s: \"DTensor(f32[4, 16][16, 1]cpu, S(0))\" = torch__dynamo_variables_torch_prim_from_local_2(L_s_)\n"
            "        y: \"DTensor(f32[4, 32][32, 1]cpu, S(1))\" = torch._C._nn.linear(x, L_w_)\n"
            "        h: \"f32[4, 16][16, 1]cpu\" = torch__dynamo_variables_tensor_prim_to_local(y)\n"
            "        r: \"f32[4, 16][16, 1]cpu\" = torch.nn.functional.relu(h)\n"
            "        z: \"DTensor(f32[4, 32][32, 1]cpu, S(1))\" = torch__dynamo_variables_torch_prim_from_local_1(r)\n"
            "        q: \"DTensor(f32[4, 32][32, 1]cpu, R)\" = torch__dynamo_variables_tensor_prim_redistribute(z)\n"
            "        k: \"f32[4, 32][32, 1]cpu\" = torch__dynamo_variables_tensor_prim_to_local_2(q)\n"
            "        e: \"f32[4, 32][32, 1]cpu\" = torch.nn.functional.relu(k)\n"
            "        return (h, z, L_x_, e)\n";
        const Graph g = parseFxModule(text, ParseOptions{"g.py", 1}).graph;
        const DtensorGlobalGraph d = dtensorGlobalGraph(g);
        QVERIFY(d.hasDtensor);
        QVERIFY(d.why.empty());
        QVERIFY((d.inputLayouts == std::vector<std::string>{"", "S(0)", "S(0)"}));  // L_s_ is a shard: from_local says so
        const Node& s = d.graph.nodes[static_cast<std::size_t>(d.graph.findNode("L_s_"))];
        QCOMPARE(formatAnnotation(*s.meta), std::string("f32[4, 16][16, 1]cpu"));  // the global run takes the global tensor
        const Node& h = d.graph.nodes[static_cast<std::size_t>(d.graph.findNode("h"))];
        QCOMPARE(formatAnnotation(*h.meta), std::string("f32[4, 32][32, 1]cpu"));  // to_local: the global tensor
        QVERIFY(!d.graph.nodes[static_cast<std::size_t>(d.graph.findNode("r"))].meta);  // rank-local: unchecked
        QCOMPARE(d.unchecked, 1);
        // A replicated DTensor's local tensor is the global one: what follows its to_local stays checked.
        QVERIFY(d.graph.nodes[static_cast<std::size_t>(d.graph.findNode("e"))].meta);
        QCOMPARE(d.outputLayouts.size(), std::size_t(4));
        QCOMPARE(*d.outputLayouts[3], std::string(""));
        QCOMPARE(*d.outputLayouts[0], std::string("S(1)"));  // to_local's DTensor
        QCOMPARE(*d.outputLayouts[1], std::string("S(1)"));
        QCOMPARE(*d.outputLayouts[2], std::string(""));      // a plain input: whole on every rank
        QCOMPARE(dtensorPrimName(g.nodes[static_cast<std::size_t>(g.findNode("z"))]), std::string("from_local"));
    }
};

QTEST_GUILESS_MAIN(TestDtensorLayout)
#include "test_dtensor_layout.moc"
