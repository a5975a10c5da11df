#include "render/dot_writer.h"

#include "graph/printer.h"
#include "graph/tensor_meta.h"
#include "render/node_category.h"

#include <algorithm>
#include <functional>

namespace fxray::render {

namespace {

bool isCall(graph::NodeKind k)
{
    return k == graph::NodeKind::CallFunction || k == graph::NodeKind::CallMethod || k == graph::NodeKind::Output;
}

bool isSource(graph::NodeKind k)
{
    return k == graph::NodeKind::Placeholder || k == graph::NodeKind::GetAttr;
}

// Distinct producers of node `u`, in order of first use: one edge per dependency, even when a value is passed twice.
std::vector<int> producersOf(const graph::Node& n, std::size_t nodeCount)
{
    std::vector<int> out;
    graph::forEachNodeRef(n, [&](int p) {
        if (p >= 0 && static_cast<std::size_t>(p) < nodeCount && std::find(out.begin(), out.end(), p) == out.end())
            out.push_back(p);
    });
    return out;
}

}  // namespace

std::string opLine(const graph::Graph& g, const graph::Node& n)
{
    switch (n.kind) {
    case graph::NodeKind::Placeholder:
    case graph::NodeKind::Output: return {};
    case graph::NodeKind::GetAttr: return n.attr.empty() || n.attr == n.name ? "get_attr" : "get_attr " + n.attr;
    case graph::NodeKind::CallFunction:
    case graph::NodeKind::CallMethod: break;
    }
    if (n.target.kind == graph::Target::Kind::Getitem && n.args.size() >= 2)
        return "getitem " + graph::formatArg(g, n.args[1]);
    return n.target.str();
}

namespace {

std::string tooltipText(const graph::Graph& g, const graph::Node& n)
{
    std::string t = n.name;
    if (n.meta)
        t += ": " + graph::formatAnnotation(*n.meta);
    if (isCall(n.kind) && n.kind != graph::NodeKind::Output)
        t += "\n= " + graph::formatNodeExpr(g, n);
    if (!n.comment.empty())
        t += "\n# " + n.comment;
    if (n.stack >= 0 && static_cast<std::size_t>(n.stack) < g.stacks.size()) {
        const graph::StackFrame& f = g.stacks[static_cast<std::size_t>(n.stack)];
        if (!f.file.empty())
            t += "\n" + f.file + ":" + std::to_string(f.line) + (f.function.empty() ? "" : " in " + f.function);
        else if (!f.raw.empty())
            t += "\n" + f.raw;
        if (!f.code.empty())
            t += "\n" + f.code;
    }
    return t;
}

void appendStyle(std::string& out, const NodeStyle& s)
{
    out += "fillcolor=\"";
    out += s.fill;
    out += "\", color=\"";
    out += s.border;
    out += '"';
    if (s.shape != "box") {
        out += ", shape=";
        out += s.shape;
    }
    // Rounded corners only look right on boxes; other shapes keep their outline.
    if (s.shape == "box")
        out += s.dashed ? ", style=\"rounded,filled,dashed\"" : "";
    else
        out += s.dashed ? ", style=\"filled,dashed\"" : ", style=\"filled\"";
}

std::string quoted(std::string_view id)
{
    return "\"" + escapeQuoted(id) + "\"";
}

}  // namespace

std::string escapeHtmlLabel(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\n': out += "<BR/>"; break;
        default:
            // Control characters are invalid in Graphviz's HTML (XML) parser; drop them.
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
                out += c;
        }
    }
    return out;
}

std::string escapeQuoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        switch (c) {
        // Backslashes are escString escapes in Graphviz (\N, \G, \l): double them to keep them literal.
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        case '\r': break;
        default:
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
                out += c;
        }
    }
    return out;
}

std::string clusterId(int cluster)
{
    return "cluster_" + std::to_string(cluster);
}

int clusterFromId(std::string_view id)
{
    constexpr std::string_view kPrefix = "cluster_";
    if (id.substr(0, kPrefix.size()) != kPrefix || id.size() == kPrefix.size() || id.size() > kPrefix.size() + 9)
        return -1;
    int k = 0;
    for (const char c : id.substr(kPrefix.size())) {
        if (c < '0' || c > '9')
            return -1;
        k = k * 10 + (c - '0');
    }
    return k;
}

namespace {

// buildDot in steps: which settings the Auto options resolve to, which uses become stubs, then the text: header,
// one statement per vertex, edges with their stubs, the clusters.
class DotBuilder {
public:
    DotBuilder(const graph::Graph& g, const DotOptions& options)
        : m_g(g), m_options(options), m_count(g.nodes.size())
    {
    }

