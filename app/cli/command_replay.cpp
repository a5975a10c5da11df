// `fxray replay <graph|path> [--device cuda|cuda:N|cpu] [--seed N] [--inputs random|saved] [--floats normal|uniform]
//  [--int-range LO,HI]
//  [--sym-default N] [--stop-on-first] [--no-values] [--compare-device DEV | --expected OUT.pt|auto]
//  [--repeat N [--warmup N] [--interpreted-repeats]] [--cuda-graph] [--all-nodes] [--json] [--in-process] [--timeout S]
//  [--no-chain]`
// A backward graph with random inputs is chained by default: its forward graph (the seed dump's forward_<i>, the
// trace's aot_forward_graph of the same compile) replays first and its outputs become the backward's saved
// activations, matched by name; --no-chain generates them all.
// --cuda-graph: after the checked eager pass, the CUDA-graph safety analysis; when it finds nothing blocking,
// capture on a side stream, replay (--warmup + --repeat times, default 3 + 20), compare with eager, time replays.
// --repeat N on CUDA (without --cuda-graph): the timed repeats replay the checked pass captured as a CUDA graph
// with its value checks, when the analysis allows and the first pass ran cleanly (the report's cuda_graph section
// says so); else, and with --interpreted-repeats, the interpreter runs each repeat.
// --expected auto: each dump's own <name>.expected.pt (eager outputs written by tools/capture).
// Each graph replays in an `fxray worker` child (apitrace's isolation): a SIGSEGV, abort or device-side assert
// becomes that graph's error at the node it was running, and a batch goes on with a fresh worker. --in-process
// replays in this process instead (benchmarks: no round trip); --timeout S ends a worker stuck on one graph.
// A folder of several ranks' graphs (dedicated_log_torch_trace_rank_<N>_*.log, seed dumps under rank<N>), or
// --ranks N: a distributed replay (replay_distributed.h): the collectives are checked across ranks before anything
// runs (a mismatch: exit 1, named), then one worker per rank, process groups over Gloo (CPU) or NCCL (--device
// cuda, one GPU per rank), --collective-timeout S per collective (default 30), --group NAME=RANKS for groups whose
// members neither the log nor its recorded DeviceMesh gives (default: every rank), --check-only: the check alone;
// DTensor compiles get inputs cut from one global tensor and a single-rank reference (--no-reference: not).
// One graph: its report. A directory or log: every graph, and a summary table. Exit 0 only when all passed.
// --seeds A-B --until nan|mismatch|error|diverge[:DEVICE]: a seed sweep of one graph in one worker, stopping at the
// first failing seed (named, with its replay's report; exit 1); --repeat N --until diverge: runs of the same inputs
// compared node by node, naming the first node that is not deterministic (sweep_args.h).
#include "arg_parser.h"
#include "base/json.h"
#include "commands.h"
#include "replay_args.h"
#include "replay_distributed.h"
#include "replay_isolation.h"
#include "sweep_args.h"
#include "self_exe.h"
#include "io/dump_provenance.h"
#include "io/graph_source.h"
#include "replay/schemas/op_schemas.h"
#include "replay/engine/replayer.h"
#include "replay/api/report_format.h"
#include "worker/replay_worker.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace fxray::cli {
namespace {

constexpr std::string_view kUsage =
    "fxray replay <graph|path> [--device cpu|cuda|cuda:N] [--seed N] [--inputs random|saved] [--floats normal|uniform] "
    "[--int-range LO,HI] [--sym-default N] [--stop-on-first] [--no-values] [--compare-device DEV | --expected "
    "OUT.pt|auto] [--repeat N [--warmup N] [--interpreted-repeats]] [--cuda-graph] [--all-nodes] [--json] [--in-process] [--timeout S] [--no-chain] "
    "[--rng natural|aligned] [--strict-nonfinite] [--seeds A-B] [--until nan|mismatch|error|diverge[:DEVICE]] "
    "[--ranks N] [--group NAME=RANKS]... [--collective-timeout S] [--backend gloo|nccl] [--no-collective-check] [--check-only] [--no-reference]";

void printJson(const std::vector<replay::ReplayReport>& reports)
{
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
}

void printTable(const std::vector<replay::ReplayReport>& reports, const std::vector<std::string>& errors)
{
    std::printf("%-12s %6s %6s %6s %6s %6s  %s\n", "verdict", "nodes", "pass", "mism", "err", "unsup", "graph");
    for (const auto& r : reports)
        std::printf("%-12s %6zu %6d %6d %6d %6d  %s\n", r.verdict().c_str(), r.nodes.size(),
                    r.count(replay::NodeStatus::Passed), r.count(replay::NodeStatus::Mismatch),
                    r.count(replay::NodeStatus::Error), r.count(replay::NodeStatus::Unsupported), r.address.c_str());
    for (const auto& r : reports)
        if (!r.passed())
            std::cout << "\n" << replay::formatReport(r, false);
    for (const auto& e : errors)
        std::cout << "error: " << e << "\n";
}

#ifdef FXRAY_BUILT_TORCH_VERSION
// Which of the recorded op schemas (the writing torch's) this LibTorch registers differently, or not at all.
std::string schemaDifferences(const std::map<std::string, std::string>& recorded)
{
    if (recorded.empty())
        return " (no op schemas recorded to compare: dumps written before fxray recorded them, or a trace log)";
    std::vector<std::string> differ, missing;
    for (const auto& [op, schema] : recorded) {
        const auto here = replay::registeredSchema(op);
        if (!here)
            missing.push_back(op);
        else if (*here != schema)
            differ.push_back(op);
    }
    auto names = [](const std::vector<std::string>& ops) {
        std::string out;
        for (std::size_t k = 0; k < ops.size() && k < 6; ++k)
            out += (k ? ", " : "") + ops[k];
        return ops.size() > 6 ? out + ", ... (" + std::to_string(ops.size()) + ")" : out;
    };
    if (differ.empty() && missing.empty())
        return "; the " + std::to_string(recorded.size()) + " op schemas the dump records are the same here";
    std::string out;
    if (!differ.empty())
        out += "; schemas differ here: " + names(differ);
    if (!missing.empty())
        out += "; not registered here: " + names(missing);
    return out;
}
#endif

// Dumps written by another torch than the LibTorch this module was built against: one warning per torch version
// (on stderr: --json stays one document), naming the first such graph, how many there are, and the ops whose
// recorded schemas this LibTorch does not register the same way.
void warnOtherTorch(const io::Discovery& d)
{
#ifdef FXRAY_BUILT_TORCH_VERSION
    struct Seen {
        std::string first;
        int count = 0;
        std::map<std::string, std::string> schemas;
    };
    std::map<std::string, Seen> byVersion;  // written by -> what was seen
    for (const io::GraphEntry& e : d.graphs)
        if (std::string v = io::writtenByTorch(e); !v.empty()) {
            Seen& seen = byVersion[v];
            if (seen.count++ == 0)
                seen.first = e.address;
            if (e.format == io::SourceFormat::SeedDump)  // logs record no schemas
                seen.schemas.merge(io::opSchemasOfDump(e.path));
        }
    for (const auto& [version, seen] : byVersion) {
        const std::string graphs = seen.count > 1 ? seen.first + " (and " + std::to_string(seen.count - 1) + " more)" : seen.first;
        if (std::string w = io::torchVersionWarning(graphs, version, FXRAY_BUILT_TORCH_VERSION); !w.empty())
            std::cerr << "fxray replay: warning: " << w << schemaDifferences(seen.schemas) << "\n";
    }
#else
    (void)d;
#endif
}

}  // namespace

