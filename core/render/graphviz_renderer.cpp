#include "render/graphviz_renderer.h"

#include "base/error.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <functional>
#include <unordered_map>

#ifdef FXRAY_HAVE_GRAPHVIZ
#include <graphviz_version.h>
#include <gvc.h>

#include <mutex>
#endif

namespace fxray::render {

std::string formatForPath(std::string_view path)
{
    const auto slash = path.find_last_of('/');
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
        return {};
    std::string ext(path.substr(dot + 1));
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == "dot" || ext == "gv")
        return "dot";
    if (ext == "txt")
        return "plain";
    for (const char* known : {"svg", "png", "pdf", "json", "plain", "xdot"})
        if (ext == known)
            return ext;
    return {};
}

bool formatNeedsGraphviz(std::string_view format)
{
    return format != "dot";
}

void renderDotToFile(std::string_view dot, std::string_view format, const std::string& path, std::string_view engine)
{
    const std::string bytes = renderDot(dot, format, engine);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error("cannot open '" + path + "' for writing");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        throw Error("cannot write '" + path + "'");
}

Layout computeLayout(const DotDocument& doc, std::string_view engine)
{
    Layout layout = computeLayout(std::string_view(doc.text), engine);
    attachVertices(layout, doc);
    return layout;
}

void attachVertices(Layout& layout, const DotDocument& doc)
{
    std::unordered_map<std::string_view, const DotVertex*> byId;
    byId.reserve(doc.vertices.size());
    for (const DotVertex& v : doc.vertices)
        byId.emplace(v.id, &v);
    for (Layout::NodeBox& box : layout.nodes) {
        if (const auto it = byId.find(box.id); it != byId.end()) {
            box.node = it->second->node;
            box.user = it->second->user;
            box.stub = it->second->stub;
            box.merged = it->second->merged;
        }
    }
    for (Layout::ClusterBox& c : layout.clusters)
        c.cluster = clusterFromId(c.id);
    for (Layout::EdgePath& e : layout.edges) {
        if (const auto it = byId.find(e.from); it != byId.end())
            e.fromNode = it->second->node;
        if (const auto it = byId.find(e.to); it != byId.end())
            e.toNode = it->second->node;
    }
}

#ifdef FXRAY_HAVE_GRAPHVIZ

namespace {

// Graphviz keeps global state (error handler, plugin registry, node-info allocations): one caller at a time.
std::mutex& graphvizMutex()
{
    static std::mutex m;
    return m;
}

// Where Graphviz's messages go while a session holds the lock (null otherwise).
std::string* g_messages = nullptr;

int collectMessage(char* text)
{
    if (g_messages && text)
        g_messages->append(text);
    return 0;
}

// One locked Graphviz session: context, error capture, parsed graph, layout; released in the right order.
class Session {
public:
    Session()
        : m_lock(graphvizMutex())
    {
        g_messages = &m_messages;
        m_previousHandler = agseterrf(&collectMessage);
        agseterr(AGWARN);
        agreseterrors();
        m_gvc = gvContext();
        if (!m_gvc)
            throw Error("Graphviz: cannot create a context");
    }
    ~Session()
    {
        if (m_graph) {
            if (m_laidOut)
                gvFreeLayout(m_gvc, m_graph);
            agclose(m_graph);
        }
        if (m_gvc)
            gvFreeContext(m_gvc);
        agseterrf(m_previousHandler);
        g_messages = nullptr;
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    Agraph_t* parse(std::string_view dot)
    {
        const std::string text(dot);  // agmemread wants a NUL-terminated buffer
        m_graph = agmemread(text.c_str());
        if (!m_graph)
            fail("cannot parse the DOT text");
        return m_graph;
    }

    void layout(std::string_view engine)
    {
        const std::string name(engine);
        if (gvLayout(m_gvc, m_graph, name.c_str()) != 0)
            fail("layout with '" + name + "' failed");
        m_laidOut = true;
    }

    std::string render(std::string_view format)
    {
        const std::string name(format);
        char* data = nullptr;
        unsigned int length = 0;
        if (gvRenderData(m_gvc, m_graph, name.c_str(), &data, &length) != 0 || !data) {
            if (data)
                gvFreeRenderData(data);
            fail("rendering as '" + name + "' failed");
        }
        std::string bytes(data, length);
        gvFreeRenderData(data);
        return bytes;
    }

    [[noreturn]] void fail(const std::string& what) const
    {
        std::string msg = "Graphviz: " + what;
        std::string detail = m_messages;
        while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' '))
            detail.pop_back();
        if (!detail.empty())
            msg += ": " + detail;
        throw Error(msg);
    }

private:
    std::unique_lock<std::mutex> m_lock;
    std::string m_messages;
    agusererrf m_previousHandler = nullptr;
    GVC_t* m_gvc = nullptr;
    Agraph_t* m_graph = nullptr;
    bool m_laidOut = false;
};

