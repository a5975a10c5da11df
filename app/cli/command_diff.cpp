// `fxray diff <graph A> <graph B> [--json] [--no-meta] [-o diff.{txt,json,dot,svg,png,pdf}]`: structural diff of two
// graphs. Prints a summary and a unified diff of the FX code (or JSON); -o writes the report (.txt/.json) or the
// merged graph drawn with added / removed / changed nodes coloured (.dot as text, the rest through Graphviz).
// Exit code: 0 equal, 1 different, 2 error.
#include "arg_parser.h"
#include "commands.h"

#include "base/error.h"
#include "base/json.h"
#include "diff/diff_report.h"
#include "diff/graph_diff.h"
#include "diff/merged_graph.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"
#include "io/graph_source.h"
#include "io/text_file.h"
#include "render/dot_writer.h"
#include "render/graphviz_renderer.h"
#include "render/node_category.h"

#include <iostream>

namespace fxray::cli {
namespace {

constexpr std::string_view kUsage =
    "fxray diff <graph A> <graph B> [--json] [--no-meta] [-o diff.{txt,json,dot,svg,png,pdf}]";

struct DiffColours {
    std::string_view fill, border, text;
};
DiffColours coloursFor(diff::Status s)
{
    switch (s) {
    case diff::Status::Added: return {"#c8f7c5", "#1e8449", "#145a32"};
    case diff::Status::Removed: return {"#f5b7b1", "#c0392b", "#78281f"};
    case diff::Status::Changed: return {"#fad7a0", "#d35400", "#7a3e00"};
    case diff::Status::Same: break;
    }
    return {"#ffffff", "#606060", "#303030"};
}

std::string quoted(std::string_view id) { return "\"" + render::escapeQuoted(id) + "\""; }

// The second line of a node's label, as the DOT writer draws it.
std::string opLine(const graph::Graph& g, const graph::Node& n)
{
    switch (n.kind) {
    case graph::NodeKind::Placeholder:
    case graph::NodeKind::Output: return {};
    case graph::NodeKind::GetAttr: return "get_attr " + n.attr;
    case graph::NodeKind::CallFunction:
    case graph::NodeKind::CallMethod: break;
    }
    if (n.target.kind == graph::Target::Kind::Getitem && n.args.size() >= 2)
        return "getitem " + graph::formatArg(g, n.args[1]);
    return n.target.str();
}

// The merged graph through the ordinary DOT writer (same layout, stubs and tuning as `fxray dot`), then node
// statements appended for every node: DOT merges the attributes of a repeated node statement, so unchanged nodes are
// muted and the others get their diff colour and a label listing the changes. Edges A had and B lost are added, dashed red.
std::string mergedDot(const graph::Graph& a, const graph::Graph& b, const diff::DiffResult& r, const diff::DiffLabels& labels)
{
    const diff::MergedGraph merged = diff::mergeGraphs(a, b, r);
    const graph::Graph& g = merged.graph;
    render::DotOptions options;
    options.graphName = "fxray diff";
    const render::DotDocument doc = render::buildDot(g, options);

    std::string extra;
    std::vector<bool> drawn(g.nodes.size(), false);
    for (const render::DotVertex& v : doc.vertices) {
        if (v.stub || v.node < 0)
            continue;
        drawn[static_cast<std::size_t>(v.node)] = true;
        const diff::NodeDiff& d = r.nodes[static_cast<std::size_t>(v.node)];
        if (d.status == diff::Status::Same) {
            // Muted, so that the differences stand out (the op-category colours would read as diff colours).
            extra += "  " + quoted(v.id) + " [fillcolor=\"#f4f4f4\", color=\"#a0a0a0\"];\n";
            continue;
        }
        const graph::Node& n = g.nodes[static_cast<std::size_t>(v.node)];
        const DiffColours c = coloursFor(d.status);
        std::string label = "<B>" + render::escapeHtmlLabel(n.name) + "</B>";
        if (const std::string op = opLine(g, n); !op.empty())
            label += "<BR/><FONT POINT-SIZE=\"9\">" + render::escapeHtmlLabel(op) + "</FONT>";
        if (n.meta && n.meta->kind != graph::ValueMeta::Kind::None)
            label += "<BR/><FONT POINT-SIZE=\"8\" COLOR=\"#303030\">" + render::escapeHtmlLabel(graph::formatAnnotation(*n.meta)) +
                     "</FONT>";
        std::string note = std::string(diff::statusName(d.status));
        if (d.status == diff::Status::Changed && d.a >= 0 && a.nodes[static_cast<std::size_t>(d.a)].name != n.name)
            note += " (A: " + a.nodes[static_cast<std::size_t>(d.a)].name + ")";
        label += "<BR/><FONT POINT-SIZE=\"8\" COLOR=\"" + std::string(c.text) + "\"><I>" + render::escapeHtmlLabel(note) + "</I>";
        constexpr std::size_t kMaxLines = 6;
        for (std::size_t k = 0; k < d.changes.size() && k < kMaxLines; ++k)
            label += "<BR/>" + render::escapeHtmlLabel(d.changes[k].str());
        if (d.changes.size() > kMaxLines)
            label += "<BR/>… " + std::to_string(d.changes.size() - kMaxLines) + " more";
        label += "</FONT>";
        const bool box = render::nodeStyle(render::classifyNode(n)).shape == "box";
        const bool removed = d.status == diff::Status::Removed;
        extra += "  " + quoted(v.id) + " [label=<" + label + ">, fillcolor=\"" + std::string(c.fill) + "\", color=\"" +
                 std::string(c.border) + "\", penwidth=2, style=\"" + (box ? "rounded," : "") + "filled" +
                 (removed ? ",dashed" : "") + "\", class=\"" + std::string(diff::statusName(d.status)) + "\"];\n";
    }
    for (const auto& [producer, user] : merged.removedEdges) {
        if (!drawn[static_cast<std::size_t>(producer)] || !drawn[static_cast<std::size_t>(user)])
            continue;  // drawn as a stub (far value): an edge would bring the long edge back
        extra += "  " + quoted(g.nodes[static_cast<std::size_t>(producer)].name) + " -> " +
                 quoted(g.nodes[static_cast<std::size_t>(user)].name) + " [color=\"#c0392b\", style=dashed, class=\"removed\"];\n";
    }
    const std::string title = "diff " + labels.a + " → " + labels.b + "\n" + std::to_string(r.ops.added) + " added, " +
                              std::to_string(r.ops.removed) + " removed, " + std::to_string(r.ops.changed) +
                              " changed ops; inputs " + std::to_string(r.inputCounts.differences()) + ", outputs " +
                              std::to_string(r.outputCounts.differences()) + " differing";
    extra += "  graph [label=" + quoted(title) + ", labelloc=t, fontsize=11];\n";

    std::string text = doc.text;
    const std::size_t close = text.rfind('}');
    text.insert(close, extra);
    return text;
}

// txt and json are reports; dot, svg, png and pdf draw the merged graph.
std::string outputFormat(const std::string& path)
{
    const auto endsWith = [&](std::string_view suffix) {
        return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".txt"))
        return "txt";
    if (endsWith(".json"))
        return "json";
    const std::string format = render::formatForPath(path);
    if (format != "dot" && format != "svg" && format != "png" && format != "pdf")
        throw Error("cannot tell what to write to '" + path + "': use .txt or .json (the report), .dot, .svg, .png or .pdf "
                    "(the merged graph)");
    if (render::formatNeedsGraphviz(format) && !render::graphvizAvailable())
        throw Error("rendering ." + format + " needs Graphviz; this build has none — use -o diff.dot");
    return format;
}

}  // namespace

