// The module hierarchy in the GUI (issue 17): a captured 12-layer stack (tests/data/scopes, node_meta.json beside the
// dump) opens as module scopes with the 12 identical layers folded into one box; opening the fold, selecting a node
// deep inside (its path opens), replay colours and search reaching folded nodes, the breadcrumb, the Outline dock,
// and the code panel's default width.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"
#include "views/panels/graph_panel.h"
#include "views/panels/graph_text_panel.h"
#include "views/panels/outline_panel.h"

#include <QDockWidget>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QtTest/QtTest>

using namespace fxray;
using fxray::views::GraphPanel;
using fxray::views::NodeItem;
using fxray::views::NodeMark;

namespace {

constexpr int kTimeoutMs = 60000;
const std::string kJoint = FXRAY_TEST_DATA_DIR "/scopes/stack12/stack12_joint_0";

bool waitDrawn(GraphPanel& p)
{
    return QTest::qWaitFor([&] { return !p.isLayingOut() && p.scene()->drawing(); }, kTimeoutMs);
}

std::vector<NodeItem*> items(GraphPanel& p, NodeItem::Kind kind)
{
    std::vector<NodeItem*> out;
    for (NodeItem* item : p.scene()->nodeItems())
        if (item->kind() == kind)
            out.push_back(item);
    return out;
}

const render::Block& blockOf(GraphPanel& p, NodeItem* item)
{
    return p.scene()->drawing()->grouping->blocks[static_cast<std::size_t>(item->block)];
}

NodeItem* foldItem(GraphPanel& p)
{
    for (NodeItem* item : items(p, NodeItem::Kind::Block))
        if (blockOf(p, item).fold >= 0)
            return item;
    return nullptr;
}

}  // namespace