    DotDocument build()
    {
        resolveSettings();
        findFarUses();
        m_doc.text.reserve(m_count * 200);
        writeHeader();
        writeVertices();
        writeEdgesAndStubs();
        writeClusters();
        m_doc.text += "}\n";
        m_doc.usedStubs = m_doc.stubCount > 0;
        return std::move(m_doc);
    }

private:
    void resolveSettings()
    {
        const bool large = m_count > m_options.largeGraphNodes;
        m_policy = m_options.stubs;
        if (m_policy == StubPolicy::Auto)
            m_policy = large ? StubPolicy::AllFarValues : StubPolicy::Never;
        m_doc.usedTunedLimits = m_options.tunedLimits == Toggle::On || (m_options.tunedLimits == Toggle::Auto && large);
    }

    bool stubbable(int p) const
    {
        switch (m_policy) {
        case StubPolicy::Parameters: return isSource(m_g.nodes[static_cast<std::size_t>(p)].kind);
        case StubPolicy::AllFarValues: return true;
        case StubPolicy::Auto:
        case StubPolicy::Never: break;
        }
        return false;
    }

    bool isFar(int p, std::size_t u) const
    {
        const std::size_t producer = static_cast<std::size_t>(p);
        const int limit = isSource(m_g.nodes[producer].kind) ? m_options.stubDistance : m_options.valueStubDistance;
        // A value read by an earlier node (graphs of collapsed groups: a scope holds its forward and backward nodes
        // and sits at its first) is drawn as a stub too: as edges, dot breaks the cycles its own way, a tangle.
        if (m_options.unconstrainedBackEdges && producer > u)
            return stubbable(p);
        return stubbable(p) && m_callPos[u] - m_callPos[producer] > limit;
    }

    // A placeholder/get_attr whose every use is far is drawn only as its stubs: a lone node would sit in the top
    // rank with no edges, and a training graph has hundreds of them (a drawing thousands of points wide).
    bool hidden(std::size_t i) const
    {
        return isSource(m_g.nodes[i].kind) && m_farUses[i] > 0 && m_nearUses[i] == 0;
    }

    void findFarUses()
    {
        // Position of each node among the call nodes: placeholders and get_attr sit at position 0 of the drawing's
        // flow, so their distance to a user is how far down the user is drawn.
        m_callPos.assign(m_count, 0);
        int calls = 0;
        for (std::size_t i = 0; i < m_count; ++i) {
            m_callPos[i] = calls;
            if (isCall(m_g.nodes[i].kind))
                ++calls;
        }
        m_producers.resize(m_count);
        for (std::size_t u = 0; u < m_count; ++u)
            m_producers[u] = producersOf(m_g.nodes[u], m_count);
        m_nearUses.assign(m_count, 0);
        m_farUses.assign(m_count, 0);
        for (std::size_t u = 0; u < m_count; ++u)
            for (int p : m_producers[u])
                ++(isFar(p, u) ? m_farUses : m_nearUses)[static_cast<std::size_t>(p)];
    }

    void writeHeader()
    {
        std::string& out = m_doc.text;
        out += "digraph " + quoted(m_options.graphName) + " {\n";
        out += "  graph [rankdir=TB, ranksep=0.3, nodesep=0.25, fontname=\"Helvetica\"";
        if (m_doc.usedTunedLimits) {
            // Caps dot's network simplex (ranking, x coordinates) and mincross iterations: untuned, dot runs for
            // minutes on a few hundred nodes of a training graph; tuned, in about a second (BASELINES.md).
            out += ", nslimit=1, nslimit1=1, mclimit=0.01, searchsize=10";
        }
        out += "];\n";
        out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, height=0.3, "
               "margin=\"0.08,0.03\"];\n";
        // Data edges weigh more than stub edges: dot centres a node between its inputs, so a chain whose every op
        // also has a stub on one side drifts sideways step by step (a 400-op chain: 224 in wide; weighted: 7 in).
        out += "  edge [color=\"#606060\", arrowsize=0.6, weight=4];\n";
    }

    // A custom-labelled box (a collapsed block or scope): large type, to stay legible when the drawing is fitted.
    void writeCustomVertex(const graph::Node& n, const std::string& label)
    {
        std::string& out = m_doc.text;
        const std::size_t cut = label.find('\n');
        out += "  " + quoted(n.name) + " [label=<<FONT POINT-SIZE=\"" + std::to_string(kBlockTitlePoints) + "\"><B>" +
               escapeHtmlLabel(label.substr(0, cut)) + "</B></FONT>";
        // Further lines (the summary, possibly several lines: narrow boxes make a fitted drawing larger).
        for (std::size_t at = cut; at != std::string::npos;) {
            const std::size_t next = label.find('\n', at + 1);
            out += "<BR/><FONT POINT-SIZE=\"" + std::to_string(kBlockSummaryPoints) + "\">" +
                   escapeHtmlLabel(label.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1)) +
                   "</FONT>";
            at = next;
        }
        out += ">, margin=\"0.25,0.12\"";
        out += ", shape=box, style=\"filled\", fillcolor=\"#e8e8f0\", color=\"#7070a0\", penwidth=2";
        if (m_options.tooltips)
            out += ", tooltip=" + quoted(label);
        out += "];\n";
    }

