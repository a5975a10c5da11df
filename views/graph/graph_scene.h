#pragma once
// The graph as QGraphicsScene items, built from a GraphDrawing: node colours by op category (render/node_category,
// as in exported SVGs) and by replay status; hovering a node highlights its producers, users and their edges.
// Selection is by FX node index: a node inside a collapsed block selects the block's item.
// Items are made from the drawing's SceneSpec (values prepared in the layout job); a drawing of more than a few
// hundred items and edges is made in slices of at most ~30 ms between events, and built() says when it is whole.
#include "views/graph/graph_drawing.h"
#include "views/graph/graph_items.h"

#include <QGraphicsScene>

#include <memory>
#include <vector>

namespace fxray::views {

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);

    void setDrawing(std::shared_ptr<const GraphDrawing> drawing);  // built() once every item is made
    const std::shared_ptr<const GraphDrawing>& drawing() const { return m_drawing; }
    void clearDrawing();
    bool isBuilding() const { return m_building; }
    // Drawings of more than `syncLimit` items and edges are made in slices of `sliceMs` (tests make slicing happen).
    void setBuildSlices(std::size_t syncLimit, int sliceMs);

    // The node's own item, else the item of the block holding it; nullptr when not drawn (e.g. hidden input).
    NodeItem* itemForNode(int node) const;
    NodeItem* itemForBlock(int block) const;
    const std::vector<NodeItem*>& nodeItems() const { return m_items; }
    const std::vector<ClusterItem*>& clusterItems() const { return m_clusters; }
    std::size_t edgeCount() const { return m_edges.size(); }

    // Selects the node's item (or its block's) without emitting nodeSelected. -1 clears.
    void selectNode(int node);
    int selectedNode() const { return m_selectedNode; }

    // Per FX node; the marks of a block are its worst node's.
    void setMarks(const std::vector<NodeMark>& marks);
    void setColourByStatus(bool on);
    void setSearchHits(const std::vector<int>& nodes);

    void setHovered(NodeItem* item);
    NodeItem* hovered() const { return m_hovered; }

Q_SIGNALS:
    void nodeSelected(int node);      // the user picked a node (or a stub of one)
    void blockSelected(int block);    // the user picked a collapsed block
    void blockActivated(int block);   // double click on a block: expand it
    void clusterSelected(int cluster);   // click on an open scope's title (render::Grouping::clusters)
    void clusterActivated(int cluster);  // double click on it: close it
    void built();                     // the drawing given to setDrawing has all its items

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void onSelectionChanged();
    void applyFill();
    bool buildSlice(int budgetMs);  // makes items until done (true) or budgetMs passed (-1: no limit)
    void buildNextSlice(quint64 generation);
    void finishBuild();

    std::shared_ptr<const GraphDrawing> m_drawing;
    std::shared_ptr<const SceneSpec> m_spec;
    std::size_t m_nextItem = 0, m_nextEdge = 0;  // what buildSlice makes next
    bool m_building = false;
    quint64 m_generation = 0;
    std::size_t m_syncLimit = 600;
    int m_sliceMs = 30;
    std::vector<int> m_hits;
    std::vector<NodeItem*> m_items;     // per layout box
    std::vector<EdgeItem*> m_edges;
    std::vector<ClusterItem*> m_clusters;
    std::vector<int> m_itemOfNode;      // per FX node: its own item (-1 if none)
    std::vector<int> m_itemOfBlock;     // per block: its item (-1 when expanded)
    std::vector<NodeMark> m_marks;
    bool m_colourByStatus = false;
    NodeItem* m_hovered = nullptr;
    int m_selectedNode = -1;
    bool m_selecting = false;  // selectNode in progress: no signal
};

}  // namespace fxray::views
