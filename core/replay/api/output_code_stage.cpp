#include "replay/api/output_code_stage.h"

#include "base/error.h"
#include "base/subprocess.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <thread>

namespace fxray::replay {
namespace {

namespace fs = std::filesystem;

bool isFile(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "";
}

// The last lines of a child's output: where a Python traceback says what went wrong.
std::string tail(const std::string& text, std::size_t lines)
{
    std::vector<std::string> all;
    std::istringstream in(text);
    // torch's own log lines ("W1127 02:03:17.145000 16530 torch/utils/cpp_extension.py:140] No CUDA runtime ...")
    // are not why a child failed.
    static const std::regex torchLog(R"(^[VIWEC]\d{4} \d\d:\d\d:\d\d)");
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && !std::regex_search(l, torchLog))
            all.push_back(l);
    std::string out;
    for (std::size_t k = all.size() > lines ? all.size() - lines : 0; k < all.size(); ++k)
        out += (out.empty() ? "" : "\n") + all[k];
    return out;
}

std::vector<std::string> strings(const json::Value& a)
{
    std::vector<std::string> out;
    if (a.isArray())
        for (std::size_t k = 0; k < a.size(); ++k)
            if (a[k].isString())
                out.push_back(a[k].asString());
    return out;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

}  // namespace

std::string findPython(const OutputCodeOptions& o)
{
    if (!o.python.empty())
        return o.python;
    if (std::string p = env("FXRAY_PYTHON"); !p.empty())
        return p;
#ifdef FXRAY_BUILD_PYTHON
    // The Python whose torch fxray was built against: the same torch that wrote the logs fxray's CI reads.
    if (const fs::path built(FXRAY_BUILD_PYTHON); built.is_absolute() && isFile(built))
        return built.string();
#endif
    return "python3";
}

std::string findOutputCodeRunner(const OutputCodeOptions& o)
{
    if (!o.runner.empty())
        return o.runner;
    constexpr const char* kScript = "run_output_code.py";
    std::vector<fs::path> candidates;
    if (std::string d = env("FXRAY_RUNTIME_DIR"); !d.empty())
        candidates.push_back(fs::path(d) / kScript);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = exe.parent_path();
        candidates.push_back(dir / ".." / "share" / "fxray" / "runtime" / kScript);  // installed
        // A build tree: <source>/build/app/cli/fxray (or app/gui) sits three levels below the source tree.
        for (fs::path up = dir; up.has_parent_path() && up != up.parent_path(); up = up.parent_path())
            if (isFile(up / "tools" / "runtime" / kScript)) {
                candidates.push_back(up / "tools" / "runtime" / kScript);
                break;
            }
    }
#ifdef FXRAY_RUNTIME_SOURCE_DIR
    candidates.push_back(fs::path(FXRAY_RUNTIME_SOURCE_DIR) / kScript);
#endif
    std::string looked;
    for (const fs::path& c : candidates) {
        if (isFile(c))
            return c.lexically_normal().string();
        looked += (looked.empty() ? "" : ", ") + c.lexically_normal().string();
    }
    throw Error(std::string("cannot find ") + kScript + " (looked at: " + looked + "); set FXRAY_RUNTIME_DIR to its folder");
}

ChildAnswer runOutputCodeChild(const OutputCodeOptions& o, const std::vector<std::string>& args, CancelToken* cancel)
{
    ChildAnswer a;
    std::vector<std::string> argv;
    try {
        argv = {findPython(o), findOutputCodeRunner(o)};
    } catch (const Error& e) {
        a.error = e.what();
        return a;
    }
    argv.insert(argv.end(), args.begin(), args.end());
    std::unique_ptr<Subprocess> child;
    try {
        child = std::make_unique<Subprocess>(argv);
    } catch (const Error& e) {
        a.error = "cannot start " + argv[0] + " (set FXRAY_PYTHON to a Python with torch): " + e.what();
        return a;
    }
    child->closeStdin();
    const auto deadline = std::chrono::steady_clock::now() + o.timeout;
    std::string line, last;
    for (;;) {
        if (cancel && cancel->cancelled.load()) {
            child->kill();
            a.error = "cancelled";
            return a;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            child->kill();
            a.error = "the generated code ran past " + std::to_string(o.timeout.count()) + " s (" + argv[0] + ")";
            return a;
        }
        const auto got = child->readLine(line, std::chrono::milliseconds(200));
        if (got == Subprocess::Read::Eof)
            break;
        if (got == Subprocess::Read::Line && !line.empty() && line.front() == '{')
            last = line;
    }
    child->wait(std::chrono::seconds(10));
    const auto code = child->exitCode();
    if (!code || *code != 0) {
        const std::string why = tail(child->stderrTail(), code && *code == 3 ? 1 : 4);
        a.error = (code && *code == 3 ? "" : std::string("the generated code failed in ") + argv[0] + " (" + child->status() + ")") +
                  (why.empty() ? "" : (code && *code == 3 ? "" : ": ") + why);
        return a;
    }
    try {
        a.json = json::parse(last);
    } catch (const Error& e) {
        a.error = "the output_code runner's answer is not JSON: " + std::string(e.what());
        return a;
    }
    a.ok = true;
    return a;
}

