// The graph view: a layout made in an fxray-layout child process becomes scene items for every node; large graphs
// open as blocks and a block expands on demand (also to reach a selected node); replay results colour the nodes
// (a block takes its worst node's colour); hover highlights producers and users; a layout process that crashes
// is an error in the panel, not the end of the app.
#include "graph/fx_parser.h"
#include "render/node_category.h"
#include "replay/api/replay_types.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/panels/graph_panel.h"

#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace fxray;
using fxray::views::GraphPanel;
using fxray::views::NodeItem;
using fxray::views::NodeMark;

namespace {

constexpr int kTimeoutMs = 60000;

// A residual chain of `layers` statements, each from its own model line: 3 nodes a layer plus its weight input.
std::shared_ptr<const io::LoadedGraph> chain(int layers)
{
    std::string params = "x";
    std::string body;
    std::string prev = "x";
    for (int k = 0; k < layers; ++k) {
        const std::string K = std::to_string(k);
        params += ", w" + K;
        body += "        # File: /m.py:" + std::to_string(10 + k) + " in forward, code: x = self.layer" + K + "(x)\n";
        body += "        mm_" + K + ": \"f32[8, 8][8, 1]cpu\" = torch.ops.aten.mm.default(" + prev + ", w" + K + ")\n";
        body += "        relu_" + K + ": \"f32[8, 8][8, 1]cpu\" = torch.ops.aten.relu.default(mm_" + K + ")\n";
        body += "        add_" + K + ": \"f32[8, 8][8, 1]cpu\" = torch.ops.aten.add.Tensor(relu_" + K + ", " + prev + ")\n";
        prev = "add_" + K;
    }
    const std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body +
                             "        return (" + prev + ",)\n";
    auto loaded = std::make_shared<io::LoadedGraph>();
    loaded->graph = graph::parseFxModule(text, {"chain.py", 1}).graph;
    loaded->entry.title = "chain";
    loaded->entry.address = "chain";
    return loaded;
}

// A replay report in which every node of g passed.
std::shared_ptr<replay::ReplayReport> passingReport(const io::LoadedGraph& g)
{
    auto report = std::make_shared<replay::ReplayReport>();
    report->nodes.resize(g.graph.nodes.size());
    for (std::size_t k = 0; k < report->nodes.size(); ++k) {
        report->nodes[k].name = g.graph.nodes[k].name;
        report->nodes[k].status = replay::NodeStatus::Passed;
    }
    return report;
}

bool waitForDrawing(GraphPanel& panel)
{
    QSignalSpy ready(&panel, &GraphPanel::drawingReady);
    QSignalSpy failed(&panel, &GraphPanel::layoutFailed);
    return QTest::qWaitFor([&] { return !ready.isEmpty() || !failed.isEmpty(); }, kTimeoutMs) && !ready.isEmpty();
}

}  // namespace