// Graphviz's layout data lives behind C-style accessor macros (ND_coord, ED_spl, ...); keep the casts here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
pointf nodeCentre(Agnode_t* n) { return ND_coord(n); }
double nodeWidth(Agnode_t* n) { return ND_width(n); }
double nodeHeight(Agnode_t* n) { return ND_height(n); }
boxf graphBox(Agraph_t* g) { return GD_bb(g); }
double graphLabelHeight(Agraph_t* g) { return GD_label(g) ? GD_label(g)->dimen.y : 0.0; }
splines* edgeSplines(Agedge_t* e) { return ED_spl(e); }
Agnode_t* edgeTail(Agedge_t* e) { return agtail(e); }
Agnode_t* edgeHead(Agedge_t* e) { return aghead(e); }
#pragma GCC diagnostic pop

}  // namespace

bool graphvizAvailable()
{
    return true;
}

std::string graphvizVersion()
{
    return PACKAGE_VERSION;
}

std::string renderDot(std::string_view dot, std::string_view format, std::string_view engine)
{
    Session session;
    session.parse(dot);
    session.layout(engine);
    return session.render(format);
}

Layout computeLayout(std::string_view dot, std::string_view engine)
{
    const auto start = std::chrono::steady_clock::now();
    Session session;
    Agraph_t* g = session.parse(dot);
    session.layout(engine);

    Layout layout;
    const boxf bb = graphBox(g);
    layout.width = bb.UR.x - bb.LL.x;
    layout.height = bb.UR.y - bb.LL.y;
    // Graphviz's y axis points up; flip to screen coordinates with the bounding box's top-left as origin.
    const auto flip = [&bb](pointf p) { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
    constexpr double kPointsPerInch = 72.0;

    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        Layout::NodeBox box;
        box.id = agnameof(n);
        const Point c = flip(nodeCentre(n));
        box.x = c.x;
        box.y = c.y;
        box.w = nodeWidth(n) * kPointsPerInch;
        box.h = nodeHeight(n) * kPointsPerInch;
        layout.nodes.push_back(std::move(box));
    }
    // Clusters, parents before children (depth first, as nested in the DOT text).
    const std::function<void(Agraph_t*)> clustersOf = [&](Agraph_t* parent) {
        for (Agraph_t* sub = agfstsubg(parent); sub; sub = agnxtsubg(sub)) {
            const std::string name = agnameof(sub);
            if (name.rfind("cluster", 0) == 0) {
                const boxf b = graphBox(sub);
                Layout::ClusterBox box;
                box.id = name;
                const Point topLeft = flip(pointf{b.LL.x, b.UR.y});
                box.x = topLeft.x;
                box.y = topLeft.y;
                box.w = b.UR.x - b.LL.x;
                box.h = b.UR.y - b.LL.y;
                box.labelHeight = graphLabelHeight(sub);
                layout.clusters.push_back(std::move(box));
            }
            clustersOf(sub);
        }
    };
    clustersOf(g);
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            Layout::EdgePath path;
            path.from = agnameof(edgeTail(e));
            path.to = agnameof(edgeHead(e));
            if (const splines* spl = edgeSplines(e)) {
                for (int i = 0; i < spl->size; ++i) {
                    const bezier& bz = spl->list[i];
                    for (int j = 0; j < bz.size; ++j)
                        path.points.push_back(flip(bz.list[j]));
                    if (bz.eflag)
                        path.arrowTip = flip(bz.ep);
                }
            }
            layout.edges.push_back(std::move(path));
        }
    }
    layout.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return layout;
}

#else  // no Graphviz in this build

namespace {
[[noreturn]] void noGraphviz(std::string_view what)
{
    throw Error(std::string(what) + " needs Graphviz; this build has none — use -o out.dot");
}
}  // namespace

bool graphvizAvailable()
{
    return false;
}

std::string graphvizVersion()
{
    return {};
}

std::string renderDot(std::string_view, std::string_view format, std::string_view)
{
    noGraphviz("rendering ." + std::string(format));
}

Layout computeLayout(std::string_view, std::string_view)
{
    noGraphviz("graph layout");
}

#endif

}  // namespace fxray::render
