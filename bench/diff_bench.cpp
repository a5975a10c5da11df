// Graph diff benchmark: two generated 20,000-node graphs (the residual MLP blocks of bench/gen_graph.py, built in
// memory) that differ by a renaming of every node, a reordering of independent nodes and five edits; times diffGraphs
// (the goal: under 2 s) and, for context, the unified code diff and the merged graph.
//
//   fxray_bench_diff [--nodes N] [--repeat R]      generated pair
//   fxray_bench_diff <graph A> <graph B>           any two graphs fxray can load (e.g. folders from gen_graph.py)
#include "base/error.h"
#include "diff/diff_report.h"
#include "diff/graph_diff.h"
#include "diff/merged_graph.h"
#include "graph/fx_parser.h"
#include "io/graph_source.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace fxray;

namespace {

// Text of a graph of `blocks` residual blocks (8 ops each, as gen_graph.py writes). `variant` renames every node,
// moves each block's weight transpose up into the previous block, and applies the edits listed in main().
std::string generate(int blocks, bool variant)
{
    const auto name = [&](const std::string& base, int b) {
        return variant ? "v" + std::to_string(b) + "_" + base + "_1" : base + "_" + std::to_string(b);
    };
    const std::string ann = "\"f32[64, 256][256, 1]cuda:0\"";
    std::string sig = "self, x: " + ann;
    std::string body;
    const int inserted = blocks / 20, overload = blocks / 4, stride = blocks / 2, removed = blocks * 3 / 4, literal = blocks * 9 / 10;
    std::string prev = "x";
    const auto comment = [](int b) {
        return "        # File: /src/model.py:" + std::to_string(10 + b) + " in forward, code: x = self.block" +
               std::to_string(b) + "(x)\n";
    };
    const auto transpose = [&](int b) {
        return "        " + name("t", b) + ": \"f32[256, 256][1, 256]cuda:0\" = torch.ops.aten.t.default(" + name("w", b) + ")\n";
    };
    for (int b = 0; b < blocks; ++b) {
        sig += ", " + name("w", b) + ": \"f32[256, 256][256, 1]cuda:0\", " + name("b", b) + ": \"f32[256][1]cuda:0\"";
        body += comment(b);
        if (!variant || b == 0)
            body += transpose(b);
        const std::string t = name("t", b), addmm = name("addmm", b), relu = name("relu", b), mul = name("mul", b);
        const std::string vm = name("var_mean", b), gi = name("getitem", b), sub = name("sub", b), add = name("add", b);
        body += "        " + addmm + ": " + ann + " = torch.ops.aten.addmm.default(" + name("b", b) + ", " + prev + ", " + t + ")\n";
        if (variant && b + 1 < blocks)  // independent of this block: reordering is not a difference
            body += comment(b + 1) + transpose(b + 1) + comment(b);
        const std::string reluAnn = variant && b == stride ? "\"f32[64, 256][1, 64]cuda:0\"" : ann;
        body += "        " + relu + ": " + reluAnn + " = torch.ops.aten.relu.default(" + addmm + ")\n";
        std::string scaled = relu;
        if (variant && b == inserted) {
            body += "        " + name("neg", b) + ": " + ann + " = torch.ops.aten.neg.default(" + relu + ")\n";
            scaled = name("neg", b);
        }
        std::string normIn = mul;
        if (variant && b == removed) {
            normIn = scaled;  // the scaling op is gone
        } else {
            const std::string factor = variant && b == literal ? "0.25" : "0.5";
            body += "        " + mul + ": " + ann + " = torch.ops.aten.mul.Tensor(" + scaled + ", " + factor + ")\n";
        }
        body += "        " + vm + " = torch.ops.aten.var_mean.correction(" + normIn + ", [1], correction = 0, keepdim = True)\n";
        body += "        " + gi + ": \"f32[64, 1][1, 1]cuda:0\" = " + vm + "[0]\n";
        body += "        " + sub + ": " + ann + " = torch.ops.aten.sub.Tensor(" + normIn + ", " + gi + ")\n";
        const std::string addOverload = variant && b == overload ? "Scalar" : "Tensor";
        body += "        " + add + ": " + ann + " = torch.ops.aten.add." + addOverload + "(" + sub + ", " + prev + ")\n";
        prev = add;
    }
    body += "        return (" + prev + ",)\n";
    return "class GraphModule(torch.nn.Module):\n    def forward(" + sig + "):\n" + body;
}

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        int nodes = 20000, repeat = 3;
        std::vector<std::string> paths;
        for (int k = 1; k < argc; ++k) {
            const std::string arg = argv[k];
            if (arg == "--nodes" && k + 1 < argc)
                nodes = std::stoi(argv[++k]);
            else if (arg == "--repeat" && k + 1 < argc)
                repeat = std::max(1, std::stoi(argv[++k]));
            else
                paths.push_back(arg);
        }
        graph::Graph a, b;
        if (paths.size() == 2) {
            a = io::loadAddress(paths[0]).graph;
            b = io::loadAddress(paths[1]).graph;
        } else if (paths.empty()) {
            const int blocks = std::max(20, (nodes - 2) / 10);  // 2 inputs + 8 ops per block, x, output
            a = graph::parseFxModule(generate(blocks, false), {"a.py", 1}).graph;
            b = graph::parseFxModule(generate(blocks, true), {"b.py", 1}).graph;
        } else {
            std::fprintf(stderr, "usage: fxray_bench_diff [--nodes N] [--repeat R] | <graph A> <graph B>\n");
            return 2;
        }
        std::printf("A: %zu nodes, B: %zu nodes\n", a.nodes.size(), b.nodes.size());

        std::vector<double> times;
        diff::DiffResult r;
        for (int k = 0; k < repeat; ++k) {
            const auto start = std::chrono::steady_clock::now();
            r = diff::diffGraphs(a, b);
            times.push_back(msSince(start));
        }
        std::sort(times.begin(), times.end());
        std::printf("diffGraphs: %.1f ms (median of %d; min %.1f, max %.1f)\n", times[times.size() / 2], repeat, times.front(),
                    times.back());
        std::printf("  ops: %d same, %d changed, %d added, %d removed; inputs %d differ; outputs %d differ\n", r.ops.same,
                    r.ops.changed, r.ops.added, r.ops.removed, r.inputCounts.differences(), r.outputCounts.differences());

        auto start = std::chrono::steady_clock::now();
        const std::string code = diff::unifiedCodeDiff(a, b, r);
        std::printf("unifiedCodeDiff (print both + Myers): %.1f ms, %zu bytes\n", msSince(start), code.size());
        start = std::chrono::steady_clock::now();
        const diff::MergedGraph merged = diff::mergeGraphs(a, b, r);
        std::printf("mergeGraphs: %.1f ms, %zu nodes\n", msSince(start), merged.graph.nodes.size());
        if (paths.empty()) {
            std::printf("%s", diff::formatSummary(a, b, r, {"generated A", "generated B (renamed, reordered, 5 edits)"}).c_str());
            // The generated pair differs by exactly five edits; anything else is a matching error.
            const bool expected = r.differenceCount() == 5 && r.ops.added == 1 && r.ops.removed == 1 && r.ops.changed == 3;
            std::printf("%s\n", expected ? "expected differences found" : "UNEXPECTED differences");
            return expected ? 0 : 1;
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