class TestScopeView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void opensAsFoldedModuleScopes()
    {
        auto loaded = std::make_shared<const io::LoadedGraph>(io::loadAddress(kJoint));
        QCOMPARE(loaded->modules.source, graph::ModuleScopes::Source::Sidecar);
        GraphPanel p;
        p.resize(900, 700);
        QSignalSpy treeChanged(&p, &GraphPanel::scopeTreeChanged);
        p.setGraph(loaded);
        QVERIFY(waitDrawn(p));
        QCOMPARE(treeChanged.count(), 1);
        QVERIFY(p.scopeTree());
        // A screenful: few boxes, the 12 layers as one.
        const std::size_t drawn = p.scene()->nodeItems().size() - items(p, NodeItem::Kind::Stub).size();
        QVERIFY2(drawn <= views::kMaxScopeBoxes, QByteArray::number(static_cast<qulonglong>(drawn)));
        NodeItem* fold = foldItem(p);
        QVERIFY(fold);
        QCOMPARE(QString::fromStdString(blockOf(p, fold).title), QStringLiteral("layers.0–11 ×12"));
        QVERIFY(p.breadcrumbText().contains(QStringLiteral("model")));

        // Replay colours: a failing node in layer 5 colours the fold as its worst node.
        const int deep = loaded->graph.findNode("addmm_11");  // layers.5.fc1 (embed's addmm is addmm)
        QVERIFY(deep >= 0);
        std::vector<NodeMark> marks(loaded->graph.nodes.size(), NodeMark::Passed);
        marks[static_cast<std::size_t>(deep)] = NodeMark::Error;
        p.scene()->setMarks(marks);
        QCOMPARE(foldItem(p)->mark(), NodeMark::Error);
        // Search reaches the folded instances: the fold box holds the hits.
        p.setSearchText(QStringLiteral("addmm_11"));
        QVERIFY(!p.searchHits().empty());
        QCOMPARE(p.scene()->itemForNode(p.searchHits().front()), foldItem(p));

        // Opening the fold shows the 12 layers, each a box.
        p.expandBlock(foldItem(p)->block);
        QVERIFY(waitDrawn(p));
        QVERIFY(!foldItem(p));
        int layers = 0;
        for (NodeItem* item : items(p, NodeItem::Kind::Block))
            layers += QString::fromStdString(blockOf(p, item).title).startsWith(QStringLiteral("layers."));
        QCOMPARE(layers, 12);

        // Selecting a node deep inside opens its path: drawn as itself, the breadcrumb names its scopes.
        QSignalSpy focus(&p, &GraphPanel::focusScopeChanged);
        p.selectNode(deep);
        QVERIFY(waitDrawn(p));
        QVERIFY(QTest::qWaitFor([&] { return p.scene()->itemForNode(deep) && p.scene()->itemForNode(deep)->kind() == NodeItem::Kind::Node; }, kTimeoutMs));
        QVERIFY(p.scene()->itemForNode(deep)->isSelected());
        QVERIFY2(p.breadcrumbText().contains(QStringLiteral("layers.5")), qPrintable(p.breadcrumbText()));
        QVERIFY(p.breadcrumbText().contains(QStringLiteral("fc1")));
        QVERIFY(focus.count() >= 1);

        // The breadcrumb's root goes back to the first view.
        p.closeScope(0);
        QVERIFY(waitDrawn(p));
        QVERIFY(foldItem(p));
    }

    // Open scopes are drawn as boxes around what they hold (Graphviz clusters), labelled and nested as the scopes
    // are: after selecting a node in layer 5, the open fold holds the layer, the layer holds fc1, fc1 holds the
    // node's item. Double-clicking a cluster's title shuts that scope again.
    void openScopesDrawnAsNestedClusters()
    {
        auto loaded = std::make_shared<const io::LoadedGraph>(io::loadAddress(kJoint));
        GraphPanel p;
        p.resize(900, 700);
        p.setGraph(loaded);
        QVERIFY(waitDrawn(p));
        const auto clusterNamed = [&](const QString& prefix) -> views::ClusterItem* {
            for (views::ClusterItem* c : p.scene()->clusterItems())
                if (c->label().startsWith(prefix))
                    return c;
            return nullptr;
        };
        QVERIFY(!clusterNamed(QStringLiteral("layers.")));  // the fold is shut: no layer drawn open
        const int deep = loaded->graph.findNode("addmm_11");  // layers.5.fc1
        p.selectNode(deep);
        QVERIFY(waitDrawn(p));
        QVERIFY(QTest::qWaitFor([&] { return p.scene()->itemForNode(deep) && p.scene()->itemForNode(deep)->kind() == NodeItem::Kind::Node; }, kTimeoutMs));
        views::ClusterItem* fold = clusterNamed(QStringLiteral("layers.0–11 ×12"));
        views::ClusterItem* layer = clusterNamed(QStringLiteral("layers.5 · #5 of ×12"));
        views::ClusterItem* fc1 = clusterNamed(QStringLiteral("fc1"));
        QVERIFY(fold && layer && fc1);
        QVERIFY(fold->sceneBoundingRect().contains(layer->sceneBoundingRect()));
        QVERIFY(layer->sceneBoundingRect().contains(fc1->sceneBoundingRect()));
        QVERIFY(fc1->sceneBoundingRect().contains(p.scene()->itemForNode(deep)->sceneBoundingRect()));
        QVERIFY(layer->zValue() > fold->zValue());  // drawn above the box around it
        // The other layers are two boxes inside the fold's cluster: 0–4 before the open one, 6–11 after it.
        QStringList runs;
        for (NodeItem* item : items(p, NodeItem::Kind::Block))
            if (blockOf(p, item).restCount > 0 && fold->sceneBoundingRect().contains(item->sceneBoundingRect()))
                runs << QString::fromStdString(blockOf(p, item).title);
        runs.sort();
        QCOMPARE(runs, (QStringList{QStringLiteral("layers.0–4 ×5"), QStringLiteral("layers.6–11 ×6")}));

        // Double-click layer 5's title: it is one box again, and its cluster is gone.
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        const QPointF title = layer->labelBand().topLeft() + QPointF(30, layer->labelBand().height() / 2);
        p.view()->centerOn(title);
        const QPoint at = p.view()->mapFromScene(title);
        QTest::mouseDClick(p.view()->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(waitDrawn(p));
        QVERIFY(QTest::qWaitFor([&] { return !clusterNamed(QStringLiteral("layers.5")); }, kTimeoutMs));
        QVERIFY(clusterNamed(QStringLiteral("layers.0–11 ×12")));  // the fold stays open
        QCOMPARE(p.scene()->itemForNode(deep)->kind(), NodeItem::Kind::Block);
    }

    void outlineListsScopesAndFolds()
    {
        const io::LoadedGraph loaded = io::loadAddress(kJoint);
        const render::ScopeTree tree = render::buildScopeTree(loaded.graph, loaded.modules);
        views::OutlinePanel outline;
        outline.setTree(&tree);
        QTreeWidget* t = outline.tree();
        const QList<QTreeWidgetItem*> folds = t->findItems(QStringLiteral("layers.0–11 ×12"), Qt::MatchRecursive);
        QCOMPARE(folds.size(), 1);
        QCOMPARE(folds.front()->childCount(), 12);
        QCOMPARE(folds.front()->child(3)->text(0), QStringLiteral("layers.3"));
        QSignalSpy activated(&outline, &views::OutlinePanel::scopeActivated);
        int layer7 = -1;
        for (std::size_t s = 0; s < tree.scopes.size(); ++s)
            if (tree.scopes[s].path == "layers.7")
                layer7 = static_cast<int>(s);
        outline.selectScope(layer7);  // marks, emits nothing
        QCOMPARE(activated.count(), 0);
        QCOMPARE(outline.selectedScope(), layer7);
        Q_EMIT t->itemClicked(outline.itemForScope(layer7), 0);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.front().front().toInt(), layer7);
        outline.setTree(nullptr, QStringLiteral("none here"));
        QCOMPARE(t->topLevelItemCount(), 0);
    }

    void outlineDrivesTheGraphInTheMainWindow()
    {
        views::MainWindow w;
        w.resize(1500, 940);  // the default size (the offscreen screen is smaller)
        w.show();
        QSignalSpy drawn(w.graphPanel(), &GraphPanel::drawingReady);
        w.openPath(QString::fromStdString(kJoint));
        QVERIFY(QTest::qWaitFor([&] { return w.graphPanel()->scopeTree() && !w.graphPanel()->isLayingOut() && w.graphPanel()->scene()->drawing(); },
                                kTimeoutMs));
        auto* outline = w.findChild<views::OutlinePanel*>();
        QVERIFY(outline);
        QVERIFY(outline->tree()->topLevelItemCount() > 0);
        // The code panel gets 80 columns by default.
        const int column = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).horizontalAdvance(QLatin1Char('x'));
        const bool wide = QTest::qWaitFor([&] { return w.graphTextPanel()->editor()->viewport()->width() >= 80 * column; }, 5000);
        QVERIFY2(wide, qPrintable(QStringLiteral("viewport %1, panel %2, column %3, split %4").arg(w.graphTextPanel()->editor()->viewport()->width())
                                      .arg(w.graphTextPanel()->width()).arg(column).arg(w.findChild<QSplitter*>(QStringLiteral("graphSplit"))->sizes().value(1))));
        // Outline click -> the scope is revealed in the graph as a box.
        const render::ScopeTree* tree = w.graphPanel()->scopeTree();
        int layer3 = -1;
        for (std::size_t s = 0; s < tree->scopes.size(); ++s)
            if (tree->scopes[s].path == "layers.3")
                layer3 = static_cast<int>(s);
        Q_EMIT outline->tree()->itemClicked(outline->itemForScope(layer3), 0);
        QCOMPARE(w.graphPanel()->focusScope(), layer3);
        QVERIFY(QTest::qWaitFor([&] { return !w.graphPanel()->isLayingOut() && drawn.count() >= 2; }, kTimeoutMs));
        bool found = false;
        for (NodeItem* item : w.graphPanel()->scene()->nodeItems())
            found = found || (item->block >= 0 && w.graphPanel()->scene()->drawing()->grouping->blocks[static_cast<std::size_t>(item->block)].scope == layer3 &&
                              w.graphPanel()->scene()->drawing()->grouping->blocks[static_cast<std::size_t>(item->block)].fold < 0);
        QVERIFY(found);
    }
};

QTEST_MAIN(TestScopeView)
#include "test_scope_view.moc"
