#include "worker/replay_worker.h"

#include "base/error.h"
#include "replay/api/report_format.h"
#include "worker/worker_protocol.h"
#include "worker/worker_failures.h"

#include <filesystem>

namespace fxray::worker {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kSlice{50};  // how often cancellation and deadlines are looked at
using detail::failedReport;
using detail::lastLines;
using detail::answerTo;
using detail::workerDiedMessage;

}  // namespace

ReplayWorker::ReplayWorker(WorkerConfig config) : m_config(std::move(config)) {}

ReplayWorker::~ReplayWorker() = default;

std::string ReplayWorker::locateProgram(const std::string& selfExe)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir = fs::path(selfExe).parent_path();
    for (const fs::path& p : {dir / "fxray", dir.parent_path() / "cli" / "fxray"})
        if (fs::is_regular_file(p, ec))
            return p.string();
    return "fxray";
}

void ReplayWorker::stop()
{
    m_process.reset();
}

void ReplayWorker::ensureStarted(replay::CancelToken* cancel)
{
    if (m_process && m_process->running())
        return;
    m_process = std::make_unique<Subprocess>(std::vector<std::string>{m_config.program, "worker"}, m_config.env);
    ++m_starts;
    const auto deadline = Clock::now() + m_config.startTimeout;
    std::string line;
    while (Clock::now() < deadline) {
        if (cancel && cancel->cancelled.load()) {
            m_process.reset();
            return;
        }
        const auto got = m_process->readLine(line, kSlice);
        if (got == Subprocess::Read::Timeout)
            continue;
        if (got == Subprocess::Read::Eof) {
            m_process->wait(std::chrono::milliseconds(2000));
            const std::string why = "the replay worker '" + m_config.program + "' ended at start (" + m_process->status() +
                                    "): " + lastLines(m_process->stderrTail(), 5);
            m_process.reset();
            throw Error(why);
        }
        json::Value hello;
        try {
            hello = json::parse(line);
        } catch (const Error&) {
            continue;  // a library printing to stdout before main: not ours
        }
        if (hello["ready"].isBool()) {
            m_cudaDevices = static_cast<int>(hello.intOr("cuda_devices", 0));
            return;
        }
    }
    m_process.reset();
    throw Error("the replay worker '" + m_config.program + "' did not start within " +
                std::to_string(m_config.startTimeout.count() / 1000) + " s");
}

int ReplayWorker::cudaDevices(replay::CancelToken* cancel)
{
    ensureStarted(cancel);
    return m_process ? m_cudaDevices : -1;
}

replay::ReplayReport ReplayWorker::run(const io::LoadedGraph& graph, const replay::ReplayOptions& options,
                                       replay::CancelToken* cancel, const replay::ProgressSink& progress)
{
    return run(graph, options, cancel, progress, {});
}

replay::ReplayReport ReplayWorker::run(const io::LoadedGraph& graph, const replay::ReplayOptions& options,
                                       replay::CancelToken* cancel, const replay::ProgressSink& progress,
                                       const replay::NodeSink& nodes)
{
    const int startsBefore = m_starts;
    try {
        ensureStarted(cancel);
    } catch (const Error& e) {
        return failedReport(graph, options, -1, e.what());
    }
    if (!m_process) {  // cancelled while starting: like a cancel later on, not an error
        auto r = failedReport(graph, options, -1, "cancelled");
        r.fatal.clear();
        r.cancelled = true;
        return r;
    }
    // A worker reused from an earlier request may have died just before this one (a kill, the OOM killer): its
    // threads still exiting, it looks alive and takes the request into its pipe. If it then ends without a word
    // for this request, the request is sent once more, to a fresh worker (as a failed write is).
    bool fresh = m_starts != startsBefore, answered = false;
    const int id = m_nextId++;
    json::Value request = json::Object{};
    request["id"] = id;
    request["graph"] = graphToJson(graph);
    request["options"] = optionsToJson(options);
    std::string text = request.dump();
    text += '\n';
    int done = 0;
    std::vector<replay::NodeResult> streamed(graph.graph.nodes.size());
    if (!m_process->write(text)) {
        // The worker died between requests: one fresh start, then give up.
        m_process.reset();
        try {
            ensureStarted(cancel);
        } catch (const Error& e) {
            return failedReport(graph, options, -1, e.what());
        }
        if (!m_process || !m_process->write(text))
            return failedReport(graph, options, -1, "the replay worker does not take requests");
    }
    const auto start = Clock::now();
    std::string line;
    for (;;) {
        if (cancel && cancel->cancelled.load()) {
            m_process.reset();
            auto r = failedReport(graph, options, -1, "cancelled", std::move(streamed));
            r.fatal.clear();
            r.cancelled = true;
            return r;
        }
        if (m_config.replayTimeout.count() > 0 && Clock::now() - start > m_config.replayTimeout) {
            m_process.reset();  // kills it: a hung kernel or op does not come back
            return failedReport(graph, options, done,
                                "the replay worker hung: killed after " +
                                    std::to_string(m_config.replayTimeout.count() / 1000.0).substr(0, 5) + " s",
                                std::move(streamed));
        }
        const auto got = m_process->readLine(line, kSlice);
        if (got == Subprocess::Read::Timeout)
            continue;
        if (got == Subprocess::Read::Eof) {
            m_process->wait(std::chrono::milliseconds(2000));
            if (!fresh && !answered) {
                fresh = true;
                m_process.reset();
                if (const std::string why = send(text, cancel); !why.empty()) {
                    auto r = failedReport(graph, options, -1, why);
                    if (why == "cancelled") {
                        r.fatal.clear();
                        r.cancelled = true;
                    }
                    return r;
                }
                continue;
            }
            const std::string why = workerDiedMessage(m_process->status(), m_process->stderrTail());
            m_process.reset();
            return failedReport(graph, options, done, why, std::move(streamed));
        }
        const std::optional<json::Value> answer = answerTo(line, id);
        if (!answer)
            continue;
        const json::Value& msg = *answer;
        answered = true;
        if (msg["node"].isInt()) {
            const std::int64_t index = msg["node"].asInt();
            try {
                if (index >= 0 && index < static_cast<std::int64_t>(streamed.size())) {
                    auto& at = streamed[static_cast<std::size_t>(index)];
                    at = replay::nodeFromJson(msg["result"]);
                    if (nodes)
                        nodes(static_cast<std::size_t>(index), at);
                }
            } catch (const Error&) {
                // A result we cannot read is left out; the final report is what counts.
            }
            // A node comes again when its statistics are read back (once per replay, after the node itself): the
            // progress and the node a crash is blamed on only move forward.
            if (index + 1 <= done)
                continue;
            done = static_cast<int>(index + 1);
            if (progress)
                progress(static_cast<std::size_t>(done), static_cast<std::size_t>(msg.intOr("total", 0)));
            continue;
        }
        if (msg["error"].isString())
            return failedReport(graph, options, -1, msg["error"].asString());
        if (msg["report"].isObject()) {
            replay::ReplayReport r;
            try {
                r = replay::reportFromJson(msg["report"]);
            } catch (const Error& e) {
                m_process.reset();  // a worker that speaks another protocol (another fxray build) is not reused
                return failedReport(graph, options, -1, std::string("the replay worker's answer: ") + e.what());
            }
            if (msg["restart"].isBool() && msg["restart"].asBool()) {
                m_process->wait(std::chrono::milliseconds(5000));
                m_process.reset();
            }
            return r;
        }
    }
}

}  // namespace fxray::worker