int runDiff(const Args& args)
{
    const ArgParser parser(args, {"-o"}, {"--json", "--no-meta"});
    parser.expectPositionals(2, kUsage);
    const std::optional<std::string> output = parser.value("-o");
    if (output && output->empty())
        throw Error("-o needs a file name; usage: " + std::string(kUsage));
    const std::string format = output ? outputFormat(*output) : "";  // checked before the (possibly long) loads

    const io::LoadedGraph a = io::loadAddress(parser.positionals()[0]);
    const io::LoadedGraph b = io::loadAddress(parser.positionals()[1]);
    diff::DiffOptions options;
    options.compareMetadata = !parser.flag("--no-meta");
    const diff::DiffResult r = diff::diffGraphs(a.graph, b.graph, options);
    const diff::DiffLabels labels{a.entry.address, b.entry.address};

    const std::string summary = diff::formatSummary(a.graph, b.graph, r, labels);
    const auto code = [&] { return diff::unifiedCodeDiff(a.graph, b.graph, r, labels); };
    const auto json = [&] {
        json::Value j = diff::toJson(a.graph, b.graph, r, labels);
        j["unified_diff"] = code();
        if (output)
            j["output"] = *output;
        return j;
    };

    if (output) {
        if (format == "txt")
            io::writeTextFile(*output, summary + "\n" + code());
        else if (format == "json")
            io::writeTextFile(*output, json().dump(json::Style::Pretty) + "\n");
        else if (format == "dot")
            io::writeTextFile(*output, mergedDot(a.graph, b.graph, r, labels));
        else
            render::renderDotToFile(mergedDot(a.graph, b.graph, r, labels), format, *output);
    }
    if (parser.flag("--json")) {
        std::cout << json().dump(json::Style::Pretty) << "\n";
    } else {
        std::cout << summary;
        if (output)
            std::cout << "wrote " << *output << "\n";
        else if (const std::string text = code(); !text.empty())
            std::cout << "\n" << text;
    }
    for (const std::string& w : a.warnings)
        std::cerr << "warning: " << a.entry.address << ": " << w << "\n";
    for (const std::string& w : b.warnings)
        std::cerr << "warning: " << b.entry.address << ": " << w << "\n";
    return r.equal() ? 0 : 1;
}

}  // namespace fxray::cli
