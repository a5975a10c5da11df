#pragma once
// The long-lived Python child of the inductor oracles (tools/runtime/compile_candidates.py, the user's torch): one
// JSON request line per candidate on its stdin, one JSON answer line on its stdout. One process for the whole run
// because a Python start costs torch's import and inductor's set-up (tens of seconds on a small machine) while a
// small candidate takes about a second once those are done. A child past its time is killed (its process group) and
// the next request starts a fresh one.
#include "base/json.h"
#include "base/subprocess.h"
#include "replay/api/replay_runner.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace fxray::minimize {

class CompileChild {
public:
    // python: "" = found like the output_code stage's (FXRAY_PYTHON, the build's Python, python3); script: "" =
    // compile_candidates.py found like run_output_code.py; flag: the --until value, for messages.
    CompileChild(std::string python, std::string script, std::string flag);

    // Sends the request and returns its answer when it says "ok"; nullopt with problem() set when the child timed
    // out, died, was cancelled or answered an error (`failed` + its message: "inductor could not compile ...: ").
    // Throws fxray::Error when no Python with torch can be started at all.
    std::optional<json::Value> request(const json::Value& req, std::chrono::milliseconds timeout, replay::CancelToken* cancel,
                                       const std::string& failed);
    const std::string& problem() const { return m_problem; }
    int starts() const { return m_starts; }
    double seconds() const { return m_seconds; }  // time spent waiting for the child

private:
    // One request line; the answer's JSON text, or "" with m_problem set on timeout / death / cancel.
    std::string ask(const std::string& request, std::chrono::milliseconds timeout, replay::CancelToken* cancel);
    bool awaitReady(std::chrono::steady_clock::time_point deadline, replay::CancelToken* cancel);
    void start();

    std::string m_pythonOption, m_script, m_flag, m_python;
    std::unique_ptr<Subprocess> m_child;
    std::string m_problem;
    int m_starts = 0;
    double m_seconds = 0;
};

}  // namespace fxray::minimize
