// `fxray compare <trace log>#<frame>/<compile> [--device cpu|cuda|cuda:N] [--seed N] [--runnable] [--json]`
// `fxray compare <trace log or folder> [-o OUT.json] [--json]`
// Stage compare: the graphs one compile logged (dynamo's graph, AOTAutograd's forward/inference graph, or its
// joint graph when that is all there is, inductor's post-grad forward graph, and with --runnable fx_graph_runnable)
// replayed on the same generated inputs, their user outputs compared with the first stage that replayed cleanly,
// to find the first stage whose outputs diverge. Each stage replays in an `fxray worker` child (a crash costs that
// stage only) unless --in-process. Last, inductor's generated code (the log's inductor_output_code, or
// --output-code FILE) runs in a Python child (--python, else FXRAY_PYTHON; tools/runtime/run_output_code.py) on the
// same inputs; --no-output-code leaves it out. A log or folder: every compile of every log, one line each.
// A divergence that shrinks when the stages compute in float64 is rounding (replay/api/rounding_noise.h), not a
// divergence; --no-precision-check keeps every value difference beyond tolerance a divergence.
// Exit 0 all stages agree (every compile, for a log; a compile torch itself failed, "not compiled", counts as no
// failure), 1 a divergence or a stage that failed, 2 an error.
#include "arg_parser.h"
#include "base/json.h"
#include "commands.h"
#include "replay_args.h"
#include "replay_isolation.h"
#include "self_exe.h"
#include "io/compile_stages.h"
#include "replay/engine/replayer.h"
#include "replay/api/stage_compare.h"
#include "worker/replay_worker.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace fxray::cli {
namespace {

constexpr std::string_view kUsage =
    "fxray compare <trace log>#<frame>/<compile> | <trace log or folder> [--device cpu|cuda|cuda:N] [--seed N] "
    "[--floats normal|uniform] [--int-range LO,HI] [--sym-default N] [--runnable] [--json] [-o OUT.json] [--timeout S] "
    "[--in-process] [--no-output-code] [--output-code output_code.py] [--python PY] [--no-precision-check]";

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// The largest difference any stage showed against the reference.
double maxAbsOf(const replay::StageCompareReport& r)
{
    double m = 0;
    for (const auto& s : r.stages)
        m = std::max(m, s.maxAbs);
    return m;
}

int compareMany(const std::string& path, const ArgParser& p, const replay::StageCompareOptions& options,
                replay::ReplayRunner& runner)
{
    std::vector<std::string> errors;
    const std::vector<std::string> addresses = io::compileAddresses(path, errors);
    if (addresses.empty())
        throw Error("no compile with graphs in the TORCH_TRACE logs here" + (errors.empty() ? std::string() : ": " + errors.front()),
                    fileLocation(path));
    const bool asJson = p.flag("--json");
    json::Value compiles = json::Array{};
    int agree = 0, diverge = 0, failed = 0, notCompiled = 0;
    if (!asJson)
        std::printf("%-8s %6s %10s %8s  %s\n", "verdict", "stages", "max abs", "time", "compile");
    for (const std::string& a : addresses) {
        replay::StageCompareReport r;
        try {
            r = replay::compareStages(io::compileStages(a, options.withRunnable), runner, options);
        } catch (const Error& e) {  // one compile's error must not lose the others
            r.address = a;
            r.verdict = "failed";
            r.reason = e.what();
        }
        agree += r.verdict == "agree";
        diverge += r.verdict == "diverge";
        failed += r.verdict == "failed";
        notCompiled += r.verdict == "not compiled";
        if (!asJson) {
            std::printf("%-8s %6zu %10s %7.1fs  %s%s%s\n", r.verdict.c_str(), r.stages.size(), shortNumber(maxAbsOf(r)).c_str(),
                        r.seconds, a.c_str(), r.reason.empty() ? "" : "\n         ", r.reason.c_str());
            std::fflush(stdout);
        }
        compiles.push_back(replay::stageCompareToJson(r));
    }
    json::Value out = json::Object{};
    out["path"] = path;
    out["device"] = options.replay.device;
    out["seed"] = options.replay.seed;
    out["compiles"] = std::move(compiles);
    out["summary"] = json::Object{{"compiles", static_cast<std::int64_t>(addresses.size())}, {"agree", agree}, {"diverge", diverge},
                                  {"failed", failed}, {"not_compiled", notCompiled}};
    json::Value errs = json::Array{};
    for (const auto& e : errors)
        errs.push_back(e);
    out["errors"] = std::move(errs);
    if (auto o = p.value("-o")) {
        std::ofstream f(*o);
        f << out.dump(json::Style::Pretty) << "\n";
        if (!f)
            throw Error("cannot write", fileLocation(*o));
    }
    if (asJson)
        std::cout << out.dump(json::Style::Pretty) << "\n";
    else
        std::printf("%zu compile(s): %d agree, %d diverge, %d failed, %d not compiled (torch's own compile failed)\n",
                    addresses.size(), agree, diverge, failed, notCompiled);
    for (const auto& e : errors)
        std::cerr << "warning: " << e << "\n";
    return diverge + failed == 0 ? 0 : 1;
}

}  // namespace

int runCompare(const Args& args)
{
    ArgParser p(args, {"--device", "--seed", "--floats", "--int-range", "--sym-default", "--timeout", "-o", "--output-code", "--python"},
                {"--runnable", "--json", "--in-process", "--no-output-code", "--no-precision-check"});
    p.expectPositionals(1, kUsage);
    replay::StageCompareOptions options;
    options.replay = parseReplayOptions(p);
    options.withRunnable = p.flag("--runnable");
    options.precisionCheck = !p.flag("--no-precision-check");
    // The last stage (inductor's generated code) runs in a Python child with the user's torch.
    options.outputCode.enabled = !p.flag("--no-output-code");
    options.outputCode.file = p.value("--output-code").value_or("");
    options.outputCode.python = p.value("--python").value_or("");
    const std::string& target = p.positionals()[0];
    std::unique_ptr<replay::ReplayRunner> runner = makeReplayRunner(p);
    if (!io::isCompileAddress(target)) {
        if (target.find('#') != std::string::npos)
            throw Error("'" + target + "' names a graph, not a compile: give <trace log>#<frame>/<compile> (e.g. " +
                        target.substr(0, target.find('#')) + "#0/0)");
        return compareMany(target, p, options, *runner);
    }
    const replay::StageCompareReport r = replay::compareStages(io::compileStages(target, options.withRunnable), *runner, options);
    if (p.flag("--json"))
        std::cout << replay::stageCompareToJson(r).dump(json::Style::Pretty) << "\n";
    else
        std::cout << replay::formatStageCompare(r);
    if (auto o = p.value("-o")) {
        std::ofstream f(*o);
        f << replay::stageCompareToJson(r).dump(json::Style::Pretty) << "\n";
    }
    return r.verdict == "agree" || r.verdict == "not compiled" ? 0 : 1;
}

}  // namespace fxray::cli
