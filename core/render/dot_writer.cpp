#include "render/dot_writer.h"

#include "graph/printer.h"
#include "graph/tensor_meta.h"
#include "render/node_category.h"

#include <algorithm>

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

DotDocument buildDot(const graph::Graph& g, const DotOptions& options)
{
    DotDocument doc;
    const std::size_t count = g.nodes.size();
    const bool large = count > options.largeGraphNodes;

    StubPolicy policy = options.stubs;
    if (policy == StubPolicy::Auto)
        policy = large ? StubPolicy::AllFarValues : StubPolicy::Never;
    doc.usedTunedLimits = options.tunedLimits == Toggle::On || (options.tunedLimits == Toggle::Auto && large);

    // Position of each node among the call nodes: placeholders and get_attr sit at position 0 of the drawing's
    // flow, so their distance to a user is how far down the user is drawn.
    std::vector<int> callPos(count, 0);
    int calls = 0;
    for (std::size_t i = 0; i < count; ++i) {
        callPos[i] = calls;
        if (isCall(g.nodes[i].kind))
            ++calls;
    }

    std::vector<std::vector<int>> producers(count);
    for (std::size_t u = 0; u < count; ++u)
        producers[u] = producersOf(g.nodes[u], count);

    const auto stubbable = [&](int p) {
        switch (policy) {
        case StubPolicy::Parameters: return isSource(g.nodes[static_cast<std::size_t>(p)].kind);
        case StubPolicy::AllFarValues: return true;
        case StubPolicy::Auto:
        case StubPolicy::Never: break;
        }
        return false;
    };
    const auto isFar = [&](int p, std::size_t u) {
        const std::size_t producer = static_cast<std::size_t>(p);
        const int limit = isSource(g.nodes[producer].kind) ? options.stubDistance : options.valueStubDistance;
        // A value read by an earlier node (graphs of collapsed groups: a scope holds its forward and backward nodes
        // and sits at its first) is drawn as a stub too: as edges, dot breaks the cycles its own way, a tangle.
        if (options.unconstrainedBackEdges && producer > u)
            return stubbable(p);
        return stubbable(p) && callPos[u] - callPos[producer] > limit;
    };

    // A placeholder/get_attr whose every use is far is drawn only as its stubs: a lone node would sit in the top
    // rank with no edges, and a training graph has hundreds of them (a drawing thousands of points wide).
    std::vector<int> nearUses(count, 0), farUses(count, 0);
    for (std::size_t u = 0; u < count; ++u)
        for (int p : producers[u])
            ++(isFar(p, u) ? farUses : nearUses)[static_cast<std::size_t>(p)];
    const auto hidden = [&](std::size_t i) {
        return isSource(g.nodes[i].kind) && farUses[i] > 0 && nearUses[i] == 0;
    };

    std::string& out = doc.text;
    out.reserve(count * 200);
    out += "digraph " + quoted(options.graphName) + " {\n";
    out += "  graph [rankdir=TB, ranksep=0.3, nodesep=0.25, fontname=\"Helvetica\"";
    if (doc.usedTunedLimits) {
        // Caps dot's network simplex (ranking, x coordinates) and mincross iterations: untuned, dot runs for
        // minutes on a few hundred nodes of a training graph; tuned, in about a second (BASELINES.md).
        out += ", nslimit=1, nslimit1=1, mclimit=0.01, searchsize=10";
    }
    out += "];\n";
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, height=0.3, "
           "margin=\"0.08,0.03\"];\n";
    // Data edges weigh more than stub edges: dot centres a node between its inputs, so a chain whose every op also
    // has a stub on one side drifts sideways step by step (a 400-op chain: 224 in wide; weighted: 7 in).
    out += "  edge [color=\"#606060\", arrowsize=0.6, weight=4];\n";

    for (std::size_t i = 0; i < count; ++i) {
        const graph::Node& n = g.nodes[i];
        if (hidden(i))
            continue;
        doc.vertices.push_back({n.name, static_cast<int>(i), -1, false, {}});
        if (options.customLabel) {
            if (const std::optional<std::string> label = options.customLabel(static_cast<int>(i))) {
                const std::size_t cut = label->find('\n');
                // Large type: a box stands for many nodes and must stay legible when the whole drawing is fitted.
                out += "  " + quoted(n.name) + " [label=<<FONT POINT-SIZE=\"" + std::to_string(kBlockTitlePoints) + "\"><B>" +
                       escapeHtmlLabel(label->substr(0, cut)) + "</B></FONT>";
                // Further lines (the summary, possibly several lines: narrow boxes make a fitted drawing larger).
                for (std::size_t at = cut; at != std::string::npos;) {
                    const std::size_t next = label->find('\n', at + 1);
                    out += "<BR/><FONT POINT-SIZE=\"" + std::to_string(kBlockSummaryPoints) + "\">" +
                           escapeHtmlLabel(label->substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1)) + "</FONT>";
                    at = next;
                }
                out += ">, margin=\"0.25,0.12\"";
                out += ", shape=box, style=\"filled\", fillcolor=\"#e8e8f0\", color=\"#7070a0\", penwidth=2";
                if (options.tooltips)
                    out += ", tooltip=" + quoted(*label);
                out += "];\n";
                continue;
            }
        }
        out += "  " + quoted(n.name) + " [label=<<B>" + escapeHtmlLabel(n.name) + "</B>";
        if (const std::string op = opLine(g, n); !op.empty())
            out += "<BR/><FONT POINT-SIZE=\"9\">" + escapeHtmlLabel(op) + "</FONT>";
        if (options.metadata && n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
            out += "<BR/><FONT POINT-SIZE=\"8\" COLOR=\"#303030\">" +
                   escapeHtmlLabel(graph::formatAnnotation(*n.meta)) + "</FONT>";
        out += ">, ";
        appendStyle(out, nodeStyle(classifyNode(n)));
        if (options.tooltips)
            out += ", tooltip=" + quoted(tooltipText(g, n));
        out += "];\n";
    }

    const NodeStyle stub = stubStyle();
    const auto stubAttributes = [&out, &stub] {
        // class=stub lets SVG consumers tell stubs from real nodes (<g class="node stub">).
        out += ", class=\"stub\", fontsize=8, height=0.2, margin=\"0.05,0.01\", ";
        appendStyle(out, stub);
    };
    for (std::size_t u = 0; u < count; ++u) {
        const graph::Node& user = g.nodes[u];
        const int userIndex = static_cast<int>(u);
        std::vector<int> far;
        for (int p : producers[u]) {
            if (isFar(p, u)) {
                far.push_back(p);
                continue;
            }
            const graph::Node& producer = g.nodes[static_cast<std::size_t>(p)];
            doc.edges.push_back({producer.name, user.name, p, userIndex});
            out += "  " + quoted(producer.name) + " -> " + quoted(user.name);
            // A value read by an earlier node: only quotient graphs have these (a module scope holds its forward and
            // its backward nodes, placed at its first). Ranked by program order, they are drawn without reranking.
            out += options.unconstrainedBackEdges && p > userIndex ? " [constraint=false];\n" : ";\n";
        }
        if (far.empty())
            continue;
        if (far.size() <= options.maxStubsPerUser) {
            for (int p : far) {
                const graph::Node& producer = g.nodes[static_cast<std::size_t>(p)];
                const std::string id = producer.name + "@" + user.name;
                doc.vertices.push_back({id, p, userIndex, true, {}});
                doc.edges.push_back({id, user.name, p, userIndex});
                ++doc.stubCount;
                out += "  " + quoted(id) + " [label=<<FONT POINT-SIZE=\"8\">" + escapeHtmlLabel(producer.name) + "</FONT>>";
                stubAttributes();
                if (options.tooltips)
                    out += ", tooltip=" + quoted(tooltipText(g, producer));
                out += "];\n  " + quoted(id) + " -> " + quoted(user.name) + " [style=dashed, weight=1];\n";
            }
            continue;
        }
        // Many far inputs (a forward's output returns every saved activation): one stub listing them, not hundreds
        // side by side in one rank, which would make the drawing tens of thousands of points wide.
        const std::string id = user.name + "@@inputs";  // "@@" never appears in single-stub ids
        doc.vertices.push_back({id, -1, userIndex, true, far});
        doc.edges.push_back({id, user.name, -1, userIndex});
        ++doc.stubCount;
        constexpr std::size_t kPerLine = 4, kLines = 3;
        std::string label = "<B>" + std::to_string(far.size()) + " inputs</B>";
        std::string tip = std::to_string(far.size()) + " inputs of " + user.name + ":";
        for (std::size_t i = 0; i < far.size(); ++i) {
            const std::string& name = g.nodes[static_cast<std::size_t>(far[i])].name;
            tip += (i % 8 == 0 ? "\n" : ", ") + name;
            if (i < kPerLine * kLines)
                label += (i % kPerLine == 0 ? "<BR/>" : ", ") + escapeHtmlLabel(name);
        }
        if (far.size() > kPerLine * kLines)
            label += "<BR/>… and " + std::to_string(far.size() - kPerLine * kLines) + " more";
        out += "  " + quoted(id) + " [label=<<FONT POINT-SIZE=\"8\">" + label + "</FONT>>";
        stubAttributes();
        if (options.tooltips)
            out += ", tooltip=" + quoted(tip);
        out += "];\n  " + quoted(id) + " -> " + quoted(user.name) + " [style=dashed, weight=1];\n";
    }
    out += "}\n";
    doc.usedStubs = doc.stubCount > 0;
    return doc;
}

}  // namespace fxray::render
