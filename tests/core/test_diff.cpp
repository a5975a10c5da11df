// Graph diff: matching (renames and reordering are not differences), classification of changed / added / removed
// nodes, inputs and outputs, the merged graph, the line diff and the reports. Fixtures: tests/data/diff/.
#include "base/error.h"
#include "diff/diff_report.h"
#include "diff/graph_diff.h"
#include "diff/line_diff.h"
#include "diff/merged_graph.h"
#include "graph/algorithms.h"
#include "graph/printer.h"
#include "io/graph_source.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <random>
#include <set>

using namespace fxray;
using namespace fxray::graph;
using namespace fxray::diff;

namespace {

Graph load(const std::string& relative)
{
    return io::loadAddress(std::string(FXRAY_TEST_DATA_DIR) + "/diff/" + relative).graph;
}

std::vector<io::LoadedGraph> sampleGraphs()
{
    std::vector<io::LoadedGraph> out;
    for (const io::GraphEntry& e : io::discover(FXRAY_SAMPLES_DIR).graphs)
        out.push_back(io::loadGraph(e));
    return out;
}

// Every node renamed, independent nodes reordered (among ready nodes the latest in program order goes first; inputs
// keep their order, the output stays last). newIndex[i] is where node i went.
Graph renamedAndReordered(const Graph& g, std::vector<int>* newIndex = nullptr)
{
    const std::size_t n = g.nodes.size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (std::size_t i = 0; i < n; ++i)
        forEachNodeRef(g.nodes[i], [&](int r) {
            users[static_cast<std::size_t>(r)].push_back(static_cast<int>(i));
            ++pending[i];
        });
    std::vector<int> order;
    std::priority_queue<int> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (g.nodes[i].kind == NodeKind::Placeholder)
            order.push_back(static_cast<int>(i));
        else if (pending[i] == 0 && g.nodes[i].kind != NodeKind::Output)
            ready.push(static_cast<int>(i));
    const auto release = [&](int v) {
        for (int u : users[static_cast<std::size_t>(v)])
            if (--pending[static_cast<std::size_t>(u)] == 0 && g.nodes[static_cast<std::size_t>(u)].kind != NodeKind::Output)
                ready.push(u);
    };
    for (std::size_t k = 0; k < order.size(); ++k)
        release(order[k]);
    while (!ready.empty()) {
        const int v = ready.top();
        ready.pop();
        order.push_back(v);
        release(v);
    }
    if (g.outputNode() >= 0)
        order.push_back(g.outputNode());
    std::vector<int> position(n, -1);
    for (std::size_t k = 0; k < order.size(); ++k)
        position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    Graph out = g;
    out.nodes.clear();
    const std::function<void(Arg&)> remap = [&](Arg& a) {
        if (a.kind == Arg::Kind::Node)
            a.node = position[static_cast<std::size_t>(a.node)];
        for (Arg& item : a.items)
            remap(item);
    };
    int inputs = 0;
    for (const int i : order) {
        Node node = g.nodes[static_cast<std::size_t>(i)];
        if (node.kind == NodeKind::Placeholder)
            node.name = node.attr = "arg" + std::to_string(inputs++) + "_1";
        else if (node.kind != NodeKind::Output)
            node.name = "renamed_" + std::to_string(position[static_cast<std::size_t>(i)] * 7 + 3);
        for (Arg& a : node.args)
            remap(a);
        for (auto& kv : node.kwargs)
            remap(kv.second);
        out.nodes.push_back(std::move(node));
    }
    recomputeFrees(out);
    if (newIndex)
        *newIndex = position;
    return out;
}

std::set<std::string> namesWith(const DiffResult& r, const Graph& a, const Graph& b, Status s)
{
    std::set<std::string> out;
    for (const NodeDiff& d : r.nodes)
        if (d.status == s)
            out.insert(d.b >= 0 ? b.nodes[static_cast<std::size_t>(d.b)].name : a.nodes[static_cast<std::size_t>(d.a)].name);
    return out;
}

std::vector<const NodeDiff*> opDifferences(const DiffResult& r, const Graph& a, const Graph& b)
{
    std::vector<const NodeDiff*> out;
    for (const NodeDiff& d : r.nodes)
        if (isOpDifference(d, a, b))
            out.push_back(&d);
    return out;
}

std::vector<int> ancestorsOf(const Graph& g, int node)
{
    std::vector<bool> in(g.nodes.size(), false);
    std::vector<int> stack{node};
    in[static_cast<std::size_t>(node)] = true;
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        forEachNodeRef(g.nodes[static_cast<std::size_t>(v)], [&](int r) {
            if (!in[static_cast<std::size_t>(r)]) {
                in[static_cast<std::size_t>(r)] = true;
                stack.push_back(r);
            }
        });
    }
    std::vector<int> out;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i])
            out.push_back(static_cast<int>(i));
    return out;
}

