// `fxray dot <graph> -o out.{dot,svg,png,pdf} [--no-meta] [--stubs auto|never|params|all] [--engine dot]`:
// DOT text is written directly (no Graphviz needed); every other format is laid out and rendered by libgvc.
#include "arg_parser.h"
#include "commands.h"

#include "base/error.h"
#include "io/graph_source.h"
#include "io/text_file.h"
#include "render/dot_writer.h"
#include "render/graphviz_renderer.h"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace fxray::cli {

namespace {

constexpr std::string_view kUsage =
    "fxray dot <graph> -o out.{dot,svg,png,pdf} [--no-meta] [--stubs auto|never|params|all] [--engine dot]";

render::StubPolicy parseStubs(const std::string& v)
{
    if (v == "auto")
        return render::StubPolicy::Auto;
    if (v == "never")
        return render::StubPolicy::Never;
    if (v == "params")
        return render::StubPolicy::Parameters;
    if (v == "all")
        return render::StubPolicy::AllFarValues;
    throw Error("--stubs takes auto, never, params or all, not '" + v + "'");
}

}  // namespace

int runDot(const Args& args)
{
    const ArgParser parser(args, {"-o", "--stubs", "--engine"}, {"--no-meta"});
    parser.expectPositionals(1, kUsage);
    const std::optional<std::string> output = parser.value("-o");
    if (!output || output->empty())
        throw Error("missing -o <file>; usage: " + std::string(kUsage));

    // Check the output format before loading: a typo should not cost a parse of a big trace.
    const std::string format = render::formatForPath(*output);
    if (format.empty())
        throw Error("cannot tell the output format of '" + *output +
                    "': use .dot/.gv (text), .svg, .png, .pdf, .json, .plain or .xdot");
    if (render::formatNeedsGraphviz(format) && !render::graphvizAvailable())
        throw Error("rendering ." + format + " needs Graphviz; this build has none — use -o out.dot");

    render::DotOptions options;
    options.metadata = !parser.flag("--no-meta");
    if (const auto stubs = parser.value("--stubs"))
        options.stubs = parseStubs(*stubs);
    const std::string engine = parser.value("--engine").value_or("dot");

    const io::LoadedGraph loaded = io::loadAddress(parser.positionals()[0]);
    options.graphName = loaded.entry.title.empty() ? "fxray" : loaded.entry.title;
    const render::DotDocument doc = render::buildDot(loaded.graph, options);

    const auto start = std::chrono::steady_clock::now();
    if (format == "dot")
        io::writeTextFile(*output, doc.text);
    else
        render::renderDotToFile(doc.text, format, *output, engine);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << "wrote " << *output << " (" << loaded.graph.nodes.size() << " nodes";
    if (doc.stubCount > 0)
        std::cout << ", " << doc.stubCount << " stubs";
    if (format != "dot") {
        char timing[32];
        std::snprintf(timing, sizeof timing, ", %.2f s", seconds);
        std::cout << timing;
    }
    std::cout << ")\n";
    for (const std::string& w : loaded.warnings)
        std::cerr << "warning: " << w << "\n";
    return 0;
}

}  // namespace fxray::cli
