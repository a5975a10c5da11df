// `fxray show <graph> [--code]`: a graph's text — annotated readable form (default) or plain module.py code.
// Handy for scripts (and Python references in bench/) that need a graph out of a trace log.
#include "arg_parser.h"
#include "commands.h"
#include "graph/printer.h"
#include "io/graph_source.h"

#include <iostream>

namespace fxray::cli {

int runShow(const Args& args)
{
    ArgParser p(args, {}, {"--code"});
    p.expectPositionals(1, "fxray show <graph> [--code]");
    io::LoadedGraph lg = io::loadAddress(p.positionals()[0]);
    std::cout << (p.flag("--code") ? graph::printFxModule(lg.graph) : graph::printReadable(lg.graph));
    return 0;
}

}  // namespace fxray::cli
