// Parse + load timing of fxray for one graph (median of repeats), printed as one JSON line so
// bench/load_bench.py can put it next to the Python reference measured in the same run.
//   fxray_bench_load <graph address or path> [repeats]
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "io/graph_source.h"
#include "io/text_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

template <class F>
double medianMs(int repeats, F&& f)
{
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: fxray_bench_load <graph> [repeats]\n");
        return 2;
    }
    const std::string address = argv[1];
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    try {
        fxray::io::LoadedGraph lg = fxray::io::loadAddress(address);
        // The file the graph is parsed from (seed dumps: the readable file; else the address's file).
        std::string file = lg.graph.sourceFile;
        const std::string text = fxray::io::readTextFile(file);
        std::size_t nodes = lg.graph.nodes.size();
        double parseMs = medianMs(repeats, [&] {
            auto m = fxray::graph::parseFxModule(text, {file, 1});
            if (m.graph.nodes.size() != nodes)
                std::abort();
        });
        double loadMs = medianMs(repeats, [&] { fxray::io::loadAddress(address); });
        double hashMs = medianMs(repeats, [&] { (void)fxray::graph::structuralHash(lg.graph); });
        std::printf("{\"address\": \"%s\", \"nodes\": %zu, \"bytes\": %zu, \"parse_ms\": %.3f, \"load_ms\": %.3f, "
                    "\"hash_ms\": %.3f}\n",
                    address.c_str(), nodes, text.size(), parseMs, loadMs, hashMs);
    } catch (const fxray::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    return 0;
}
