#pragma once
// A child process with pipes on its stdin, stdout and stderr (POSIX). The replay worker runs in one, so that
// a device-side assert, a segfault in a kernel or an OOM ends the child and not the GUI or a minimize run;
// the minimizer's external-command oracle runs commands in one, with a timeout.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxray {

class Subprocess {
public:
    using Env = std::vector<std::pair<std::string, std::string>>;
    // Starts argv[0] (looked up in PATH when it has no slash) with the current environment plus `env`.
    // Throws fxray::Error when it cannot be started. Ignores SIGPIPE for the whole process (once): writing
    // to a child that died must be an error return, not the death of the parent.
    explicit Subprocess(const std::vector<std::string>& argv, const Env& env = {});
    ~Subprocess();  // kills the child if it still runs, and reaps it
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    int pid() const { return m_pid; }
    // False when the child no longer reads (it exited or closed stdin).
    bool write(std::string_view data);
    void closeStdin();

    enum class Read { Line, Timeout, Eof };
    // One line of stdout without its '\n', waiting at most `timeout`; stderr is drained into stderrTail()
    // meanwhile, so a chatty child never blocks on a full pipe.
    Read readLine(std::string& line, std::chrono::milliseconds timeout);
    // The last 16 KiB the child wrote to stderr.
    const std::string& stderrTail() const { return m_stderr; }

    void kill();  // SIGKILL to the child's process group (it runs in its own); no-op once it exited
    // Waits up to `timeout` for the child to end; its status then reads "exit 3" or "signal 9 (Killed)".
    bool wait(std::chrono::milliseconds timeout);
    bool running();
    std::optional<int> exitCode() const { return m_exitCode; }  // set after a normal exit
    const std::string& status() const { return m_status; }

private:
    void drain(int fd, std::string& into, bool keepTail);
    bool reap(bool block);

    int m_pid = -1;
    int m_in = -1, m_out = -1, m_err = -1;
    std::string m_outBuf, m_stderr;
    bool m_outEof = false;
    std::optional<int> m_exitCode;
    std::string m_status;
};

// Runs `/bin/sh -c command` to its end (or `timeout`, then kills it). Output is stdout and stderr interleaved,
// its last 16 KiB.
struct CommandResult {
    int exitCode = -1;  // -1 when killed by a signal or the timeout
    bool timedOut = false;
    std::string status;  // "exit 1", "signal 11 (Segmentation fault)", "timed out after 60 s"
    std::string output;
};
CommandResult runCommand(const std::string& command, std::chrono::milliseconds timeout, const Subprocess::Env& env = {});

}  // namespace fxray
