// ReplayWorker::sweep: a seed sweep or repeat runs as one request to the worker (seed_sweep.h), its progress
// streamed as one line per seed; the client side of command_worker's "sweep" requests.
#include "base/error.h"
#include "replay/api/report_format.h"
#include "worker/replay_worker.h"
#include "worker/worker_failures.h"
#include "worker/worker_protocol.h"

namespace fxray::worker {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kSlice{50};

// The sweep ended at `seed` without the worker's answer: that seed fails with `why` (or the sweep was cancelled).
replay::SweepResult endedAt(const io::LoadedGraph& graph, replay::ReplayOptions options, std::uint64_t seed,
                            std::uint64_t seedsRun, const std::string& why, bool cancelled, Clock::time_point start)
{
    options.seed = seed;
    replay::SweepResult r;
    r.seed = seed;
    r.seedsRun = seedsRun;
    r.cancelled = cancelled;
    r.found = !cancelled;
    r.failure = cancelled ? "" : "the replay could not run: " + why;
    r.report = detail::failedReport(graph, options, -1, why);
    if (cancelled) {
        r.report.fatal.clear();
        r.report.cancelled = true;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
}

}  // namespace

std::string ReplayWorker::send(const std::string& line, replay::CancelToken* cancel)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            ensureStarted(cancel);
        } catch (const Error& e) {
            return e.what();
        }
        if (!m_process)
            return "cancelled";
        if (m_process->write(line))
            return "";
        m_process.reset();  // died between requests: one fresh start
    }
    return "the replay worker does not take requests";
}

replay::SweepResult ReplayWorker::sweep(const io::LoadedGraph& graph, const replay::ReplayOptions& options,
                                        const replay::SweepSpec& spec, replay::CancelToken* cancel,
                                        const replay::SweepProgress& progress)
{
    const auto start = Clock::now();
    const int id = m_nextId++;
    json::Value request = json::Object{};
    request["id"] = id;
    request["graph"] = graphToJson(graph);
    request["options"] = optionsToJson(options);
    request["sweep"] = replay::sweepSpecToJson(spec);
    std::string text = request.dump();
    text += '\n';
    std::uint64_t seed = spec.first, done = 0;
    const int startsBefore = m_starts;
    if (const std::string why = send(text, cancel); !why.empty())
        return endedAt(graph, options, seed, 0, why, why == "cancelled", start);
    bool fresh = m_starts != startsBefore, answered = false;  // as in run(): a reused worker that died just before
    auto seedStart = Clock::now();
    std::string line;
    for (;;) {
        if (cancel && cancel->cancelled.load()) {
            m_process.reset();
            return endedAt(graph, options, seed, done, "cancelled", true, start);
        }
        if (m_config.replayTimeout.count() > 0 && Clock::now() - seedStart > m_config.replayTimeout) {
            m_process.reset();
            return endedAt(graph, options, seed, done + 1,
                           "the replay worker hung: killed after " + std::to_string(m_config.replayTimeout.count() / 1000.0).substr(0, 5) +
                               " s on this seed",
                           false, start);
        }
        const auto got = m_process->readLine(line, kSlice);
        if (got == Subprocess::Read::Timeout)
            continue;
        if (got == Subprocess::Read::Eof) {
            m_process->wait(std::chrono::milliseconds(2000));
            if (!fresh && !answered) {
                fresh = true;
                m_process.reset();
                if (const std::string why = send(text, cancel); !why.empty())
                    return endedAt(graph, options, seed, 0, why, why == "cancelled", start);
                continue;
            }
            const std::string why = detail::workerDiedMessage(m_process->status(), m_process->stderrTail());
            m_process.reset();
            return endedAt(graph, options, seed, done + 1, why, false, start);
        }
        const std::optional<json::Value> answer = detail::answerTo(line, id);
        if (!answer)
            continue;
        const json::Value& msg = *answer;
        answered = true;
        if (msg["seed"].isInt()) {
            seed = static_cast<std::uint64_t>(msg["seed"].asInt());
            done = static_cast<std::uint64_t>(msg.intOr("done", 0));
            seedStart = Clock::now();
            if (progress)
                progress(seed, done, spec.count());
            continue;
        }
        if (msg["report"].isObject())  // a worker of another fxray build that knows no sweeps replayed one seed
            return replay::ReplayRunner::sweep(graph, options, spec, cancel, progress);  // one request per seed
        if (msg["error"].isString())
            return endedAt(graph, options, seed, done, msg["error"].asString(), false, start);
        if (msg["sweep"].isObject()) {
            if (msg["restart"].isBool() && msg["restart"].asBool()) {
                m_process->wait(std::chrono::milliseconds(5000));
                m_process.reset();
            }
            try {
                return replay::sweepResultFromJson(msg["sweep"]);
            } catch (const Error& e) {
                m_process.reset();  // another fxray build's worker is not reused
                return endedAt(graph, options, seed, done, std::string("the replay worker's answer: ") + e.what(), false, start);
            }
        }
    }
}

}  // namespace fxray::worker
