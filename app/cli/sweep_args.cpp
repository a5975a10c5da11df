#include "sweep_args.h"

#include "base/json.h"
#include "io/graph_source.h"
#include "replay/api/report_format.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <unistd.h>

namespace fxray::cli {
namespace {

// One status line on stderr, rewritten in place on a terminal, else a line at most every 2 s (logs stay short).
class SweepProgressLine {
public:
    SweepProgressLine() : m_tty(isatty(STDERR_FILENO) != 0), m_start(Clock::now()) {}
    ~SweepProgressLine()
    {
        if (m_tty && m_shown)
            std::fputs("\n", stderr);
    }
    void operator()(std::uint64_t seed, std::uint64_t done, std::uint64_t total)
    {
        const auto now = Clock::now();
        if (m_shown && now - m_last < (m_tty ? std::chrono::milliseconds(100) : std::chrono::milliseconds(2000)))
            return;
        m_last = now;
        m_shown = true;
        const double s = std::chrono::duration<double>(now - m_start).count();
        std::fprintf(stderr, "%sseed %llu (%llu/%llu) %.1f s%s", m_tty ? "\r" : "", static_cast<unsigned long long>(seed),
                     static_cast<unsigned long long>(done + 1), static_cast<unsigned long long>(total), s, m_tty ? "  " : "\n");
        std::fflush(stderr);
    }

private:
    using Clock = std::chrono::steady_clock;
    bool m_tty;
    bool m_shown = false;
    Clock::time_point m_start, m_last;
};

}  // namespace

std::optional<replay::SweepSpec> parseSweepArgs(const ArgParser& p, const replay::ReplayOptions& options)
{
    const auto seeds = p.value("--seeds");
    const auto until = p.value("--until");
    if (!seeds && !until)
        return std::nullopt;
    replay::SweepSpec spec;
    if (seeds) {
        if (p.value("--seed"))
            throw Error("--seeds and --seed: give one (--seed S replays one seed; --seeds A-B sweeps)");
        replay::parseSeedRange(*seeds, spec);
    } else {
        spec.first = spec.last = options.seed;
    }
    replay::parseUntil(until.value_or("nan,mismatch,error"), spec);
    spec.repeat = options.repeat;
    if (spec.divergeRuns && spec.repeat < 1)
        throw Error("--until diverge compares repeat runs of the same inputs: give --repeat N (N >= 1), or compare "
                    "with another device: --until diverge:DEVICE");
    if (!spec.divergeRuns && spec.repeat > 0)
        throw Error("--repeat N with --until: repeat runs are compared for --until diverge only");
    if (options.inputs == replay::ReplayOptions::Inputs::Saved && spec.count() > 1)
        throw Error("--seeds with --inputs saved: the seed makes generated inputs; saved inputs are the same for every seed");
    if (options.cudaGraph || options.warmup > 0)
        throw Error("--seeds / --until: not with --cuda-graph or --warmup (a sweep replays each seed once, checked)");
    if (!spec.divergeDevice.empty() && (!options.compareDevice.empty() || !options.expectedOutputsPath.empty()))
        throw Error("--until diverge:DEVICE names the reference: not with --compare-device or --expected");
    return spec;
}

int runReplaySweep(const ArgParser& p, const replay::ReplayOptions& options, const replay::SweepSpec& spec,
                   const std::string& target, replay::ReplayRunner& runner)
{
    io::Discovery d = io::discover(target);
    if (d.graphs.size() != 1) {
        std::string why = d.graphs.empty() ? "no graph" : std::to_string(d.graphs.size()) + " graphs";
        for (const auto& e : d.errors)
            why += "; " + e;
        throw Error(target + ": a sweep replays one graph, found " + why + " (name one: fxray info " + target + ")");
    }
    const io::LoadedGraph graph = io::loadGraph(d.graphs.front());
    replay::SweepResult result;
    {
        SweepProgressLine line;
        result = runner.sweep(graph, options, spec, nullptr, std::ref(line));
    }
    if (p.flag("--json")) {
        json::Value out = replay::sweepResultToJson(result);
        out["until"] = replay::describeUntil(spec);
        out["seeds"] = std::to_string(spec.first) + "-" + std::to_string(spec.last);
        std::cout << out.dump(json::Style::Pretty) << "\n";
    } else {
        std::cout << graph.entry.address << " on " << options.device << ": "
                  << replay::formatSweep(result, spec, target);
        if (result.found)
            std::cout << "\nreplay of seed " << result.seed << ":\n" << replay::formatReport(result.report, p.flag("--all-nodes"));
    }
    return result.found ? 1 : 0;
}

}  // namespace fxray::cli
