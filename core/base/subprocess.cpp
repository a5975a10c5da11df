#include "base/subprocess.h"

#include "base/error.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fxray {
namespace {

constexpr std::size_t kTailBytes = 16 * 1024;

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

std::string describeStatus(int status)
{
    if (WIFEXITED(status))
        return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = strsignal(sig);
        return "signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
    }
    return "status " + std::to_string(status);
}

}  // namespace

Subprocess::Subprocess(const std::vector<std::string>& argv, const Env& env)
{
    if (argv.empty())
        throw Error("no program to start");
    static const bool sigpipeIgnored = [] {
        std::signal(SIGPIPE, SIG_IGN);
        return true;
    }();
    (void)sigpipeIgnored;

    // Everything the child needs is built before fork(): after it, only async-signal-safe calls.
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e) {
        std::string_view kv(*e);
        bool overridden = false;
        for (const auto& [k, v] : env)
            overridden = overridden || (kv.size() > k.size() && kv.substr(0, k.size()) == k && kv[k.size()] == '=');
        if (!overridden)
            envStrings.emplace_back(kv);
    }
    for (const auto& [k, v] : env)
        envStrings.push_back(k + "=" + v);
    std::vector<char*> envp, args;
    for (auto& s : envStrings)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argvCopy = argv;
    for (auto& s : argvCopy)
        args.push_back(s.data());
    args.push_back(nullptr);

    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]);
        throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    // Exec failure is reported through this pipe (closed by a successful exec thanks to O_CLOEXEC).
    int execErr[2];
    if (::pipe2(execErr, O_CLOEXEC) != 0) {
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
            ::close(fd);
        throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], execErr[0], execErr[1]})
            ::close(fd);
        throw Error(std::string("cannot start '") + argv[0] + "': " + std::strerror(errno));
    }
    if (pid == 0) {
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::setpgid(0, 0);  // its own group: a terminal's Ctrl+C reaches the parent, which decides
        if (std::strchr(args[0], '/'))
            ::execve(args[0], args.data(), envp.data());
        else {
            environ = envp.data();
            ::execvp(args[0], args.data());
        }
        const int e = errno;
        [[maybe_unused]] auto n = ::write(execErr[1], &e, sizeof e);
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also here: a kill() right after fork must already reach the whole group
    ::close(in[0]), ::close(out[1]), ::close(err[1]), ::close(execErr[1]);
    m_pid = pid;
    m_in = in[1];
    m_out = out[0];
    m_err = err[0];
    int childErrno = 0;
    ssize_t n;
    do
        n = ::read(execErr[0], &childErrno, sizeof childErrno);
    while (n < 0 && errno == EINTR);
    ::close(execErr[0]);
    ::fcntl(m_out, F_SETFL, O_NONBLOCK);
    ::fcntl(m_err, F_SETFL, O_NONBLOCK);
    if (n == static_cast<ssize_t>(sizeof childErrno)) {
        reap(true);
        closeFd(m_in), closeFd(m_out), closeFd(m_err);
        throw Error(std::string("cannot start '") + argv[0] + "': " + std::strerror(childErrno));
    }
}

Subprocess::~Subprocess()
{
    kill();
    closeFd(m_in), closeFd(m_out), closeFd(m_err);
}

bool Subprocess::write(std::string_view data)
{
    while (!data.empty() && m_in >= 0) {
        const ssize_t n = ::write(m_in, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;  // EPIPE: the child is gone
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return data.empty();
}

void Subprocess::closeStdin()
{
    closeFd(m_in);
}

void Subprocess::drain(int fd, std::string& into, bool keepTail)
{
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            into.append(buf, static_cast<std::size_t>(n));
            if (keepTail && into.size() > kTailBytes)
                into.erase(0, into.size() - kTailBytes);
            continue;
        }
        if (n == 0) {
            if (fd == m_out)
                m_outEof = true;
            else
                closeFd(m_err);
        }
        return;  // EAGAIN, EOF or an error: nothing more now
    }
}

Subprocess::Read Subprocess::readLine(std::string& line, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const std::size_t nl = m_outBuf.find('\n');
        if (nl != std::string::npos) {
            line.assign(m_outBuf, 0, nl);
            m_outBuf.erase(0, nl + 1);
            return Read::Line;
        }
        if (m_outEof) {
            if (m_err >= 0)
                drain(m_err, m_stderr, true);
            return Read::Eof;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return Read::Timeout;
        pollfd fds[2] = {{m_out, POLLIN, 0}, {m_err, POLLIN, 0}};
        const int r = ::poll(fds, m_err >= 0 ? 2 : 1, static_cast<int>(left.count()));
        if (r < 0 && errno != EINTR)
            return Read::Eof;
        if (m_err >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(m_err, m_stderr, true);
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
            drain(m_out, m_outBuf, false);
    }
}

bool Subprocess::reap(bool block)
{
    if (m_pid < 0 || !m_status.empty())
        return true;
    int status = 0;
    pid_t r;
    do
        r = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return false;
    if (r < 0) {
        m_status = "lost";
        return true;
    }
    m_status = describeStatus(status);
    if (WIFEXITED(status))
        m_exitCode = WEXITSTATUS(status);
    return true;
}

bool Subprocess::running()
{
    return !reap(false);
}

void Subprocess::kill()
{
    if (m_pid > 0 && running()) {
        // The whole process group: a `sh -c` command's own children (a python repro) must not outlive it.
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
        reap(true);
    }
}

bool Subprocess::wait(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (running()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        // Keep the pipes drained: a child blocked on a full pipe would never exit.
        // A pipe at EOF polls as ready forever: leave it out, or this loop would spin.
        pollfd fds[2] = {{m_outEof ? -1 : m_out, POLLIN, 0}, {m_err, POLLIN, 0}};
        ::poll(fds, 2, 10);
        if (m_out >= 0 && !m_outEof && (fds[0].revents & (POLLIN | POLLHUP)))
            drain(m_out, m_outBuf, true);
        if (m_err >= 0 && (fds[1].revents & (POLLIN | POLLHUP)))
            drain(m_err, m_stderr, true);
    }
    return true;
}

CommandResult runCommand(const std::string& command, std::chrono::milliseconds timeout, const Subprocess::Env& env)
{
    // stderr joins stdout so the output reads in the order it was written.
    Subprocess p({"/bin/sh", "-c", "exec 2>&1; " + command}, env);
    p.closeStdin();
    CommandResult r;
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            p.kill();
            r.timedOut = true;
            break;
        }
        const auto got = p.readLine(line, left);
        if (got == Subprocess::Read::Line) {
            r.output += line + "\n";
            if (r.output.size() > kTailBytes)
                r.output.erase(0, r.output.size() - kTailBytes);
        } else if (got == Subprocess::Read::Eof) {
            break;
        }
    }
    if (!r.timedOut && !p.wait(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()))) {
        p.kill();
        r.timedOut = true;
    }
    r.status = r.timedOut ? "timed out after " + std::to_string(timeout.count() / 1000) + " s" : p.status();
    r.exitCode = r.timedOut ? -1 : p.exitCode().value_or(-1);
    return r;
}

}  // namespace fxray