    void writeNodeVertex(const graph::Node& n)
    {
        std::string& out = m_doc.text;
        out += "  " + quoted(n.name) + " [label=<<B>" + escapeHtmlLabel(n.name) + "</B>";
        if (const std::string op = opLine(m_g, n); !op.empty())
            out += "<BR/><FONT POINT-SIZE=\"9\">" + escapeHtmlLabel(op) + "</FONT>";
        if (m_options.metadata && n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
            out += "<BR/><FONT POINT-SIZE=\"8\" COLOR=\"#303030\">" + escapeHtmlLabel(graph::formatAnnotation(*n.meta)) +
                   "</FONT>";
        out += ">, ";
        appendStyle(out, nodeStyle(classifyNode(n)));
        if (m_options.tooltips)
            out += ", tooltip=" + quoted(tooltipText(m_g, n));
        out += "];\n";
    }

    void writeVertices()
    {
        for (std::size_t i = 0; i < m_count; ++i) {
            const graph::Node& n = m_g.nodes[i];
            if (hidden(i))
                continue;
            m_doc.vertices.push_back({n.name, static_cast<int>(i), -1, false, {}});
            std::optional<std::string> label;
            if (m_options.customLabel)
                label = m_options.customLabel(static_cast<int>(i));
            if (label)
                writeCustomVertex(n, *label);
            else
                writeNodeVertex(n);
        }
    }

    void writeStubAttributes(std::string_view tooltip)
    {
        // class=stub lets SVG consumers tell stubs from real nodes (<g class="node stub">).
        std::string& out = m_doc.text;
        out += ", class=\"stub\", fontsize=8, height=0.2, margin=\"0.05,0.01\", ";
        appendStyle(out, stubStyle());
        if (m_options.tooltips)
            out += ", tooltip=" + quoted(tooltip);
    }

    void writeStub(int p, const graph::Node& user, int userIndex)
    {
        std::string& out = m_doc.text;
        const graph::Node& producer = m_g.nodes[static_cast<std::size_t>(p)];
        const std::string id = producer.name + "@" + user.name;
        m_doc.vertices.push_back({id, p, userIndex, true, {}});
        m_doc.edges.push_back({id, user.name, p, userIndex});
        ++m_doc.stubCount;
        out += "  " + quoted(id) + " [label=<<FONT POINT-SIZE=\"8\">" + escapeHtmlLabel(producer.name) + "</FONT>>";
        writeStubAttributes(m_options.tooltips ? tooltipText(m_g, producer) : std::string());
        out += "];\n  " + quoted(id) + " -> " + quoted(user.name) + " [style=dashed, weight=1];\n";
    }

    // Many far inputs (a forward's output returns every saved activation): one stub listing them, not hundreds
    // side by side in one rank, which would make the drawing tens of thousands of points wide.
    void writeMergedStub(const std::vector<int>& far, const graph::Node& user, int userIndex)
    {
        std::string& out = m_doc.text;
        const std::string id = user.name + "@@inputs";  // "@@" never appears in single-stub ids
        m_doc.vertices.push_back({id, -1, userIndex, true, far});
        m_doc.edges.push_back({id, user.name, -1, userIndex});
        ++m_doc.stubCount;
        constexpr std::size_t kPerLine = 4, kLines = 3;
        std::string label = "<B>" + std::to_string(far.size()) + " inputs</B>";
        std::string tip = std::to_string(far.size()) + " inputs of " + user.name + ":";
        for (std::size_t i = 0; i < far.size(); ++i) {
            const std::string& name = m_g.nodes[static_cast<std::size_t>(far[i])].name;
            tip += (i % 8 == 0 ? "\n" : ", ") + name;
            if (i < kPerLine * kLines)
                label += (i % kPerLine == 0 ? "<BR/>" : ", ") + escapeHtmlLabel(name);
        }
        if (far.size() > kPerLine * kLines)
            label += "<BR/>… and " + std::to_string(far.size() - kPerLine * kLines) + " more";
        out += "  " + quoted(id) + " [label=<<FONT POINT-SIZE=\"8\">" + label + "</FONT>>";
        writeStubAttributes(tip);
        out += "];\n  " + quoted(id) + " -> " + quoted(user.name) + " [style=dashed, weight=1];\n";
    }

    void writeEdgesAndStubs()
    {
        std::string& out = m_doc.text;
        for (std::size_t u = 0; u < m_count; ++u) {
            const graph::Node& user = m_g.nodes[u];
            const int userIndex = static_cast<int>(u);
            std::vector<int> far;
            for (int p : m_producers[u]) {
                if (isFar(p, u)) {
                    far.push_back(p);
                    continue;
                }
                const graph::Node& producer = m_g.nodes[static_cast<std::size_t>(p)];
                m_doc.edges.push_back({producer.name, user.name, p, userIndex});
                out += "  " + quoted(producer.name) + " -> " + quoted(user.name);
                // A value read by an earlier node: only quotient graphs have these (a module scope holds its forward
                // and its backward nodes, placed at its first). Ranked by program order, drawn without reranking.
                out += m_options.unconstrainedBackEdges && p > userIndex ? " [constraint=false];\n" : ";\n";
            }
            if (far.size() > m_options.maxStubsPerUser)
                writeMergedStub(far, user, userIndex);
            else
                for (int p : far)
                    writeStub(p, user, userIndex);
        }
    }

    // The clusters as subgraphs naming their vertices, after everything else: the vertices exist by then, in
    // program order, which is the order dot starts its crossing minimisation from; a subgraph only adds membership.
    void writeClusters()
    {
        const std::vector<DotCluster>& clusters = m_options.clusters;
        if (clusters.empty() || !m_options.clusterOf)
            return;
        const auto valid = [&](int c) { return c >= 0 && static_cast<std::size_t>(c) < clusters.size(); };
        std::vector<std::vector<const std::string*>> members(clusters.size());
        std::vector<std::vector<int>> children(clusters.size());
        std::vector<char> used(clusters.size(), 0);
        for (const DotVertex& v : m_doc.vertices) {
            const int c = m_options.clusterOf(v.stub ? v.user : v.node);
            if (!valid(c))
                continue;
            members[static_cast<std::size_t>(c)].push_back(&v.id);
            // A cluster with a member is drawn, and so are the clusters around it (parents have smaller indices).
            for (int k = c; valid(k) && !used[static_cast<std::size_t>(k)]; k = clusters[static_cast<std::size_t>(k)].parent)
                used[static_cast<std::size_t>(k)] = 1;
        }
        std::vector<int> top;
        for (std::size_t c = 0; c < clusters.size(); ++c) {
            if (!used[c])
                continue;
            const int parent = clusters[c].parent;
            (valid(parent) && static_cast<std::size_t>(parent) < c ? children[static_cast<std::size_t>(parent)] : top)
                .push_back(static_cast<int>(c));
        }
        const std::function<void(int, int)> write = [&](int c, int depth) {
            std::string& out = m_doc.text;
            const std::string indent(static_cast<std::size_t>(2 + 2 * depth), ' ');
            // Deeper clusters a shade darker, so that nested boxes read apart at any zoom.
            // Warm tints: the boxes inside (blocks, #e8e8f0) stay apart from them even when too small to outline.
            static constexpr const char* kFill[] = {"#fdfbf3", "#f8f3e1", "#f2ead0", "#ebe1c0"};
            out += indent + "subgraph " + clusterId(c) + " {\n";
            out += indent + "  label=<<FONT POINT-SIZE=\"" + std::to_string(kClusterLabelPoints) + "\"><B>" +
                   escapeHtmlLabel(clusters[static_cast<std::size_t>(c)].label) + "</B></FONT>>; labeljust=l; labelloc=t;\n";
            out += indent + "  style=\"rounded,filled\"; fillcolor=\"" + kFill[std::min(depth, 3)] +
                   "\"; color=\"#a8925a\"; penwidth=2; margin=12;\n";
            for (const std::string* id : members[static_cast<std::size_t>(c)])
                out += indent + "  " + quoted(*id) + ";\n";
            for (int child : children[static_cast<std::size_t>(c)])
                write(child, depth + 1);
            out += indent + "}\n";
        };
        for (int c : top)
            write(c, 0);
    }

    const graph::Graph& m_g;
    const DotOptions& m_options;
    const std::size_t m_count;
    DotDocument m_doc;
    StubPolicy m_policy = StubPolicy::Never;
    std::vector<int> m_callPos;
    std::vector<std::vector<int>> m_producers;
    std::vector<int> m_nearUses, m_farUses;
};

}  // namespace

DotDocument buildDot(const graph::Graph& g, const DotOptions& options)
{
    return DotBuilder(g, options).build();
}

}  // namespace fxray::render