// Reference LCS length (quadratic DP) for the property test of the Myers implementation.
std::size_t lcsLength(const std::vector<int>& a, const std::vector<int>& b)
{
    std::vector<std::size_t> row(b.size() + 1, 0), prev(b.size() + 1, 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j)
            row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
        std::swap(row, prev);
    }
    return prev[b.size()];
}

}  // namespace

class TestDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everySampleGraphAgainstItselfHasNoDifferences()
    {
        const auto graphs = sampleGraphs();
        QVERIFY(graphs.size() >= 50);
        for (const io::LoadedGraph& lg : graphs) {
            const DiffResult r = diffGraphs(lg.graph, lg.graph);
            QVERIFY2(r.equal(), (lg.entry.address + "\n" + formatSummary(lg.graph, lg.graph, r)).c_str());
            for (std::size_t i = 0; i < lg.graph.nodes.size(); ++i)
                QVERIFY2(r.aToB[i] == static_cast<int>(i), (lg.entry.address + " " + lg.graph.nodes[i].name).c_str());
        }
    }

    void everySampleGraphAgainstARenamedReorderedCopyHasNoDifferences()
    {
        for (const io::LoadedGraph& lg : sampleGraphs()) {
            std::vector<int> newIndex;
            const Graph copy = renamedAndReordered(lg.graph, &newIndex);
            const DiffResult r = diffGraphs(lg.graph, copy);
            QVERIFY2(r.equal(), (lg.entry.address + "\n" + formatSummary(lg.graph, copy, r)).c_str());
            // Every node found its own copy (not merely an identical twin).
            for (std::size_t i = 0; i < lg.graph.nodes.size(); ++i)
                QVERIFY2(r.aToB[i] == newIndex[i], (lg.entry.address + " " + lg.graph.nodes[i].name).c_str());
            QVERIFY(unifiedCodeDiff(lg.graph, copy, r).empty());
        }
    }

    void handRenamedAndReorderedFixtureHasNoDifferences()
    {
        const Graph a = load("base.py"), b = load("renamed.py");
        QVERIFY(a.nodes[1].name != b.nodes[1].name);
        const DiffResult r = diffGraphs(a, b);
        QVERIFY2(r.equal(), formatSummary(a, b, r).c_str());
        QCOMPARE(r.ops.same, 12);
        QCOMPARE(r.inputCounts.same, 4);
        QCOMPARE(r.outputCounts.same, 4);
        QCOMPARE(b.nodes[static_cast<std::size_t>(r.aToB[static_cast<std::size_t>(a.findNode("add"))])].name, std::string("add_7"));
        QCOMPARE(b.nodes[static_cast<std::size_t>(r.aToB[static_cast<std::size_t>(a.findNode("primals_3"))])].name,
                 std::string("arg2_1"));
        // Names and order aligned, the code texts are the same.
        const std::string code = unifiedCodeDiff(a, b, r);
        QVERIFY2(code.empty(), code.c_str());
    }

    void oneInsertedOpOneChangedOverloadOneChangedStrideAreExactlyTheThreeDifferences()
    {
        const Graph a = load("base.py"), b = load("edited.py");
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.differenceCount(), 3);
        const auto diffs = opDifferences(r, a, b);
        QCOMPARE(diffs.size(), std::size_t(3));
        QCOMPARE(namesWith(r, a, b, Status::Added), (std::set<std::string>{"mul_2"}));
        QCOMPARE(namesWith(r, a, b, Status::Removed), (std::set<std::string>{}));
        QCOMPARE(namesWith(r, a, b, Status::Changed), (std::set<std::string>{"add", "t"}));
        for (const NodeDiff* d : diffs) {
            if (d->status != Status::Changed)
                continue;
            QCOMPARE(d->changes.size(), std::size_t(1));
            const Change& c = d->changes[0];
            if (b.nodes[static_cast<std::size_t>(d->b)].name == "add") {
                QCOMPARE(c.field, Change::Field::Overload);
                QCOMPARE(c.before, std::string("aten.add.Tensor"));
                QCOMPARE(c.after, std::string("aten.add.Scalar"));
            } else {
                QCOMPARE(c.field, Change::Field::Stride);
                QCOMPARE(c.before, std::string("[1, 16]"));
                QCOMPARE(c.after, std::string("[32, 1]"));
            }
        }
        // addmm now reads the inserted node: explained by the insertion, not a difference of its own.
        QCOMPARE(r.nodes[static_cast<std::size_t>(std::find_if(r.nodes.begin(), r.nodes.end(), [&](const NodeDiff& d) {
                             return d.b == b.findNode("addmm");
                         }) - r.nodes.begin())].status,
                 Status::Same);
        QCOMPARE(r.inputCounts.differences(), 0);
        QCOMPARE(r.outputCounts.differences(), 0);
    }

    void theSameEditsAreFoundAgainstARenamedReorderedCopy()
    {
        const Graph a = load("base.py");
        const Graph b = renamedAndReordered(load("edited.py"));
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.differenceCount(), 3);
        QCOMPARE(r.ops.added, 1);
        QCOMPARE(r.ops.changed, 2);
    }

    void anOriginalAgainstASubgraphReportsExactlyTheRemovedNodes()
    {
        int checked = 0;
        for (const io::LoadedGraph& lg : sampleGraphs()) {
            const Graph& g = lg.graph;
            if (g.opCount() < 6)
                continue;
            // Keep what computes one node in the middle (a minimized repro of that node's failure).
            int middle = -1;
            for (std::size_t i = g.nodes.size() / 2; i < g.nodes.size() && middle < 0; ++i)
                if (g.nodes[i].isOp())
                    middle = static_cast<int>(i);
            if (middle < 0)
                continue;
            const std::vector<int> keep = ancestorsOf(g, middle);
            const Graph sub = extractSubgraph(g, keep, {middle});
            const DiffResult r = diffGraphs(g, sub);
            std::set<std::string> expected;
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
                if (!std::binary_search(keep.begin(), keep.end(), static_cast<int>(i)) && g.nodes[i].kind != NodeKind::Output)
                    expected.insert(g.nodes[i].name);
            const std::set<std::string> removed = namesWith(r, g, sub, Status::Removed);
            std::string why;
            for (const std::string& name : removed)
                if (!expected.count(name))
                    why += " unexpected " + name;
            for (const std::string& name : expected)
                if (!removed.count(name))
                    why += " missing " + name;
            QVERIFY2(why.empty(), (lg.entry.address + ":" + why).c_str());
            QVERIFY2(namesWith(r, g, sub, Status::Added).empty(), lg.entry.address.c_str());
            QVERIFY2(r.ops.changed == 0 && r.inputCounts.changed == 0 && r.inputCounts.added == 0,
                     (lg.entry.address + "\n" + formatSummary(g, sub, r)).c_str());
            // The outputs that went away are the only other differences, and the subgraph's own output if the
            // original did not return that node.
            const std::string& middleName = g.nodes[static_cast<std::size_t>(middle)].name;
            for (const PortDiff& p : r.outputs)
                QVERIFY2(p.status == Status::Same || p.status == Status::Removed ||
                             (p.status == Status::Added && sub.nodes[static_cast<std::size_t>(p.b)].name == middleName),
                         lg.entry.address.c_str());
            ++checked;
        }
        QVERIFY(checked >= 10);
    }

    void aValueCutIntoAnInputIsAnAddedInputAndItsProducersAreRemoved()
    {
        const Graph a = load("base.py");
        // Keep the linear + relu only: mul_1 (the norm's output) becomes an input of the subgraph.
        std::vector<int> keep;
        for (const char* name : {"primals_2", "primals_3", "t", "addmm", "relu", "sum_1"})
            keep.push_back(a.findNode(name));
        std::sort(keep.begin(), keep.end());
        const Graph sub = extractSubgraph(a, keep, {a.findNode("sum_1"), a.findNode("relu")});
        const DiffResult r = diffGraphs(a, sub);
        QCOMPARE(r.inputCounts.added, 1);
        QCOMPARE(sub.nodes[static_cast<std::size_t>(std::find_if(r.inputs.begin(), r.inputs.end(), [](const PortDiff& p) {
                               return p.status == Status::Added;
                           })->b)].name,
                 std::string("mul_1"));
        QCOMPARE(namesWith(r, a, sub, Status::Removed), (std::set<std::string>{"primals_1", "primals_4", "var_mean", "getitem",
                                                                               "getitem_1", "add", "rsqrt", "sub", "mul", "mul_1"}));
        QCOMPARE(r.ops.changed, 0);
    }

    void aRecompiledForwardDiffersOnlyInSizeMetadata()
    {
        const Graph a = load("recompile/mlp_forward_0.py"), b = load("recompile/mlp_forward_1.py");
        const DiffResult r = diffGraphs(a, b);
        QVERIFY(!r.equal());
        QCOMPARE(r.ops.added + r.ops.removed + r.inputCounts.added + r.inputCounts.removed, 0);
        QCOMPARE(r.outputCounts.differences(), 0);
        std::set<std::string> changed;
        for (const NodeDiff& d : r.nodes) {
            if (d.status != Status::Changed)
                continue;
            changed.insert(b.nodes[static_cast<std::size_t>(d.b)].name);
            for (const Change& c : d.changes)
                QVERIFY2(c.field == Change::Field::Shape || c.field == Change::Field::SymValue, c.str().c_str());
        }
        // Exactly the nodes whose recorded sizes mention the dynamic batch.
        std::set<std::string> dynamic;
        for (const Node& n : b.nodes)
            if (n.meta && formatAnnotation(*n.meta).find("s77") != std::string::npos)
                dynamic.insert(n.name);
        QCOMPARE(changed, dynamic);
        QCOMPARE(changed.size(), std::size_t(6));
        // Without metadata the two are the same graph.
        QVERIFY(diffGraphs(a, b, DiffOptions{false}).equal());
    }

    void swappedArgumentsAndChangedLiteralsAreReportedRenamesAreNot()
    {
        const Graph a = load("base.py");
        Graph b = renamedAndReordered(a);
        const DiffResult before = diffGraphs(a, b);
        QVERIFY(before.equal());
        Node& sub = b.nodes[static_cast<std::size_t>(before.aToB[static_cast<std::size_t>(a.findNode("sub"))])];
        std::swap(sub.args[0], sub.args[1]);
        Node& sum = b.nodes[static_cast<std::size_t>(before.aToB[static_cast<std::size_t>(a.findNode("sum_1"))])];
        sum.args[1].items[0].i = 0;
        sum.kwargs.emplace_back("keepdim", Arg::ofBool(true));
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.ops.changed, 2);
        QCOMPARE(r.differenceCount(), 2);
        std::vector<std::string> changes;
        for (const NodeDiff& d : r.nodes)
            for (const Change& c : d.changes)
                changes.push_back(c.str());
        std::sort(changes.begin(), changes.end());
        const std::string getitem1 = b.nodes[static_cast<std::size_t>(r.aToB[static_cast<std::size_t>(a.findNode("getitem_1"))])].name;
        const std::string input0 = b.nodes[0].name;
        QCOMPARE(changes, (std::vector<std::string>{"argument 0: primals_1 → " + getitem1, "argument 1: [1] → [0]",
                                                    "argument 1: getitem_1 → " + input0, "kwarg keepdim: (none) → True"}));
    }

    void anInputInsertedAtTheFrontShiftsNothingElse()
    {
        const Graph a = load("base.py");
        Graph b = a;
        Node extra;
        extra.kind = NodeKind::Placeholder;
        extra.name = extra.attr = "primals_0";
        extra.meta = a.nodes[0].meta;  // same metadata as the old first input: only the structure tells them apart
        b.nodes.insert(b.nodes.begin(), extra);
        for (Node& n : b.nodes) {
            const std::function<void(Arg&)> shift = [&](Arg& x) {
                if (x.kind == Arg::Kind::Node)
                    ++x.node;
                for (Arg& item : x.items)
                    shift(item);
            };
            for (Arg& x : n.args)
                shift(x);
            for (auto& kv : n.kwargs)
                shift(kv.second);
            for (int& f : n.frees)
                ++f;
        }
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.differenceCount(), 1);
        QCOMPARE(r.inputCounts.added, 1);
        QCOMPARE(r.inputCounts.same, 4);
        QCOMPARE(r.aToB[0], 1);
    }

    void reorderedOutputsAreMovesNotRemovals()
    {
        const Graph a = load("base.py");
        Graph b = a;
        auto& items = b.nodes[static_cast<std::size_t>(b.outputNode())].args[0].items;
        std::swap(items[0], items[3]);
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.outputCounts.added + r.outputCounts.removed, 0);
        QVERIFY(r.outputCounts.changed >= 1);
        for (const PortDiff& p : r.outputs)
            for (const Change& c : p.changes)
                QCOMPARE(c.field, Change::Field::Position);
        QCOMPARE(r.ops.differences(), 0);
    }

    void aSourceLineChangeIsNotADifference()
    {
        const Graph a = load("base.py");
        Graph b = a;
        for (StackFrame& f : b.stacks)
            f.line += 100;
        QVERIFY(diffGraphs(a, b).equal());
    }

    void mergedGraphHoldsBothSidesInTopologicalOrder()
    {
        const Graph a = load("base.py"), b = load("edited.py");
        const DiffResult r = diffGraphs(a, b);
        const MergedGraph m = mergeGraphs(a, b, r);
        QCOMPARE(m.graph.nodes.size(), r.nodes.size());
        QCOMPARE(m.graph.nodes.size(), std::size_t(18));
        const std::vector<int> order = topologicalOrder(m.graph);
        for (std::size_t k = 0; k < order.size(); ++k)
            QCOMPARE(order[k], static_cast<int>(k));
        // A read mul_1 into addmm; B reads mul_2 there: that edge of A is listed as removed.
        const auto idx = [&](const char* name) { return m.graph.findNode(name); };
        QVERIFY(std::find(m.removedEdges.begin(), m.removedEdges.end(), std::make_pair(idx("mul_1"), idx("addmm"))) !=
                m.removedEdges.end());
        QCOMPARE(m.removedEdges.size(), std::size_t(1));

        const DiffResult back = diffGraphs(b, a);  // the other way round mul_2 is removed
        const MergedGraph mb = mergeGraphs(b, a, back);
        QCOMPARE(back.ops.removed, 1);
        const int removed = mb.graph.findNode("mul_2");
        QVERIFY(removed >= 0);
        QCOMPARE(back.nodes[static_cast<std::size_t>(removed)].status, Status::Removed);
        QVERIFY(topologicalOrder(mb.graph).size() == mb.graph.nodes.size());
    }

    void removedNodesKeepDistinctNamesInTheMergedGraph()
    {
        const Graph a = load("base.py");
        Graph b = a;
        // Replace relu by gelu under the same name: relu removed, a new "relu" added.
        b.nodes[static_cast<std::size_t>(b.findNode("relu"))].target.op = "gelu";
        const DiffResult r = diffGraphs(a, b);
        QCOMPARE(r.ops.added, 1);
        QCOMPARE(r.ops.removed, 1);
        QCOMPARE(r.ops.changed, 0);
        const MergedGraph m = mergeGraphs(a, b, r);
        std::set<std::string> names;
        for (const Node& n : m.graph.nodes)
            QVERIFY2(names.insert(n.name).second, n.name.c_str());
        QVERIFY(names.count("relu~a"));
    }

    void myersFindsALongestCommonSubsequence()
    {
        std::mt19937 rng(7);
        for (int round = 0; round < 300; ++round) {
            const std::size_t n = rng() % 60, m = rng() % 60;
            const int alphabet = 1 + static_cast<int>(rng() % 6);
            std::vector<int> a(n), b(m);
            for (int& x : a)
                x = static_cast<int>(rng() % static_cast<unsigned>(alphabet));
            for (int& x : b)
                x = static_cast<int>(rng() % static_cast<unsigned>(alphabet));
            const auto pairs = commonSubsequence(a, b);
            QCOMPARE(pairs.size(), lcsLength(a, b));
            for (std::size_t k = 0; k < pairs.size(); ++k) {
                QCOMPARE(a[pairs[k].first], b[pairs[k].second]);
                if (k > 0)
                    QVERIFY(pairs[k].first > pairs[k - 1].first && pairs[k].second > pairs[k - 1].second);
            }
        }
    }

    void lineDiffOfTwentyThousandLinesWithFewEditsIsFast()
    {
        std::vector<int> a(20000);
        for (std::size_t k = 0; k < a.size(); ++k)
            a[k] = static_cast<int>(k);
        std::vector<int> b = a;
        b.erase(b.begin() + 5000);
        b.insert(b.begin() + 12000, -1);
        b[17000] = -2;
        const auto start = std::chrono::steady_clock::now();
        const auto pairs = commonSubsequence(a, b);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        QCOMPARE(pairs.size(), a.size() - 2);
        QVERIFY2(ms < 500, std::to_string(ms).c_str());
        // Completely different inputs still give a (trivially) correct answer in bounded time.
        std::vector<int> c(20000);
        for (std::size_t k = 0; k < c.size(); ++k)
            c[k] = -static_cast<int>(k) - 10;
        QVERIFY(commonSubsequence(a, c).empty());
    }

    void unifiedDiffHasHunksWithContext()
    {
        std::string a, b;
        for (int k = 1; k <= 20; ++k) {
            a += "line " + std::to_string(k) + "\n";
            if (k != 5)
                b += "line " + std::to_string(k) + "\n";
            if (k == 15)
                b += "new line\n";
        }
        const std::string expected = "--- x\n+++ y\n"
                                     "@@ -2,7 +2,6 @@\n line 2\n line 3\n line 4\n-line 5\n line 6\n line 7\n line 8\n"
                                     "@@ -13,6 +12,7 @@\n line 13\n line 14\n line 15\n+new line\n line 16\n line 17\n line 18\n";
        QCOMPARE(unifiedDiff(a, b, "x", "y"), expected);
        QVERIFY(unifiedDiff(a, a, "x", "y").empty());
        QCOMPARE(unifiedDiff("", "one\n", "x", "y"), std::string("--- x\n+++ y\n@@ -0,0 +1 @@\n+one\n"));
    }

    void codeDiffShowsOnlyTheEditedLines()
    {
        const Graph a = load("base.py"), b = load("edited.py");
        const DiffResult r = diffGraphs(a, b);
        const std::string code = unifiedCodeDiff(a, b, r, {"base", "edited"});
        int plus = 0, minus = 0;
        for (std::string_view line : splitLines(code)) {
            if (line.starts_with("+++") || line.starts_with("---"))
                continue;
            plus += line.starts_with("+");
            minus += line.starts_with("-");
        }
        // add's overload, t's stride, addmm reading mul_2, and the new mul_2 itself.
        QCOMPARE(minus, 3);
        QCOMPARE(plus, 4);
        QVERIFY(code.find("+        mul_2: \"f32[8, 16][16, 1]cpu\" = torch.ops.aten.mul.Tensor(mul_1, 0.5)") != std::string::npos);
    }

    void jsonListsOnlyTheDifferences()
    {
        const Graph a = load("base.py"), b = load("edited.py");
        const DiffResult r = diffGraphs(a, b);
        const json::Value j = toJson(a, b, r, {"base", "edited"});
        QCOMPARE(j["equal"].asBool(), false);
        QCOMPARE(j["differences"].asInt(), std::int64_t(3));
        QCOMPARE(j["nodes"].size(), std::size_t(3));
        QCOMPARE(j["counts"]["ops"]["same"].asInt(), std::int64_t(10));
        QCOMPARE(j["inputs"].size(), std::size_t(0));
        bool sawStride = false;
        for (const json::Value& n : j["nodes"].asArray())
            for (const json::Value& c : n["changes"].asArray())
                sawStride = sawStride || (c["field"].asString() == "stride" && n["b"].asString() == "t");
        QVERIFY(sawStride);
        // It parses back (the CLI prints it).
        QCOMPARE(json::parse(j.dump()), j);
    }

    void malformedGraphsAreErrorsNotCrashes()
    {
        Graph a = load("base.py");
        Graph bad = a;
        bad.nodes[5].args[0] = Arg::ofNode(99999);
        bool threw = false;
        try {
            diffGraphs(a, bad);
        } catch (const Error&) {
            threw = true;  // the CLI prints it and exits 2
        }
        QVERIFY(threw);
        QVERIFY(diffGraphs(Graph{}, Graph{}).equal());
        const DiffResult r = diffGraphs(Graph{}, a);
        QCOMPARE(r.ops.added, 12);
    }
};

QTEST_APPLESS_MAIN(TestDiff)
#include "test_diff.moc"
