#include "views/graph/graph_drawing.h"

#include "base/error.h"
#include "base/subprocess.h"
#include "render/dot_writer.h"
#include "render/graphviz_renderer.h"
#include "render/layout_io.h"
#include "views/graph/scene_spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFile>

#include <chrono>

namespace fxray::views {

int GraphDrawing::collapsedBlocks() const
{
    if (!grouping)
        return 0;
    int n = 0;
    for (std::size_t b = 0; b < grouping->blocks.size(); ++b)
        n += !(b < expanded.size() && expanded[b]);
    return n;
}

QString locateLayoutProgram()
{
    if (const QString fromEnv = qEnvironmentVariable("FXRAY_LAYOUT"); !fromEnv.isEmpty())
        return fromEnv;
    // Installed side by side; in the build tree from app/gui, bench/ or tests/views.
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {dir + QStringLiteral("/fxray-layout"), dir + QStringLiteral("/../layout/fxray-layout"),
                                     dir + QStringLiteral("/../app/layout/fxray-layout"),
                                     dir + QStringLiteral("/../../app/layout/fxray-layout")})
        if (QFileInfo(candidate).isExecutable())
            return QDir::cleanPath(candidate);
    return QStringLiteral("fxray-layout");
}

namespace {

// Runs fxray-layout on `dot`; returns its layout text or throws fxray::Error.
std::string runLayoutProcess(const QString& program, const std::string& dot, int timeoutMs, const std::atomic<bool>* cancel,
                             bool& cancelled)
{
    Subprocess child({program.toStdString(), "dot"});
    if (!child.write(dot))
        throw Error("the layout process stopped reading its input (" + child.status() + ")");
    child.closeStdin();
    std::string text, line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        if (cancel && cancel->load()) {
            child.kill();
            cancelled = true;
            return {};
        }
        if (std::chrono::steady_clock::now() > deadline) {
            child.kill();
            throw Error("Graphviz did not finish within " + std::to_string(timeoutMs / 1000) +
                        " s; collapse more of the graph (blocks) or export it with `fxray dot`");
        }
        const Subprocess::Read r = child.readLine(line, std::chrono::milliseconds(50));
        if (r == Subprocess::Read::Line) {
            text += line;
            text += '\n';
        } else if (r == Subprocess::Read::Eof) {
            break;
        }
    }
    child.wait(std::chrono::milliseconds(5000));
    if (!child.exitCode() || *child.exitCode() != 0) {
        std::string why = child.stderrTail();
        while (!why.empty() && (why.back() == '\n' || why.back() == '\r'))
            why.pop_back();
        throw Error("the layout process failed (" + child.status() + ")" + (why.empty() ? "" : ": " + why));
    }
    return text;
}

}  // namespace

namespace {

// The request's grouping, or the one it asks to be made (scope tree, its view, or statement blocks).
void prepareGrouping(const DrawingRequest& request, GraphDrawing& out)
{
    const io::LoadedGraph& loaded = *request.loaded;
    out.tree = request.tree;
    if (request.scopes && !out.tree) {
        auto tree = std::make_shared<render::ScopeTree>(render::buildScopeTree(loaded.graph, loaded.modules));
        if (tree->useful()) {
            out.view = render::initialView(*tree, request.maxScopeBoxes);
            out.tree = std::move(tree);
        }
    } else if (out.tree && request.view) {
        out.view = *request.view;
    }
    if (out.tree)
        out.grouping = std::make_shared<render::Grouping>(render::groupingForView(loaded.graph, *out.tree, out.view));
    else if (request.groupBlocks && !out.grouping)
        out.grouping = std::make_shared<render::Grouping>(render::groupIntoBlocks(loaded.graph, kMaxBlocks));
    if (out.grouping && out.expanded.size() != out.grouping->blocks.size())
        out.expanded.assign(out.grouping->blocks.size(), false);
}

}  // namespace

