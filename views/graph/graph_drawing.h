#pragma once
// A laid-out graph ready to be drawn: the layout of the graph as shown (node by node, or with collapsed blocks for
// large graphs) and the way back from every drawn vertex to FX nodes. Made off the GUI thread by computeDrawing;
// the scene (graph_scene.h) builds its items from it.
#include "io/graph_source.h"
#include "render/graph_grouping.h"
#include "render/layout.h"
#include "render/scope_tree.h"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace fxray::views {

struct SceneSpec;

// Graphs with more nodes than this open as blocks (render/graph_grouping.h) of at most about kMaxBlocks.
// BASELINES.md: `dot` with tuned limits and stubs needs ~2-3 s for 1.5-1.7k nodes and does not finish a 3.5k-node
// joint graph; 150 blocks lay out in a fraction of a second, and expanding one adds ~nodes/150 nodes.
inline constexpr std::size_t kGroupAboveNodes = 800;
inline constexpr std::size_t kMaxBlocks = 150;

struct DrawingRequest {
    std::shared_ptr<const io::LoadedGraph> loaded;
    std::shared_ptr<const render::Grouping> grouping;  // null: every node drawn
    std::vector<bool> expanded;                        // per block
    QString layoutProgram;                             // fxray-layout
    int timeoutMs = 60000;                             // Graphviz gets this long, then it is killed
    // What is drawn, worked out in the job rather than given (for 100k nodes each takes a second of the GUI thread):
    // `scopes`: the module scope tree is built (render::buildScopeTree) and, when useful, drawn in its initial view of
    // at most `maxScopeBoxes` boxes; else, or without `scopes`, `groupBlocks` groups the graph into statement blocks.
    // `view` with `tree`: that view of that tree is drawn (render::groupingForView). Blocks made here are all shut.
    bool scopes = false;
    bool groupBlocks = false;
    std::size_t maxScopeBoxes = 40;
    std::shared_ptr<const render::ScopeTree> tree;
    std::optional<render::ScopeView> view;
};

struct GraphDrawing {
    std::shared_ptr<const io::LoadedGraph> loaded;
    std::shared_ptr<const render::Grouping> grouping;
    std::vector<bool> expanded;
    std::shared_ptr<const render::ScopeTree> tree;  // the scope tree drawn (null: none)
    render::ScopeView view;                          // the view of it drawn
    // Layout boxes and edges in FX terms: NodeBox::node / user / merged and EdgePath::fromNode / toNode are
    // original node indices (-1 for a block); boxBlock[i] is the block box i stands for, or -1.
    render::Layout layout;
    std::vector<int> boxBlock;
    std::shared_ptr<const SceneSpec> spec;  // the scene's items as values (scene_spec.h), made in the job
    double graphvizSeconds = 0;  // inside Graphviz
    double totalSeconds = 0;     // DOT text, child process, reading back
    QString error;               // set when no layout could be made (layout is then empty)
    bool clustersDropped = false;  // the layout with open scopes as clusters failed; drawn without them
    bool cancelled = false;

    bool grouped() const { return grouping != nullptr; }
    int collapsedBlocks() const;
};

// Builds the DOT text and runs fxray-layout on it in a child process (a Graphviz crash or hang ends the child, not
// the app). Never throws: failures are in GraphDrawing::error. `cancel` is polled while Graphviz runs.
GraphDrawing computeDrawing(const DrawingRequest& request, const std::atomic<bool>* cancel = nullptr);

// $FXRAY_LAYOUT, else fxray-layout next to this program, or in the build tree's app/layout.
QString locateLayoutProgram();

}  // namespace fxray::views