class TestGraphView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smallGraphHasAnItemPerNodeAndEdgesBetweenThem()
    {
        GraphPanel panel;
        const auto g = chain(10);
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        const auto* scene = panel.scene();
        QVERIFY(!scene->drawing()->grouped());
        for (std::size_t i = 0; i < g->graph.nodes.size(); ++i)
            QVERIFY2(scene->itemForNode(static_cast<int>(i)) || g->graph.nodes[i].kind == graph::NodeKind::Placeholder,
                     g->graph.nodes[i].name.c_str());
        // add_3 reads relu_3 and add_2: two drawn edges end at it.
        NodeItem* add3 = scene->itemForNode(g->graph.findNode("add_3"));
        QVERIFY(add3 && add3->kind() == NodeItem::Kind::Node);
        QVERIFY(add3->edges.size() >= 3);  // two in, one out
        QVERIFY(panel.statusText().contains(QStringLiteral("%1 nodes").arg(g->graph.nodes.size())));
    }

    // Large drawings are made in slices between events (the GUI thread never stalls on thousands of items): the
    // items and edges are the same as made at once, the panel selects and reports the drawing only once it is whole,
    // and search hits and marks set meanwhile are applied.
    void slicedSceneBuildingMakesTheSameItems()
    {
        GraphPanel panel;
        panel.scene()->setBuildSlices(0, 0);  // every drawing in slices of 15 items
        const auto g = chain(150);
        const int target = g->graph.findNode("relu_140");
        panel.setGraph(g);
        panel.selectNode(target);
        QVERIFY(waitForDrawing(panel));
        QVERIFY(!panel.isLayingOut());
        QVERIFY(panel.scene()->itemForNode(target) && panel.scene()->itemForNode(target)->isSelected());
        const auto drawing = panel.scene()->drawing();

        views::GraphScene whole;  // at once
        whole.setDrawing(drawing);
        QVERIFY(!whole.isBuilding());
        views::GraphScene sliced;
        sliced.setBuildSlices(0, 0);
        QSignalSpy built(&sliced, &views::GraphScene::built);
        sliced.setDrawing(drawing);
        QVERIFY(sliced.isBuilding());
        QVERIFY(sliced.nodeItems().size() < whole.nodeItems().size());
        std::vector<NodeMark> marks(g->graph.nodes.size(), NodeMark::Passed);
        marks[static_cast<std::size_t>(target)] = NodeMark::Error;
        sliced.setMarks(marks);
        sliced.setSearchHits({target});
        QVERIFY(QTest::qWaitFor([&] { return !built.isEmpty(); }, kTimeoutMs));
        QVERIFY(!sliced.isBuilding());
        QCOMPARE(built.count(), 1);
        QCOMPARE(sliced.nodeItems().size(), whole.nodeItems().size());
        QCOMPARE(sliced.edgeCount(), whole.edgeCount());
        QVERIFY(whole.nodeItems().size() > 450);
        for (std::size_t i = 0; i < whole.nodeItems().size(); ++i) {
            const NodeItem* a = whole.nodeItems()[i];
            const NodeItem* b = sliced.nodeItems()[i];
            QCOMPARE(b->kind(), a->kind());
            QCOMPARE(b->node, a->node);
            QCOMPARE(b->block, a->block);
            QCOMPARE(b->boundingRect(), a->boundingRect());
            QCOMPARE(b->lines(), a->lines());
            QCOMPARE(b->toolTip(), a->toolTip());
            QCOMPARE(b->fill(), a->fill());
            QCOMPARE(b->edges, a->edges);
        }
        for (std::size_t n = 0; n < g->graph.nodes.size(); ++n)
            QCOMPARE(sliced.itemForNode(static_cast<int>(n)) ? sliced.itemForNode(static_cast<int>(n))->box() : -1,
                     whole.itemForNode(static_cast<int>(n)) ? whole.itemForNode(static_cast<int>(n))->box() : -1);
        QCOMPARE(sliced.itemForNode(target)->mark(), NodeMark::Error);
        // A new drawing while one is still in slices: the old one stops, the new one is whole.
        sliced.setDrawing(drawing);
        sliced.setDrawing(drawing);
        QVERIFY(QTest::qWaitFor([&] { return built.count() == 2; }, kTimeoutMs));
        QTest::qWait(50);
        QCOMPARE(built.count(), 2);
        QCOMPARE(sliced.nodeItems().size(), whole.nodeItems().size());
    }

    void collectiveNodesAreDrawnAsCollectives()
    {
        GraphPanel panel;
        auto g = std::make_shared<const io::LoadedGraph>(io::loadAddress(
            FXRAY_TEST_DATA_DIR "/distributed/allreduce/dedicated_log_torch_trace_rank_0_po8pphpz.log#r0:0/0/aot_inference_graph"));
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        const QColor collectiveFill(QString::fromLatin1(render::nodeStyle(render::NodeCategory::Collective).fill.data()));
        NodeItem* reduce = panel.scene()->itemForNode(g->graph.findNode("all_reduce"));
        NodeItem* wait = panel.scene()->itemForNode(g->graph.findNode("wait_tensor"));
        NodeItem* mm = panel.scene()->itemForNode(g->graph.findNode("mm"));
        QVERIFY(reduce && wait && mm);
        QCOMPARE(reduce->fill(), collectiveFill);
        QCOMPARE(wait->fill(), collectiveFill);
        QVERIFY(mm->fill() != collectiveFill);
        QVERIFY2(reduce->lines().size() > 1 && reduce->lines()[1].startsWith(QStringLiteral("⇄ ")), qPrintable(reduce->lines().join('|')));
        QVERIFY2(reduce->toolTip().contains(QStringLiteral("collective (with the other ranks): all_reduce sum f32[4, 16] on group '0'")),
                 qPrintable(reduce->toolTip()));
        QVERIFY2(wait->toolTip().contains(QStringLiteral("waits on all_reduce")), qPrintable(wait->toolTip()));
        QVERIFY(!mm->toolTip().contains(QStringLiteral("collective")));
    }

    void hoverHighlightsProducersAndUsers()
    {
        GraphPanel panel;
        const auto g = chain(4);
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        auto* scene = panel.scene();
        NodeItem* relu = scene->itemForNode(g->graph.findNode("relu_1"));
        NodeItem* mm = scene->itemForNode(g->graph.findNode("mm_1"));
        NodeItem* add = scene->itemForNode(g->graph.findNode("add_1"));
        NodeItem* far = scene->itemForNode(g->graph.findNode("relu_3"));
        scene->setHovered(relu);
        QCOMPARE(scene->hovered(), relu);
        QVERIFY(mm && add && far);
        QVERIFY(mm->isHighlighted());    // producer
        QVERIFY(add->isHighlighted());   // user
        QVERIFY(!far->isHighlighted());
        scene->setHovered(nullptr);
        QCOMPARE(scene->hovered(), nullptr);
        QVERIFY(!mm->isHighlighted() && !add->isHighlighted());
    }

    void largeGraphOpensAsBlocksAndExpandsToReachANode()
    {
        GraphPanel panel;
        const auto g = chain(400);  // 1,602 nodes: above kGroupAboveNodes
        QVERIFY(g->graph.nodes.size() > views::kGroupAboveNodes);
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        const auto drawing = panel.scene()->drawing();
        QVERIFY(drawing->grouped());
        const int blocks = static_cast<int>(drawing->grouping->blocks.size());
        QVERIFY(blocks > 10 && blocks <= static_cast<int>(views::kMaxBlocks) + 10);
        QCOMPARE(drawing->collapsedBlocks(), blocks);
        // Far fewer items than nodes.
        QVERIFY(panel.scene()->nodeItems().size() < g->graph.nodes.size() / 4);

        // Selecting a node inside a collapsed block expands that block (a new layout) and selects the node.
        const int target = g->graph.findNode("relu_250");
        NodeItem* before = panel.scene()->itemForNode(target);
        QVERIFY(before && before->kind() == NodeItem::Kind::Block);
        panel.selectNode(target);
        QVERIFY(waitForDrawing(panel));
        NodeItem* item = panel.scene()->itemForNode(target);
        QVERIFY(item && item->kind() == NodeItem::Kind::Node);
        QVERIFY(item->isSelected());
        QCOMPARE(panel.scene()->drawing()->collapsedBlocks(), blocks - 1);

        // A block expands by double click (blockActivated) too; Collapse puts everything back.
        Q_EMIT panel.scene()->blockActivated(0);
        QVERIFY(waitForDrawing(panel));
        QCOMPARE(panel.scene()->drawing()->collapsedBlocks(), blocks - 2);
        panel.collapseAll();
        QVERIFY(waitForDrawing(panel));
        QCOMPARE(panel.scene()->drawing()->collapsedBlocks(), blocks);
    }

    void replayResultsColourNodesAndBlocks()
    {
        GraphPanel panel;
        const auto g = chain(400);
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        auto report = passingReport(*g);
        const int bad = g->graph.findNode("mm_123");
        report->nodes[static_cast<std::size_t>(bad)].status = replay::NodeStatus::Mismatch;
        panel.setReport(report);
        // The block holding it shows the mismatch; another block shows passed.
        QCOMPARE(panel.scene()->itemForNode(bad)->mark(), NodeMark::Mismatch);
        QCOMPARE(panel.scene()->itemForNode(g->graph.findNode("mm_5"))->mark(), NodeMark::Passed);
        panel.selectNode(bad);
        QVERIFY(waitForDrawing(panel));
        QCOMPARE(panel.scene()->itemForNode(bad)->kind(), NodeItem::Kind::Node);
        QCOMPARE(panel.scene()->itemForNode(bad)->mark(), NodeMark::Mismatch);
    }

    void cudaGraphBlockersAreMarkedAndTurnOnStatusColours()
    {
        GraphPanel panel;
        const auto g = chain(20);
        panel.setGraph(g);
        QVERIFY(waitForDrawing(panel));
        auto report = passingReport(*g);
        report->cudaGraph.emplace();
        report->cudaGraph->status = "unsafe";
        report->cudaGraph->findings.push_back({replay::CudaGraphFinding::Kind::HostSync, "mm_5", "syncs", true});
        report->cudaGraph->findings.push_back({replay::CudaGraphFinding::Kind::Nondeterministic, "mm_6", "atomics", false});
        auto* byStatus = panel.findChild<QCheckBox*>();
        QVERIFY(byStatus && !byStatus->isChecked());
        panel.setReport(report);
        QCOMPARE(report->verdict(), std::string("pass"));
        QCOMPARE(panel.scene()->itemForNode(g->graph.findNode("mm_5"))->mark(), NodeMark::CudaGraphBlocker);
        QCOMPARE(panel.scene()->itemForNode(g->graph.findNode("mm_6"))->mark(), NodeMark::Passed);  // a note only
        QVERIFY(byStatus->isChecked());
    }

    void crashingLayoutProcessIsAnErrorNotACrash()
    {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("crashing-layout"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\ncat > /dev/null\necho 'dot: out of memory' >&2\nkill -SEGV $$\n");
        f.close();
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        GraphPanel panel;
        panel.setLayoutProgram(script);
        QSignalSpy failed(&panel, &GraphPanel::layoutFailed);
        panel.setGraph(chain(5));
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY2(failed.front().front().toString().contains(QStringLiteral("signal 11")), qPrintable(failed.front().front().toString()));
        QVERIFY(panel.statusText().startsWith(QStringLiteral("No drawing")));
        // The panel still works with a good layout program.
        panel.setLayoutProgram(views::locateLayoutProgram());
        panel.setGraph(chain(6));
        QVERIFY(waitForDrawing(panel));
    }

    void zoomAndFitStayWithinBounds()
    {
        GraphPanel panel;
        panel.resize(800, 600);
        panel.setGraph(chain(30));
        QVERIFY(waitForDrawing(panel));
        views::GraphView* view = panel.view();
        view->fitAll();
        QVERIFY(view->zoom() <= 1.0);
        for (int i = 0; i < 100; ++i)
            view->zoomBy(1.25);
        QVERIFY(view->zoom() <= 8.0);
        for (int i = 0; i < 100; ++i)
            view->zoomBy(0.8);
        QVERIFY(view->zoom() >= 0.004);
    }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