int runReplay(const Args& args)
{
    std::set<std::string> valued = {"--device", "--seed", "--inputs", "--int-range", "--sym-default", "--compare-device", "--expected",
                                    "--repeat", "--warmup", "--floats", "--timeout", "--rng", "--seeds", "--until"};
    std::set<std::string> flags = {"--stop-on-first", "--no-values", "--all-nodes", "--json", "--cuda-graph", "--in-process", "--no-chain",
                                   "--strict-nonfinite", "--interpreted-repeats"};
    valued.insert(std::begin(kDistributedValued), std::end(kDistributedValued));
    flags.insert(std::begin(kDistributedFlags), std::end(kDistributedFlags));
    ArgParser p(args, valued, flags);
    p.expectPositionals(1, kUsage);
    const replay::ReplayOptions options = parseReplayOptions(p);
    const std::string& target = p.positionals()[0];
    if (const auto spec = parseSweepArgs(p, options)) {
        std::unique_ptr<replay::ReplayRunner> sweepRunner = makeReplayRunner(p);
        return runReplaySweep(p, options, *spec, target, *sweepRunner);
    }

    io::Discovery d = io::discover(target);
    warnOtherTorch(d);
    // Several ranks' graphs (or --ranks N): the ranks replay together over real process groups.
    if (auto rc = runDistributedReplay(p, options, d))
        return *rc;
    std::unique_ptr<replay::ReplayRunner> runner = makeReplayRunner(p);
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
            reports.push_back(runner->run(io::loadGraph(e), options));
        } catch (const Error& err) {
            failed(err.what());
        } catch (const std::exception& err) {
            failed(std::string("internal error: ") + err.what());
        }
    }
    bool allPassed = d.errors.empty();
    for (const auto& r : reports)
        allPassed = allPassed && r.passed();

    if (p.flag("--json"))
        printJson(reports);
    else if (reports.size() == 1)
        std::cout << replay::formatReport(reports.front(), p.flag("--all-nodes"));
    else
        printTable(reports, d.errors);
    return allPassed ? 0 : 1;
}

}  // namespace fxray::cli
