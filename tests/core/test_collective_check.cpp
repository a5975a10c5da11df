// The static check of a distributed job (graph/collective_check) and the setup a rank's worker reads from its
// environment (replay/distributed_setup): what the ranks' collectives must agree on, and what they may not.
#include "base/error.h"
#include "graph/collective_check.h"
#include "graph/fx_parser.h"
#include "replay/api/distributed_setup.h"

#include <QtTest/QtTest>

#include <cstdlib>

using namespace fxray;
using namespace fxray::graph;

namespace {

Graph parse(const std::string& body)
{
    const std::string text = "class G(torch.nn.Module):\n"
                             "    def forward(self, a: \"f32[4, 8][8, 1]cpu\", b: \"bf16[16][1]cpu\"):\n" +
                             body + "        return (a,)\n";
    return parseFxModule(text, ParseOptions{"t.py", 1}).graph;
}

std::string line(const std::string& s) { return "        " + s + "\n"; }

const std::string kAllReduce = line("r: \"f32[4, 8][8, 1]cpu\" = torch.ops._c10d_functional.all_reduce.default(a, 'sum', '0')") +
                               line("w: \"f32[4, 8][8, 1]cpu\" = torch.ops._c10d_functional.wait_tensor.default(r)");

CollectiveCheck check2(const Graph& g0, const Graph& g1, const std::map<std::string, std::vector<int>>& groups = {})
{
    return checkCollectives({RankGraphs{0, {{"g0", &g0}}}, RankGraphs{1, {{"g1", &g1}}}}, groups);
}

}  // namespace

class TestCollectiveCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsOpGroupReduceOpAndInputButNotWaits()
    {
        const Graph g = parse(kAllReduce + line("g: \"f32[8, 8][8, 1]cpu\" = "
                                                "torch.ops._c10d_functional.all_gather_into_tensor.default(a, 2, 'tp')"));
        const auto calls = collectiveCalls(g, "g");
        QCOMPARE(calls.size(), std::size_t(2));
        QCOMPARE(calls[0].describe(), std::string("all_reduce sum f32[4, 8] on group '0' (node r)"));
        QCOMPARE(calls[1].describe(), std::string("all_gather_into_tensor f32[4, 8] on group 'tp' (node g)"));
        QCOMPARE(waitedCollective(g, g.findNode("w")), std::string("r"));
        QCOMPARE(waitedCollective(g, g.findNode("r")), std::string());
    }

    void identicalRanksPassWithTheWorldGroupOfEveryRank()
    {
        const Graph g = parse(kAllReduce);
        const auto c = check2(g, g);
        QVERIFY(c.ok());
        QVERIFY((c.groups == std::map<std::string, std::vector<int>>{{"0", {0, 1}}}));
        QCOMPARE(c.callsPerRank.at(1), std::size_t(1));
        QVERIFY(c.notes.empty());  // "0" is torch's world group: no assumption to note
    }

    void aDifferentReduceOpIsNamedWithBothRanks()
    {
        const Graph g0 = parse(kAllReduce);
        const Graph g1 = parse(line("r: \"f32[4, 8][8, 1]cpu\" = torch.ops._c10d_functional.all_reduce.default(a, 'max', '0')"));
        const auto c = check2(g0, g1);
        QCOMPARE(c.mismatches.size(), std::size_t(1));
        QCOMPARE(c.mismatches[0], std::string("group '0', collective #1: rank 1 calls all_reduce max f32[4, 8] on group '0' "
                                              "(node r) in g1 where rank 0 calls all_reduce sum f32[4, 8] on group '0' (node r) in g0"));
        // The calls it names, for a view to link to: rank 1's in g1, then rank 0's in g0.
        QCOMPARE(c.mismatchCalls.size(), std::size_t(1));
        QCOMPARE(c.mismatchCalls[0].size(), std::size_t(2));
        QCOMPARE(c.mismatchCalls[0][0].first, 1);
        QCOMPARE(c.mismatchCalls[0][0].second.graph, std::string("g1"));
        QCOMPARE(c.mismatchCalls[0][1].second.reduceOp, std::string("sum"));
    }

    void aMissingCallAndADifferentShapeAreNamed()
    {
        const Graph g0 = parse(kAllReduce);
        const Graph none = parse("");
        auto c = check2(g0, none);
        QCOMPARE(c.mismatches.size(), std::size_t(1));
        QVERIFY2(c.mismatches[0].find("rank 0 calls all_reduce sum f32[4, 8]") != std::string::npos &&
                     c.mismatches[0].find("rank 1 makes only 0 call(s) on this group") != std::string::npos,
                 c.mismatches[0].c_str());
        const Graph g1 = parse(line("r: \"bf16[16][1]cpu\" = torch.ops._c10d_functional.all_reduce.default(b, 'sum', '0')"));
        c = check2(g0, g1);
        QVERIFY2(c.mismatches.size() == 1 && c.mismatches[0].find("bf16[16]") != std::string::npos, c.mismatches[0].c_str());
    }

    void allToAllMayDifferInShapeButNotInDtype()
    {
        auto a2a = [](const char* input, const char* meta) {
            return parse(line(std::string("x: \"") + meta + "\" = torch.ops._c10d_functional.all_to_all_single.default(" + input +
                              ", [2, 2], [1, 3], '0')"));
        };
        const Graph g0 = a2a("a", "f32[4, 8][8, 1]cpu");
        QVERIFY(check2(g0, a2a("a", "f32[4, 8][8, 1]cpu")).ok());
        QVERIFY(!check2(g0, a2a("b", "bf16[16][1]cpu")).ok());
    }

    void aGroupsMembersAloneAreCompared()
    {
        // Group "1" holds rank 0 only: rank 1 never calling it is right, not a hang.
        const Graph g0 = parse(line("r: \"f32[4, 8][8, 1]cpu\" = torch.ops._c10d_functional.all_reduce.default(a, 'sum', '1')"));
        const Graph none = parse("");
        QVERIFY(check2(g0, none, {{"1", {0}}}).ok());
        const auto assumed = check2(g0, none);
        QVERIFY(!assumed.ok());
        QCOMPARE(assumed.notes.size(), std::size_t(1));  // the membership that was assumed is said
    }

    void aGroupSizeTheGraphsPassMustMatchItsMembers()
    {
        // The gather says its group has 2 ranks; the job has 3 and nothing names the group's members.
        const Graph g = parse(line("g: \"f32[8, 8][8, 1]cpu\" = torch.ops._c10d_functional.all_gather_into_tensor.default(a, 2, '0')"));
        const auto three = checkCollectives({RankGraphs{0, {{"g0", &g}}}, RankGraphs{1, {{"g1", &g}}}, RankGraphs{2, {}}});
        QCOMPARE(three.mismatches.size(), std::size_t(1));
        QVERIFY2(three.mismatches[0].find("says the group has 2 ranks, but it was taken as every rank of the job (3)") !=
                     std::string::npos, three.mismatches[0].c_str());
        QVERIFY(checkCollectives({RankGraphs{0, {{"g0", &g}}}, RankGraphs{1, {{"g1", &g}}}, RankGraphs{2, {}}},
                                 {{"0", {0, 1}}}).ok());
        // A rank that calls a group it is not in.
        const auto outsider = checkCollectives({RankGraphs{0, {{"g0", &g}}}, RankGraphs{1, {{"g1", &g}}}, RankGraphs{2, {{"g2", &g}}}},
                                               {{"0", {0, 1}}});
        QVERIFY2(!outsider.ok() && outsider.mismatches[0].find("rank 2 calls all_gather_into_tensor") != std::string::npos &&
                     outsider.mismatches[0].find("but is not a member of it") != std::string::npos,
                 outsider.mismatches[0].c_str());
    }

    void legacyCallsNameTheirGroupByItsRanks()
    {
        const Graph g = parse(line("r: \"f32[4, 8][8, 1]cpu\" = torch.ops.c10d_functional.all_reduce.default(a, 'sum', '', [0, 1], 2)"));
        const auto calls = collectiveCalls(g, "g");
        QCOMPARE(calls.size(), std::size_t(1));
        QCOMPARE(calls[0].group, std::string("ranks[0, 1]"));
        QCOMPARE(calls[0].reduceOp, std::string("sum"));
        const auto c = check2(g, g);
        QVERIFY(c.ok());
        QVERIFY((c.groups.at("ranks[0, 1]") == std::vector<int>{0, 1}));
    }

    void aRanksSetupSurvivesTheEnvironment()
    {
        replay::DistributedSetup s;
        s.rank = 1;
        s.world = 3;
        s.store = "/tmp/x/store";
        s.groups = {{"0", {0, 1, 2}}, {"tp", {1, 2}}};
        s.timeout = std::chrono::milliseconds(2500);
        for (const auto& [k, v] : replay::distributedEnv(s))
            qputenv(k.c_str(), QByteArray::fromStdString(v));
        const auto back = replay::distributedSetupFromEnv();
        QVERIFY(back.has_value());
        QCOMPARE(back->rank, 1);
        QCOMPARE(back->world, 3);
        QCOMPARE(back->store, s.store);
        QVERIFY(back->groups == s.groups);
        QCOMPARE(back->timeout.count(), std::int64_t(2500));
        QCOMPARE(back->backend, std::string("gloo"));
        qputenv("FXRAY_DIST_RANK", "7");
        QVERIFY_THROWS_EXCEPTION(Error, replay::distributedSetupFromEnv());
        qunsetenv("FXRAY_DIST_RANK");
        QVERIFY(!replay::distributedSetupFromEnv().has_value());
    }

    void badGroupSpecsAreRefusedWithTheText()
    {
        QVERIFY((replay::parseGroupSpec("tp=2,0,2") == std::pair<std::string, std::vector<int>>{"tp", {0, 2}}));
        for (const char* bad : {"tp", "=0,1", "tp=", "tp=0,x", "tp=-1"}) {
            try {
                replay::parseGroupSpec(bad);
                QFAIL(bad);
            } catch (const Error& e) {
                QVERIFY2(std::string(e.what()).find("group") != std::string::npos, e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCollectiveCheck)
#include "test_collective_check.moc"
