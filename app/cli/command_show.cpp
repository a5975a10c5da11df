// `fxray show <graph> [--code | --outline [--json] [--depth N]]`: a graph's text — annotated readable form
// (default) or plain module.py code — or its module hierarchy as an outline (render/scope_outline.h).
// Handy for scripts (and Python references in bench/) that need a graph out of a trace log.
#include "arg_parser.h"
#include "commands.h"
#include "graph/printer.h"
#include "io/graph_source.h"
#include "render/scope_outline.h"
#include "render/scope_tree.h"

#include <iostream>

namespace fxray::cli {

namespace {

int showOutline(const io::LoadedGraph& lg, const ArgParser& p)
{
    const render::ScopeTree tree = render::buildScopeTree(lg.graph, lg.modules);
    if (p.flag("--json")) {
        json::Value v = render::outlineJson(lg.graph, tree);
        v["address"] = lg.entry.address;
        std::cout << v.dump(json::Style::Pretty) << "\n";
        return 0;
    }
    int depth = -1;
    if (const auto d = p.value("--depth")) {
        try {
            depth = std::stoi(*d);
        } catch (const std::exception&) {
            throw Error("--depth wants a number, not '" + *d + "'");
        }
    }
    std::cout << lg.entry.address << "\n";
    if (!tree.useful())
        std::cout << "  no module hierarchy: no sidecar, no parameter names and no repeated structure\n";
    std::cout << render::outlineText(lg.graph, tree, depth);
    return 0;
}

}  // namespace

int runShow(const Args& args)
{
    ArgParser p(args, {"--depth"}, {"--code", "--outline", "--json"});
    p.expectPositionals(1, "fxray show <graph> [--code | --outline [--json] [--depth N]]");
    if ((p.flag("--json") || p.value("--depth")) && !p.flag("--outline"))
        throw Error("--json and --depth go with --outline");
    if (p.flag("--code") && p.flag("--outline"))
        throw Error("--code and --outline: choose one");
    io::LoadedGraph lg = io::loadAddress(p.positionals()[0]);
    if (p.flag("--outline"))
        return showOutline(lg, p);
    std::cout << (p.flag("--code") ? graph::printFxModule(lg.graph) : graph::printReadable(lg.graph));
    return 0;
}

}  // namespace fxray::cli
