// `fxray minimize <graph> --until mismatch|error[:REGEX]|nan|diverge[:DEVICE]|diverge:output_code|diverge:post_grad|
//  cmd:'COMMAND' [replay options] [--timeout S] [--split-statement] [--inductor-config KEY=VALUE]... [--python PY]
//  [--json] -o DIR`
// diverge:output_code / diverge:post_grad: each candidate is compiled by inductor (post_grad: run through its passes
// only) in one long-lived Python child and compared with fxray's checked replay (minimize/output_code_oracle.h,
// post_grad_oracle.h), under the inductor config the log's compile recorded (its fx_graph_runnable) plus
// --inductor-config entries; --timeout bounds each candidate's time in the child.
// Shrinks a failing graph (minimize/minimizer.h) with candidates replayed in `fxray worker` processes, and
// writes DIR/minimized_<kind>_0/ (seed layout: fxray loads and replays it), DIR/repro.py (plain PyTorch) and
// DIR/minimize.json. Progress goes to stderr; Ctrl+C stops the search and keeps the smallest graph so far.
// Exit: 0 minimized, 1 the graph does not fail that way, 2 error.
#include "arg_parser.h"
#include "base/json.h"
#include "commands.h"
#include "io/graph_source.h"
#include "io/text_file.h"
#include "minimize/minimizer.h"
#include "minimize/output_code_oracle.h"
#include "minimize/post_grad_oracle.h"
#include "minimize/result_export.h"
#include "replay_args.h"
#include "self_exe.h"
#include "worker/replay_worker.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace fxray::cli {
namespace {

namespace fs = std::filesystem;

replay::CancelToken* g_cancel = nullptr;

extern "C" void onInterrupt(int)
{
    if (g_cancel)
        g_cancel->cancelled.store(true);  // lock-free atomic store: async-signal-safe
}

}  // namespace

