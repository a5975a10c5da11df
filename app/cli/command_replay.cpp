// `fxray replay <graph|path> [--device cuda|cuda:N|cpu] [--seed N] [--inputs random|saved] [--floats normal|uniform]
//  [--int-range LO,HI]
//  [--sym-default N] [--stop-on-first] [--no-values] [--compare-device DEV | --expected OUT.pt]
//  [--repeat N [--warmup N]] [--cuda-graph] [--all-nodes] [--json]`
// --cuda-graph: after the checked eager pass, the CUDA-graph safety analysis; when it finds nothing blocking,
// capture on a side stream, replay (--warmup + --repeat times, default 3 + 20), compare with eager, time replays.
// One graph: its report. A directory or log: every graph, and a summary table. Exit 0 only when all passed.
#include "arg_parser.h"
#include "base/json.h"
#include "commands.h"
#include "replay_args.h"
#include "io/graph_source.h"
#include "replay/replayer.h"
#include "replay/report_format.h"

#include <cstdio>
#include <iostream>

namespace fxray::cli {

int runReplay(const Args& args)
{
    ArgParser p(args, {"--device", "--seed", "--inputs", "--int-range", "--sym-default", "--compare-device", "--expected", "--repeat",
                 "--warmup", "--floats"},
                {"--stop-on-first", "--no-values", "--all-nodes", "--json", "--cuda-graph"});
    p.expectPositionals(1, "fxray replay <graph|path> [--device cpu|cuda|cuda:N] [--seed N] [--inputs random|saved] [--floats normal|uniform] "
                           "[--int-range LO,HI] [--sym-default N] [--stop-on-first] [--no-values] [--compare-device DEV | --expected "
                           "OUT.pt] [--repeat N [--warmup N]] [--cuda-graph] [--all-nodes] [--json]");
    const replay::ReplayOptions options = parseReplayOptions(p);
    const std::string& target = p.positionals()[0];

    io::Discovery d = io::discover(target);
    std::vector<replay::ReplayReport> reports;
    for (const io::GraphEntry& e : d.graphs) {
        // One graph's failure must not lose the other graphs' reports.
        auto failed = [&](const std::string& why) {
            replay::ReplayReport r;
            r.address = e.address;
            r.device = options.device;
            r.fatal = why;
            reports.push_back(std::move(r));
        };
        try {
            reports.push_back(replay::replayGraph(io::loadGraph(e), options));
        } catch (const Error& err) {
            failed(err.what());
        } catch (const std::exception& err) {
            failed(std::string("internal error: ") + err.what());
        }
    }
    bool allPassed = d.errors.empty();
    for (const auto& r : reports)
        allPassed = allPassed && r.passed();

    if (p.flag("--json")) {
        json::Value out;
        if (reports.size() == 1) {
            out = replay::reportToJson(reports.front());
        } else {
            out = json::Object{};
            json::Value arr = json::Array{};
            for (const auto& r : reports)
                arr.push_back(replay::reportToJson(r));
            out["reports"] = std::move(arr);
        }
        std::cout << out.dump(json::Style::Pretty) << "\n";
    } else if (reports.size() == 1) {
        std::cout << replay::formatReport(reports.front(), p.flag("--all-nodes"));
    } else {
        std::printf("%-12s %6s %6s %6s %6s %6s  %s\n", "verdict", "nodes", "pass", "mism", "err", "unsup", "graph");
        for (const auto& r : reports)
            std::printf("%-12s %6zu %6d %6d %6d %6d  %s\n", r.verdict().c_str(), r.nodes.size(),
                        r.count(replay::NodeStatus::Passed), r.count(replay::NodeStatus::Mismatch),
                        r.count(replay::NodeStatus::Error), r.count(replay::NodeStatus::Unsupported), r.address.c_str());
        for (const auto& r : reports)
            if (!r.passed())
                std::cout << "\n" << replay::formatReport(r, false);
        for (const auto& e : d.errors)
            std::cout << "error: " << e << "\n";
    }
    return allPassed ? 0 : 1;
}

}  // namespace fxray::cli
