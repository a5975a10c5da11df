#pragma once
// DOT -> SVG/PNG/PDF (and plain/json/xdot layout text), and DOT -> Layout, through libgvc.
// Graphviz is not thread safe: every call here takes one process-wide lock, so callers may use these from any
// thread (the GUI calls them from a worker, never from the GUI thread: big graphs take seconds).
// Graphviz's own messages ("syntax error in line 3 near ...") end up in the fxray::Error thrown on failure.
// Built without Graphviz, the same functions exist and throw an fxray::Error saying so.
#include "render/dot_writer.h"
#include "render/layout.h"

#include <string>
#include <string_view>

namespace fxray::render {

bool graphvizAvailable();
std::string graphvizVersion();  // "2.43.0"; empty without Graphviz

// Output format for a file name's extension: "dot" for .dot/.gv (written as text, no Graphviz needed), "svg",
// "png", "pdf", "json", "plain" (.txt/.plain), "xdot". Empty when the extension is not one of these.
std::string formatForPath(std::string_view path);
// Whether a format from formatForPath needs Graphviz (everything but "dot").
bool formatNeedsGraphviz(std::string_view format);

// Lays out `dot` with `engine` ("dot", "sfdp", ...) and renders it as `format` (a Graphviz -T name).
// Returns the bytes (binary for png/pdf). Throws fxray::Error with Graphviz's message on failure.
std::string renderDot(std::string_view dot, std::string_view format, std::string_view engine = "dot");
// renderDot, then writes `path`; the file is not touched when rendering fails.
void renderDotToFile(std::string_view dot, std::string_view format, const std::string& path,
                     std::string_view engine = "dot");

// Runs the layout and reads positions, sizes and edge splines back. Vertices/edges of a DotDocument get their FX
// node indices; bare DOT text leaves them -1.
Layout computeLayout(std::string_view dot, std::string_view engine = "dot");
Layout computeLayout(const DotDocument& doc, std::string_view engine = "dot");
// Gives a layout made from doc.text (here or in another process) its vertices' FX node indices.
void attachVertices(Layout& layout, const DotDocument& doc);
inline Layout layoutGraph(const graph::Graph& g, const DotOptions& options = {})
{
    return computeLayout(buildDot(g, options));
}

}  // namespace fxray::render
