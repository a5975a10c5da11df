#pragma once
// The graph view with its toolbar: fit / zoom, search (Ctrl+F) by node name or op with next/previous, colouring
// by op category or by replay status, expand/collapse for large graphs, and a status line (nodes, layout time).
// Layouts are made in the GUI's job tracker (computeDrawing: Graphviz in an fxray-layout child process); a newer
// request supersedes the older one there, so a layout for a graph that was replaced meanwhile is dropped.
#include "io/graph_source.h"
#include "views/graph/graph_drawing.h"
#include "views/graph/graph_items.h"
#include "render/scope_tree.h"
#include "views/services/job_tracker.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace fxray::replay {
struct ReplayReport;
}

namespace fxray::views {

class GraphScene;
class GraphView;

class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);
    ~GraphPanel() override;

    void setGraph(std::shared_ptr<const io::LoadedGraph> graph);
    void clear(const QString& message = {});
    std::shared_ptr<const io::LoadedGraph> graph() const { return m_graph; }

    // Selects and centres the node; a node inside a collapsed block expands that block first (a new layout).
    void selectNode(int node);
    int selectedNode() const { return m_selected; }

    void setReport(std::shared_ptr<const replay::ReplayReport> report);
    void expandBlock(int block);
    void collapseAll();

    // Module hierarchy (render/scope_tree.h): graphs whose nodes know their modules open as a tree of module scopes
    // (null otherwise). Reveal shows a scope as one box (opening what holds it); open shows what is inside.
    // Known from the graph's first drawing on (built in the layout job): until then null, and scopeTreePending().
    const render::ScopeTree* scopeTree() const { return m_tree.get(); }
    const std::shared_ptr<const render::ScopeTree>& sharedScopeTree() const { return m_tree; }
    bool scopeTreePending() const { return m_treePending; }
    const render::ScopeView& scopeView() const { return m_scopeView; }
    void revealScope(int scope);
    void openScope(int scope);
    void closeScope(int scope);  // the scope as one box again; 0: the first view
    // An open scope or fold drawn as a box around its contents (render::Grouping::clusters): shut it again.
    void closeCluster(int cluster);
    int focusScope() const { return m_focusScope; }
    QString breadcrumbText() const;
    void expandAll();  // lays out every node: slow for thousands of nodes, runs in the background like any layout

    // Search: nodes whose name or op contains the text (case-insensitive); next/previous select them in turn.
    void setSearchText(const QString& text);
    void findNext();
    void findPrevious();
    const std::vector<int>& searchHits() const { return m_hits; }

    bool isLayingOut() const;  // a layout running, or its items still being made
    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    QString statusText() const;
    void setLayoutProgram(const QString& path) { m_layoutProgram = path; }

Q_SIGNALS:
    void nodeSelected(int node);
    void drawingReady();               // a new layout is on screen
    void scopeTreeChanged();           // a new graph's scope tree (or none) is known: once per graph
    void focusScopeChanged(int scope); // the scope the breadcrumb shows (selected node's or box's)
    void layoutFailed(const QString& message);

private:
    void requestLayout();                        // m_grouping as m_expanded says
    void requestLayout(DrawingRequest request);  // runs it in the job tracker for m_graph
    void onLayoutDone(GraphDrawing result);
    void onSceneBuilt();  // the new drawing's items are all made: fit, select, drawingReady
    void updateStatus();
    void applySearch(bool select);
    void stepSearch(int step);  // +1 next, -1 previous, wrapping
    void applyScopeView(int centerNode);  // new grouping from m_scopeView, laid out; centre on the node's item
    void setFocusScope(int scope);
    void updateBreadcrumb();
    const render::Cluster* clusterOf(int cluster) const;  // of the drawing shown; null when out of range

    std::shared_ptr<const io::LoadedGraph> m_graph;
    std::shared_ptr<const render::Grouping> m_grouping;
    std::vector<bool> m_expanded;
    std::shared_ptr<const replay::ReplayReport> m_report;
    std::vector<NodeMark> m_marks;
    QString m_layoutProgram;
    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    JobId m_layoutJob = 0;
    bool m_running = false;
    bool m_refit = true;            // fit the view when the next layout arrives (a new graph)
    int m_selected = -1;
    int m_pendingSelect = -1;       // select once the layout that expands its block arrives
    int m_pendingCenter = -1;       // centre on this node's item (or its box) once the next layout arrives
    std::shared_ptr<const render::ScopeTree> m_tree;
    bool m_treePending = false;     // the first layout job builds the tree: not known yet
    bool m_firstDrawing = true;     // no drawing of this graph has arrived yet
    bool m_builtFirst = false;      // the drawing being built is the graph's first
    QPointF m_keepCenter;           // the view's centre before the new drawing (kept when not refitting)
    render::ScopeView m_scopeView;
    int m_focusScope = 0;
    QLabel* m_breadcrumb = nullptr;
    std::vector<int> m_hits;
    int m_hitIndex = -1;
    QString m_error;

    GraphScene* m_scene = nullptr;
    GraphView* m_view = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_searchCount = nullptr;
    QCheckBox* m_byStatus = nullptr;
    QToolButton* m_expandAll = nullptr;
    QToolButton* m_collapseAll = nullptr;
    QLabel* m_status = nullptr;
};

// Graphs with module scopes open as the scope tree from this many nodes on (a 652-node Llama joint graph drawn node
// by node is a long thin column); the first view keeps at most kMaxScopeBoxes boxes and nodes on screen.
inline constexpr std::size_t kScopesAboveNodes = 200;
inline constexpr std::size_t kMaxScopeBoxes = 40;

// Per FX node: what a replay report says of it (None without a report).
std::vector<NodeMark> marksFromReport(const replay::ReplayReport* report, std::size_t nodes);

}  // namespace fxray::views
