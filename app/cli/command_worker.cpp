// `fxray worker`: the replay process behind the GUI and the minimizer (worker/worker_protocol.h has the wire
// format). Reads one request per stdin line, replays in this process, answers on stdout; ends at EOF.
// Not for people: the usage line says so.
//
// A request with "sweep" runs a seed sweep or repeat runs (replay/api/seed_sweep.h) and answers {"sweep": result}.
//
// FXRAY_WORKER_FAULT=abort:<node> | hang:<node> makes it abort or hang when it reaches that node: the
// fault-injection tests use it to show that a crashing or hung replay costs one replay, not the caller.
// FXRAY_WORKER_FAULT_RANK=N limits it to rank N of a distributed replay. FXRAY_WORKER_FAULT=nondeterministic:<node>
// salts that node's output digests with the run's number in repeat runs (--repeat N --until diverge), so the runs
// differ there: no op of a CPU replay is nondeterministic, and the GUI's repeat-run test needs one that is.
//
// A rank of a distributed replay (FXRAY_DIST_* set by worker/distributed_job) builds its process groups before it
// says it is ready: the rendezvous blocks until every rank has joined.
#include "base/error.h"
#include "base/json.h"
#include "commands.h"
#include "replay/api/distributed_setup.h"
#include "replay/distributed/process_groups.h"
#include "replay/engine/replayer.h"
#include "replay/api/report_format.h"
#include "replay/api/seed_sweep.h"
#include "worker/worker_protocol.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace fxray::cli {
namespace {

void send(const json::Value& v)
{
    std::string line = v.dump();
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

struct Fault {
    std::string action, node;
};

Fault faultFromEnv()
{
    const char* f = std::getenv("FXRAY_WORKER_FAULT");
    if (!f)
        return {};
    const char* onlyRank = std::getenv("FXRAY_WORKER_FAULT_RANK");
    const char* rank = std::getenv("FXRAY_DIST_RANK");
    if (onlyRank && std::string(onlyRank) != (rank ? rank : ""))
        return {};
    std::string s(f);
    auto colon = s.find(':');
    if (colon == std::string::npos)
        return {};
    return {s.substr(0, colon), s.substr(colon + 1)};
}

// A CUDA error of this kind leaves the context unusable: every later call fails. The worker answers, then
// exits, and the client starts a fresh one.
bool poisonsDevice(const replay::ReplayReport& r)
{
    auto poisoned = [](const std::string& m) {
        return m.find("device-side assert") != std::string::npos || m.find("illegal memory access") != std::string::npos ||
               m.find("unspecified launch failure") != std::string::npos;
    };
    if (poisoned(r.fatal))
        return true;
    for (const auto& n : r.nodes)
        if (poisoned(n.error))
            return true;
    return false;
}

// A rank of a distributed job may sit inside a collective (or the rendezvous) for as long as its timeout: if the
// fxray that started it dies without killing it (SIGKILL, a crash), it must not outlive it. Polled, not
// PR_SET_PDEATHSIG: that follows the starting thread, and the job starts each rank from a thread that may end
// before the job does. Besides the parent it had when it started, the worker watches the fxray that wrote its
// environment (FXRAY_DIST_PARENT): one killed while this worker was still loading LibTorch has already left it to init
// (or a subreaper), and getppid() alone would then watch init for good.
void orphanWatch()
{
    const pid_t parent = getppid();
    const char* written = std::getenv("FXRAY_DIST_PARENT");
    const pid_t job = written && *written ? static_cast<pid_t>(std::atol(written)) : 0;
    auto gone = [parent, job] { return getppid() != parent || (job > 0 && ::kill(job, 0) != 0 && errno == ESRCH); };
    if (gone())
        std::_Exit(4);
    std::thread([gone] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            if (gone())
                std::_Exit(4);
        }
    }).detach();
}

}  // namespace

int runWorker(const Args& args)
{
    if (!args.empty()) {
        std::cerr << "fxray worker takes no arguments: it is started by fxray itself (GUI, minimize)\n";
        return 2;
    }
    const Fault fault = faultFromEnv();
    try {
        if (const auto setup = replay::distributedSetupFromEnv()) {
            orphanWatch();
            replay::initProcessGroups(*setup);
        }
    } catch (const Error& e) {
        std::cerr << "fxray worker: " << e.what() << "\n";
        return 2;
    }
    send(json::Object{{"ready", true}, {"cuda_devices", replay::cudaDeviceCount()}});
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty())
            continue;
        std::int64_t id = -1;
        try {
            const json::Value req = json::parse(line);
            id = req.intOr("id", -1);
            const io::LoadedGraph g = worker::graphFromJson(req["graph"]);
            const replay::ReplayOptions options = worker::optionsFromJson(req["options"]);
            // Each node's result goes out as soon as it is known: if the process dies at the next node, the
            // client still has everything before it, and knows which node it died at.
            auto nodeDone = [&](std::size_t index, const replay::NodeResult& result) {
                send(json::Object{{"id", id}, {"node", index}, {"total", g.graph.nodes.size()},
                                  {"result", replay::nodeToJson(result)}});
            };
            auto progress = [&](std::size_t done, std::size_t) {
                if (!fault.action.empty() && done < g.graph.nodes.size() && g.graph.nodes[done].name == fault.node) {
                    if (fault.action == "abort")
                        std::abort();
                    if (fault.action == "hang")
                        std::this_thread::sleep_for(std::chrono::hours(1));
                }
            };
            if (req["sweep"].isObject()) {
                // A seed sweep / repeat runs: the graph parsed and LibTorch warm once, one line per seed.
                const replay::SweepSpec spec = replay::sweepSpecFromJson(req["sweep"]);
                auto seedStart = [&](std::uint64_t seed, std::uint64_t done, std::uint64_t total) {
                    send(json::Object{{"id", id}, {"seed", static_cast<std::int64_t>(seed)}, {"done", static_cast<std::int64_t>(done)},
                                      {"total", static_cast<std::int64_t>(total)}});
                };
                int runs = 0;
                auto once = [&](const replay::ReplayOptions& o) {
                    replay::ReplayReport r = replay::replayGraph(g, o, nullptr, progress);
                    ++runs;
                    if (fault.action == "nondeterministic")
                        for (replay::NodeResult& n : r.nodes)
                            if (n.name == fault.node)
                                for (auto& out : n.outputs)
                                    if (!out.digest.empty())
                                        out.digest = "run" + std::to_string(runs) + ":" + out.digest;
                    return r;
                };
                const replay::SweepResult res = replay::runSweep(spec, options, once, nullptr, seedStart);
                const bool restart = poisonsDevice(res.report);
                send(json::Object{{"id", id}, {"sweep", replay::sweepResultToJson(res)}, {"restart", restart}});
                if (restart)
                    return 3;
                continue;
            }
            const replay::ReplayReport r = replay::replayGraph(g, options, nullptr, progress, nodeDone);
            const bool restart = poisonsDevice(r);
            send(json::Object{{"id", id}, {"report", replay::reportToJson(r)}, {"restart", restart}});
            if (restart)
                return 3;
        } catch (const Error& e) {
            send(json::Object{{"id", id}, {"error", formatError(e.message(), e.where(), e.excerpt())}});
        } catch (const std::exception& e) {
            send(json::Object{{"id", id}, {"error", std::string("internal error: ") + e.what()}});
        }
    }
    return 0;
}

}  // namespace fxray::cli