GraphDrawing computeDrawing(const DrawingRequest& request, const std::atomic<bool>* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    GraphDrawing out;
    out.loaded = request.loaded;
    out.grouping = request.grouping;
    out.expanded = request.expanded;
    if (!request.loaded)
        return out;
    const graph::Graph& original = request.loaded->graph;
    try {
        prepareGrouping(request, out);
        if (cancel && cancel->load()) {
            out.cancelled = true;
            return out;
        }
        // What is drawn: the graph itself, or its quotient with collapsed blocks.
        render::CollapsedGraph collapsed;
        const graph::Graph* drawn = &original;
        render::DotOptions options;
        options.tooltips = false;  // the GUI shows its own tooltips; they only cost DOT text here
        if (out.grouping) {
            collapsed = render::collapseBlocks(original, *out.grouping, out.expanded);
            drawn = &collapsed.graph;
            // Distances count blocks here, each standing for ~nodes/150 nodes: what is far is much nearer.
            options.stubs = render::StubPolicy::AllFarValues;
            options.tunedLimits = render::Toggle::On;
            options.stubDistance = 2;
            options.valueStubDistance = 6;
            options.unconstrainedBackEdges = true;
            options.customLabel = [&](int q) -> std::optional<std::string> {
                const int origin = collapsed.origin[static_cast<std::size_t>(q)];
                if (origin >= 0)
                    return std::nullopt;
                const render::Block& b = out.grouping->blocks[static_cast<std::size_t>(-1 - origin)];
                std::string title = b.title.size() > 48 ? b.title.substr(0, 45) + "..." : b.title;
                return title + "\n" + b.summary;
            };
        }
        if (out.grouping)  // open scopes as clusters around what they hold
            render::addClusters(options, *out.grouping, collapsed);
        render::DotDocument doc = render::buildDot(*drawn, options);
        // FXRAY_DUMP_DOT=<file>: what Graphviz is given, written there (to look at a drawing with `dot` itself).
        if (const QString dump = qEnvironmentVariable("FXRAY_DUMP_DOT"); !dump.isEmpty()) {
            QFile f(dump);
            if (f.open(QIODevice::WriteOnly))
                f.write(doc.text.data(), static_cast<qint64>(doc.text.size()));
        }
        bool cancelled = false;
        std::string text;
        const auto firstTry = std::chrono::steady_clock::now();
        try {
            text = runLayoutProcess(request.layoutProgram, doc.text, request.timeoutMs, cancel, cancelled);
        } catch (const Error&) {
            // (A layout that ran out of time is not tried again: it would take as long.)
            if (options.clusters.empty() ||
                std::chrono::steady_clock::now() - firstTry >= std::chrono::milliseconds(request.timeoutMs))
                throw;
            // dot's cluster code has crashes of its own: the same drawing without the boxes beats no drawing.
            options.clusters.clear();
            doc = render::buildDot(*drawn, options);
            text = runLayoutProcess(request.layoutProgram, doc.text, request.timeoutMs, cancel, cancelled);
            out.clustersDropped = true;
        }
        if (cancelled) {
            out.cancelled = true;
            return out;
        }
        out.layout = render::readLayoutText(text);
        render::attachVertices(out.layout, doc);
        out.graphvizSeconds = out.layout.seconds;

        // Back to FX terms: quotient indices -> original nodes or blocks.
        const auto toOriginal = [&](int q) {
            if (!out.grouping || q < 0)
                return q;
            const int origin = collapsed.origin[static_cast<std::size_t>(q)];
            return origin >= 0 ? origin : -1;
        };
        out.boxBlock.assign(out.layout.nodes.size(), -1);
        for (std::size_t i = 0; i < out.layout.nodes.size(); ++i) {
            render::Layout::NodeBox& box = out.layout.nodes[i];
            if (out.grouping && box.node >= 0 && !box.stub) {
                const int origin = collapsed.origin[static_cast<std::size_t>(box.node)];
                if (origin < 0)
                    out.boxBlock[i] = -1 - origin;
            }
            box.node = toOriginal(box.node);
            box.user = toOriginal(box.user);
            for (int& m : box.merged)
                m = toOriginal(m);
        }
        for (render::Layout::EdgePath& e : out.layout.edges) {
            e.fromNode = toOriginal(e.fromNode);
            e.toNode = toOriginal(e.toNode);
        }
        out.spec = std::make_shared<const SceneSpec>(buildSceneSpec(out));
    } catch (const std::exception& e) {
        out.layout = {};
        out.boxBlock.clear();
        out.error = QString::fromUtf8(e.what());
    }
    out.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace fxray::views
