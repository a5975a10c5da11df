#include "minimize/compile_child.h"

#include "base/error.h"
#include "replay/api/output_code_stage.h"

#include <filesystem>
#include <sstream>
#include <vector>

namespace fxray::minimize {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string lastLines(const std::string& text, std::size_t n)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.empty())
            lines.push_back(l);
    std::string out;
    for (std::size_t k = lines.size() > n ? lines.size() - n : 0; k < lines.size(); ++k)
        out += (out.empty() ? "" : "\n") + lines[k];
    return out;
}

}  // namespace

CompileChild::CompileChild(std::string python, std::string script, std::string flag)
    : m_pythonOption(std::move(python)), m_script(std::move(script)), m_flag(std::move(flag))
{
}

void CompileChild::start()
{
    replay::OutputCodeOptions oc;
    oc.python = m_pythonOption;
    const std::string python = replay::findPython(oc);
    std::string script = m_script;
    if (script.empty())
        script = (fs::path(replay::findOutputCodeRunner(oc)).parent_path() / "compile_candidates.py").string();
    if (!fs::exists(script))
        throw Error("cannot find compile_candidates.py (looked at " + script + "); set FXRAY_RUNTIME_DIR to its folder");
    m_python = python;
    try {
        m_child = std::make_unique<Subprocess>(std::vector<std::string>{python, script});
    } catch (const Error& e) {
        throw Error("--until " + m_flag + " needs a Python with torch: cannot start " + python + " (" + e.what() +
                    "); pass --python or set FXRAY_PYTHON");
    }
    ++m_starts;
}

// A fresh child's "ready" line (torch imported). False with m_problem set on cancel or timeout; throws when the
// child ends first: this Python cannot do the work at all.
bool CompileChild::awaitReady(Clock::time_point deadline, replay::CancelToken* cancel)
{
    std::string line;
    for (;;) {
        if (cancel && cancel->cancelled.load())
            return m_problem = "cancelled", false;
        if (Clock::now() > deadline)
            return m_problem = "the compile child did not start within the timeout", false;
        const auto got = m_child->readLine(line, std::chrono::milliseconds(200));
        if (got == Subprocess::Read::Line && line.rfind("{\"ready\"", 0) == 0)
            return true;
        if (got == Subprocess::Read::Eof) {
            m_child->wait(std::chrono::seconds(5));
            const auto code = m_child->exitCode();
            const std::string why = lastLines(m_child->stderrTail(), code && *code == 3 ? 1 : 6);
            const std::string status = m_child->status();
            m_child.reset();
            throw Error("--until " + m_flag + " needs a Python with torch: " + m_python + " (" + status + ")" +
                        (why.empty() ? std::string() : ": " + why) + "; pass --python or set FXRAY_PYTHON");
        }
    }
}

std::string CompileChild::ask(const std::string& request, std::chrono::milliseconds timeout, replay::CancelToken* cancel)
{
    const auto begin = Clock::now();
    const auto deadline = begin + timeout;
    auto fail = [&](const std::string& why) {
        if (m_child)
            m_child->kill();
        m_child.reset();
        if (!why.empty())
            m_problem = why;
        m_seconds += std::chrono::duration<double>(Clock::now() - begin).count();
        return std::string();
    };
    if (!m_child || !m_child->running()) {
        start();
        if (!awaitReady(deadline, cancel))
            return fail("");
    }
    if (!m_child->write(request + "\n"))
        return fail("the compile child stopped reading (" + m_child->status() + ")");
    std::string line;
    for (;;) {
        if (cancel && cancel->cancelled.load())
            return fail("cancelled");
        if (Clock::now() > deadline)
            return fail("inductor ran past " + std::to_string(timeout.count() / 1000) +
                        " s on this candidate (the compile child was killed; a fresh one takes the next)");
        const auto got = m_child->readLine(line, std::chrono::milliseconds(200));
        if (got == Subprocess::Read::Eof) {
            m_child->wait(std::chrono::seconds(5));
            return fail("the compile child died (" + m_child->status() + "): " + lastLines(m_child->stderrTail(), 4));
        }
        if (got == Subprocess::Read::Line && !line.empty() && line.front() == '{') {
            m_seconds += std::chrono::duration<double>(Clock::now() - begin).count();
            return line;
        }
    }
}

std::optional<json::Value> CompileChild::request(const json::Value& req, std::chrono::milliseconds timeout,
                                                 replay::CancelToken* cancel, const std::string& failed)
{
    m_problem.clear();
    const std::string text = ask(req.dump(), timeout, cancel);
    if (text.empty())
        return std::nullopt;
    json::Value answer;
    try {
        answer = json::parse(text);
    } catch (const Error& e) {
        m_problem = std::string("the compile child's answer is not JSON: ") + e.what();
        return std::nullopt;
    }
    if (!(answer["ok"].isBool() && answer["ok"].asBool())) {
        m_problem = failed + answer.stringOr("error", "?");
        return std::nullopt;
    }
    return answer;
}

}  // namespace fxray::minimize