KernelFinding kernelFindingFromJson(const json::Value& j, const io::OutputCode& code)
{
    KernelFinding k;
    k.found = j["found"].isBool() && j["found"].asBool();
    k.why = j.stringOr("why", "");
    k.kernels = static_cast<int>(j.intOr("kernels", 0));
    if (!k.found)
        return k;
    k.kernel = j.stringOr("kernel", "");
    k.kind = j.stringOr("kind", "");
    k.buffer = j.stringOr("buffer", "");
    k.node = j.stringOr("node", "");
    k.nodes = strings(j["nodes"]);
    k.sourceNodes = strings(j["source_nodes"]);
    k.maxAbs = j["max_abs"].isNumber() ? j["max_abs"].asDouble() : 0;
    k.mismatched = j.intOr("mismatched", 0);
    k.elements = j.intOr("elements", 0);
    k.index = static_cast<int>(j.intOr("index", 0));
    k.callLine = static_cast<int>(j.intOr("line", 0));
    k.code = j.stringOr("code", "");
        if (j["definition_lines"].isArray() && j["definition_lines"].size() == 2) {
        k.definitionFirst = static_cast<int>(j["definition_lines"][0].asInt());
        k.definitionLast = static_cast<int>(j["definition_lines"][1].asInt());
    }
    // The definition's text, from the code fxray handed over (the GUI shows it beside the nodes).
    std::istringstream in(code.text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (n >= k.definitionFirst && n <= k.definitionLast)
            k.definition += line + "\n";
    const std::size_t colon = code.origin.rfind(':');
    const bool inLog = code.firstLine > 1 && colon != std::string::npos;
    k.origin = (inLog ? code.origin.substr(0, colon) : code.origin) + ":" + std::to_string(k.callLine + code.firstLine - 1);
    return k;
}

json::Value kernelFindingToJson(const KernelFinding& k)
{
    json::Value j = json::Object{};
    j["found"] = k.found;
    j["kernels"] = k.kernels;
    if (!k.found) {
        j["why"] = k.why;
        return j;
    }
    auto list = [](const std::vector<std::string>& v) {
        json::Value a = json::Array{};
        for (const auto& s : v)
            a.push_back(s);
        return a;
    };
    j["kernel"] = k.kernel;
    j["kind"] = k.kind;
    j["index"] = k.index;
    j["buffer"] = k.buffer;
    j["node"] = k.node;
    j["nodes"] = list(k.nodes);
    j["source_nodes"] = list(k.sourceNodes);
    j["max_abs"] = k.maxAbs;
    j["mismatched"] = k.mismatched;
    j["elements"] = k.elements;
    j["call_line"] = k.callLine;
    j["code"] = k.code;
    j["origin"] = k.origin;
    j["definition_lines"] = json::Array{k.definitionFirst, k.definitionLast};
    j["definition"] = k.definition;
    return j;
}

std::string formatKernelFinding(const KernelFinding& k)
{
    if (!k.found)
        return "no divergent kernel found (" + std::to_string(k.kernels) + " kernel calls): " + k.why;
    std::string s = "first divergent kernel: " + k.kernel + " (kernel call " + std::to_string(k.index + 1) + " of " +
                    std::to_string(k.kernels) + ", " + k.kind + ") writes " + k.buffer + " = post-grad node " + k.node;
    if (k.nodes.size() > 1) {
        std::string all;
        for (const auto& n : k.nodes)
            all += (all.empty() ? "" : ", ") + n;
        s += " (of " + all + ")";
    }
    s += ": " + std::to_string(k.mismatched) + " of " + std::to_string(k.elements) + " element(s) differ, max abs " + number(k.maxAbs);
    s += "\n    at " + k.origin + ": " + k.code;
    if (k.definitionFirst > 0)
        s += "\n    defined at lines " + std::to_string(k.definitionFirst) + "-" + std::to_string(k.definitionLast) + " of the code";
    if (!k.sourceNodes.empty()) {
        std::string all;
        for (const auto& n : k.sourceNodes)
            all += (all.empty() ? "" : ", ") + n;
        s += "; inductor's source nodes: " + all;
    }
    return s;
}

}  // namespace fxray::replay