int runMinimize(const Args& args)
{
    static constexpr std::string_view kUsage =
        "fxray minimize <graph> --until mismatch|error[:REGEX]|nan|diverge[:DEVICE]|diverge:output_code|diverge:post_grad|"
        "cmd:'COMMAND' -o DIR "
        "[--device D] [--seed N] [--floats normal|uniform] [--int-range LO,HI] [--sym-default N] [--timeout S] "
        "[--split-statement] [--inductor-config KEY=VALUE]... [--python PY] [--json]";
    ArgParser p(args, {"--until", "-o", "--device", "--seed", "--floats", "--int-range", "--sym-default", "--timeout",
                       "--inductor-config", "--python"},
                {"--split-statement", "--json"});
    p.expectPositionals(1, kUsage);
    if (!p.value("--until") || !p.value("-o"))
        throw Error(std::string("--until and -o are required: ") + std::string(kUsage));
    minimize::MinimizeOptions options;
    options.failures = minimize::parseFailureSpecs(*p.value("--until"));
    options.replay = parseReplayOptions(p);
    options.keepStatement = !p.flag("--split-statement");
    const fs::path outDir = *p.value("-o");
    // The inductor oracle asked for, if any: diverge:output_code or diverge:post_grad.
    const minimize::FailureSpec* inductor = nullptr;
    for (const auto& f : options.failures)
        if (f.kind == minimize::FailureSpec::Kind::OutputCode || f.kind == minimize::FailureSpec::Kind::PostGrad)
            inductor = &f;
    if (!inductor && (p.value("--inductor-config") || p.value("--python")))
        throw Error("--inductor-config and --python go with --until diverge:output_code or diverge:post_grad");
    double timeoutS = inductor ? 300 : 120;  // a candidate's inductor compile (the first one starts Python too)
    if (auto t = p.value("--timeout")) {
        try {
            timeoutS = std::stod(*t);
        } catch (const std::exception&) {
            throw Error("--timeout wants seconds, got '" + *t + "'");
        }
        if (!(timeoutS > 0))
            throw Error("--timeout wants a positive number of seconds, got '" + *t + "'");
    }
    options.commandTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(timeoutS * 1000));

    const io::LoadedGraph original = io::loadAddress(p.positionals()[0]);
    // A command judges the repro script: each candidate is written to a scratch folder first.
    const fs::path scratch = outDir / ".candidate";
    options.exportForCommand = minimize::candidateReproWriter(options, scratch.string());

    // The inductor oracles: the compile's inductor config (from its log), then the command line's on top.
    std::unique_ptr<minimize::CandidateOracle> oracle;
    if (inductor) {
        options.inductorConfig = minimize::inductorConfigOfCompile(original.entry);
        for (const std::string& e : p.values("--inductor-config")) {
            auto kv = minimize::parseInductorConfigEntry(e);
            std::erase_if(options.inductorConfig, [&](const auto& x) { return x.first == kv.first; });
            options.inductorConfig.push_back(std::move(kv));
        }
        std::string config;
        for (const auto& [k, v] : options.inductorConfig)
            config += (config.empty() ? "" : ", ") + k + "=" + v;
        std::fprintf(stderr, "inductor config: %s\n",
                     config.empty() ? "inductor's defaults (none recorded in the log, no --inductor-config)" : config.c_str());
        minimize::InductorOracleOptions oo;
        oo.python = p.value("--python").value_or("");
        oo.scratchDir = (scratch / "inductor").string();
        oo.config = options.inductorConfig;
        oo.timeout = options.commandTimeout;
        if (inductor->kind == minimize::FailureSpec::Kind::PostGrad)
            oracle = std::make_unique<minimize::PostGradOracle>(std::move(oo));
        else
            oracle = std::make_unique<minimize::OutputCodeOracle>(std::move(oo));
        options.oracle = oracle.get();
    }

    worker::WorkerConfig wc;
    wc.program = worker::ReplayWorker::locateProgram(selfExe());
    wc.replayTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(timeoutS * 1000));
    worker::ReplayWorker runner(wc);
    replay::CancelToken cancel;
    g_cancel = &cancel;
    auto previous = std::signal(SIGINT, onInterrupt);
    // A terminal gets one live line; a log gets a line whenever the strategy or the node count changes.
    const bool tty = ::isatty(2);
    std::string lastState;
    auto progress = [&](const minimize::MinimizeProgress& pr) {
        char line[200];
        std::snprintf(line, sizeof line, "[%s] %d nodes, %d queries, %.1f s", pr.strategy.c_str(), pr.nodesLeft, pr.queries,
                      pr.elapsedS);
        const std::string state = pr.strategy + "/" + std::to_string(pr.nodesLeft);
        if (tty)
            std::fprintf(stderr, "\r%-70s", line);
        else if (state != lastState)
            std::fprintf(stderr, "%s\n", line);
        lastState = state;
    };
    minimize::MinimizeResult res = minimize::minimizeGraph(original, options, runner, &cancel, progress);
    std::signal(SIGINT, previous);
    g_cancel = nullptr;
    if (tty)
        std::fprintf(stderr, "\n");

    io::removeTree(scratch.string());
    json::Value summary = minimize::summaryJson(original, options, res, *p.value("--until"), runner.starts());
    if (oracle) {
        summary["compile_child_starts"] = oracle->childStarts();
        summary["compile_child_seconds"] = oracle->childSeconds();
    }
    if (!res.reproduced) {
        if (p.flag("--json"))
            std::cout << summary.dump(json::Style::Pretty) << "\n";
        else
            std::cout << original.entry.address << ": does not fail with --until " << *p.value("--until") << " on "
                      << options.replay.device << ": " << res.why << "\n";
        return 1;
    }

    const minimize::ExportedResult files = minimize::exportResult(res, options, outDir.string(), summary);
    if (p.flag("--json")) {
        std::cout << summary.dump(json::Style::Pretty) << "\n";
    } else {
        std::cout << original.entry.address << ": " << res.signature.str()
                  << (res.failingNode.empty() ? "" : " at node '" + res.failingNode + "'") << "\n";
        for (const auto& l : res.log)
            std::cout << "  " << l << "\n";
        std::printf("  %d -> %d nodes in %d queries, %.2f s%s; fails on %d of %d other seeds\n", res.originalNodes,
                    res.minimizedNodes, res.queries, res.seconds, res.cancelled ? " (cancelled: smallest so far)" : "",
                    res.verifyFailed, res.verifiedSeeds);
        std::cout << "  dump:  " << files.dump << "\n  repro: " << files.repro << "\n";
    }
    return 0;
}

}  // namespace fxray::cli
