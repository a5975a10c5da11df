#pragma once
// The graph as QGraphicsScene items, built from a GraphDrawing: node colours by op category (render/node_category,
// as in exported SVGs) and by replay status; hovering a node highlights its producers, users and their edges.
// Selection is by FX node index: a node inside a collapsed block selects the block's item.
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

    void setDrawing(std::shared_ptr<const GraphDrawing> drawing);
    const std::shared_ptr<const GraphDrawing>& drawing() const { return m_drawing; }
    void clearDrawing();

    // The node's own item, else the item of the block holding it; nullptr when not drawn (e.g. hidden input).
    NodeItem* itemForNode(int node) const;
    NodeItem* itemForBlock(int block) const;
    const std::vector<NodeItem*>& nodeItems() const { return m_items; }
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

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void onSelectionChanged();
    QString stubLabelOfBlock(const std::string& id) const;
    void applyFill();

    std::shared_ptr<const GraphDrawing> m_drawing;
    std::vector<NodeItem*> m_items;     // per layout box
    std::vector<EdgeItem*> m_edges;
    std::vector<int> m_itemOfNode;      // per FX node: its own item (-1 if none)
    std::vector<int> m_itemOfBlock;     // per block: its item (-1 when expanded)
    std::vector<NodeMark> m_marks;
    bool m_colourByStatus = false;
    NodeItem* m_hovered = nullptr;
    int m_selectedNode = -1;
    bool m_selecting = false;  // selectNode in progress: no signal
};

}  // namespace fxray::views
