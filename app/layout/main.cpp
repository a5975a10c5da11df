// fxray-layout [engine]: DOT on stdin -> layout text on stdout (render/layout_io.h). Exit 0, or 2 with the
// reason on stderr. Run by the GUI's layout job in a child process (views/graph/layout_job.h).
#include "base/error.h"
#include "render/graphviz_renderer.h"
#include "render/layout_io.h"

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv)
{
    const std::string engine = argc > 1 ? argv[1] : "dot";
    if (engine == "--help" || engine == "-h") {
        std::cout << "usage: fxray-layout [engine] < graph.dot > graph.layout\n";
        return 0;
    }
    std::string dot((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    try {
        const fxray::render::Layout layout = fxray::render::computeLayout(std::string_view(dot), engine);
        const std::string text = fxray::render::writeLayoutText(layout);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? 0 : 2;
    } catch (const std::exception& e) {
        std::cerr << "fxray-layout: " << e.what() << "\n";
        return 2;
    }
}
