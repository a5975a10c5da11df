#include "replay/api/seed_sweep.h"

#include "base/error.h"
#include "replay/api/report_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace fxray::replay {
namespace {

std::uint64_t parseSeed(const std::string& digits, const std::string& whole)
{
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18)
        throw Error("--seeds wants A-B or A (non-negative integers), got '" + whole + "'");
    return std::stoull(digits);
}

std::string nodeLabel(const NodeResult& n)
{
    return "node '" + n.name + "' (" + n.target + ")";
}

std::string firstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

// The first failure a node shows that the spec asks about, "" when none.
std::string nodeFailure(const NodeResult& n, const SweepSpec& spec)
{
    if (spec.error && n.status == NodeStatus::Error)
        return "error at " + nodeLabel(n) + ": " + firstLine(n.error);
    if (spec.mismatch && !n.mismatches.empty()) {
        const Mismatch& m = n.mismatches.front();
        return "mismatch at " + nodeLabel(n) + ": " + std::string(mismatchKindName(m.kind)) + " of output " +
               std::to_string(m.output) + ": recorded " + m.expected + ", actual " + m.actual;
    }
    if (spec.nan && n.nanOrigin) {
        std::int64_t nans = 0, infs = 0;
        for (const OutputStats& s : n.outputs)
            nans += s.nanCount, infs += s.infCount;
        return std::string(nans > 0 ? "nan" : "inf") + " at " + nodeLabel(n) + ": " + std::to_string(nans) + " NaN, " +
               std::to_string(infs) + " Inf from finite inputs";
    }
    return "";
}

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void parseSeedRange(const std::string& text, SweepSpec& spec)
{
    const std::size_t dash = text.find('-');
    spec.first = parseSeed(text.substr(0, dash), text);
    spec.last = dash == std::string::npos ? spec.first : parseSeed(text.substr(dash + 1), text);
    if (spec.last < spec.first)
        throw Error("--seeds " + text + ": the last seed comes before the first");
}

void parseUntil(const std::string& text, SweepSpec& spec)
{
    spec.nan = spec.mismatch = spec.error = spec.divergeRuns = false;
    spec.divergeDevice.clear();
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string one = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (one == "nan")
            spec.nan = true;
        else if (one == "mismatch")
            spec.mismatch = true;
        else if (one == "error")
            spec.error = true;
        else if (one == "diverge")
            spec.divergeRuns = true;
        else if (one.starts_with("diverge:") && one.size() > 8)
            spec.divergeDevice = one.substr(8);
        else
            throw Error("--until: '" + one + "' is not one of nan, mismatch, error, diverge (runs, with --repeat N), "
                        "diverge:DEVICE");
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
}

std::string describeUntil(const SweepSpec& spec)
{
    std::string out;
    auto add = [&](const std::string& k) { out += (out.empty() ? "" : ",") + k; };
    if (spec.nan)
        add("nan");
    if (spec.mismatch)
        add("mismatch");
    if (spec.error)
        add("error");
    if (spec.divergeRuns)
        add("diverge");
    if (!spec.divergeDevice.empty())
        add("diverge:" + spec.divergeDevice);
    return out;
}

std::string sweepFailure(const ReplayReport& r, const SweepSpec& spec)
{
    if (!r.fatal.empty())
        return "the replay could not run: " + firstLine(r.fatal);
    for (const NodeResult& n : r.nodes)
        if (std::string why = nodeFailure(n, spec); !why.empty())
            return why;
    if (!spec.divergeDevice.empty())
        for (const OutputComparison& c : r.comparisons)
            if (!c.ok) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.3g", c.maxAbs);
                return "diverge from the " + r.reference + " at output " + std::to_string(c.output) + " (" + c.what +
                       "): max abs " + buf + (c.note.empty() ? "" : "; " + c.note);
            }
    return "";
}

int firstDivergentNode(const ReplayReport& first, const ReplayReport& other, std::string& what)
{
    const std::size_t n = std::min(first.nodes.size(), other.nodes.size());
    for (std::size_t i = 0; i < n; ++i) {
        const NodeResult& a = first.nodes[i];
        const NodeResult& b = other.nodes[i];
        if (a.status != b.status) {
            what = nodeLabel(a) + " is " + std::string(nodeStatusName(a.status)) + " in one run and " +
                   std::string(nodeStatusName(b.status)) + " in the other";
            return static_cast<int>(i);
        }
        if (a.outputs.size() != b.outputs.size()) {
            what = nodeLabel(a) + " returns " + std::to_string(a.outputs.size()) + " tensor(s) in one run and " +
                   std::to_string(b.outputs.size()) + " in the other";
            return static_cast<int>(i);
        }
        for (std::size_t k = 0; k < a.outputs.size(); ++k) {
            const std::string& x = a.outputs[k].digest;
            const std::string& y = b.outputs[k].digest;
            if (!x.empty() && !y.empty() && x != y) {
                what = nodeLabel(a) + ": output " + std::to_string(k) + " (" + a.outputs[k].meta +
                       ") differs between runs of the same inputs (bit digests " + x + " vs " + y + ")";
                return static_cast<int>(i);
            }
        }
    }
    return -1;
}

SweepResult runSweep(const SweepSpec& spec, const ReplayOptions& base, const ReplayOnce& replay, CancelToken* cancel,
                     const SweepProgress& progress)
{
    const auto t0 = std::chrono::steady_clock::now();
    SweepResult res;
    ReplayOptions o = base;
    o.repeat = o.warmup = 0;  // --repeat means repeat runs here, not timed ones
    if (!spec.divergeDevice.empty()) {
        o.compareDevice = spec.divergeDevice;
        o.expectedOutputsPath.clear();
    }
    o.digests = o.digests || spec.divergeRuns;
    for (std::uint64_t s = spec.first;; ++s) {
        if (cancel && cancel->cancelled.load()) {
            res.cancelled = true;
            break;
        }
        if (progress)
            progress(s, res.seedsRun, spec.count());
        o.seed = s;
        ReplayReport r = replay(o);
        ++res.seedsRun;
        res.seed = s;
        std::string why = r.cancelled ? "" : sweepFailure(r, spec);
        for (int k = 0; spec.divergeRuns && why.empty() && !r.cancelled && k < spec.repeat; ++k) {
            if (cancel && cancel->cancelled.load())
                break;
            const ReplayReport again = replay(o);
            if (again.cancelled)
                break;
            if (!again.fatal.empty()) {
                why = "run " + std::to_string(k + 2) + " of the same inputs could not run: " + firstLine(again.fatal);
                break;
            }
            std::string what;
            if (const int at = firstDivergentNode(r, again, what); at >= 0) {
                why = "diverge between runs at " + what;
                res.divergentNode = r.nodes[static_cast<std::size_t>(at)].name;
                res.divergentRun = k + 2;
            }
        }
        res.cancelled = r.cancelled || (cancel && cancel->cancelled.load());
        res.report = std::move(r);
        if (!why.empty()) {
            res.found = true;
            res.failure = why;
            break;
        }
        if (res.cancelled || s == spec.last)
            break;
    }
    res.seconds = secondsSince(t0);
    return res;
}

json::Value sweepSpecToJson(const SweepSpec& spec)
{
    return json::Object{{"first", static_cast<std::int64_t>(spec.first)}, {"last", static_cast<std::int64_t>(spec.last)},
                        {"nan", spec.nan},          {"mismatch", spec.mismatch},
                        {"error", spec.error},      {"diverge_device", spec.divergeDevice},
                        {"diverge_runs", spec.divergeRuns}, {"repeat", spec.repeat}};
}

SweepSpec sweepSpecFromJson(const json::Value& j)
{
    auto flag = [&](const char* key) { return j[key].isBool() && j[key].asBool(); };
    SweepSpec s;
    s.first = static_cast<std::uint64_t>(j.intOr("first", 0));
    s.last = static_cast<std::uint64_t>(j.intOr("last", 0));
    if (s.last < s.first)
        throw Error("sweep: last seed before first");
    s.nan = flag("nan");
    s.mismatch = flag("mismatch");
    s.error = flag("error");
    s.divergeDevice = j.stringOr("diverge_device", "");
    s.divergeRuns = flag("diverge_runs");
    s.repeat = static_cast<int>(j.intOr("repeat", 0));
    return s;
}

json::Value sweepResultToJson(const SweepResult& r)
{
    json::Value j = json::Object{};
    j["found"] = r.found;
    j["seed"] = static_cast<std::int64_t>(r.seed);
    j["seeds_run"] = static_cast<std::int64_t>(r.seedsRun);
    j["failure"] = r.failure;
    if (!r.divergentNode.empty()) {
        j["divergent_node"] = r.divergentNode;
        j["divergent_run"] = r.divergentRun;
    }
    j["cancelled"] = r.cancelled;
    j["seconds"] = r.seconds;
    j["report"] = reportToJson(r.report);
    return j;
}

SweepResult sweepResultFromJson(const json::Value& j)
{
    SweepResult r;
    r.found = j["found"].isBool() && j["found"].asBool();
    r.seed = static_cast<std::uint64_t>(j.intOr("seed", 0));
    r.seedsRun = static_cast<std::uint64_t>(j.intOr("seeds_run", 0));
    r.failure = j.stringOr("failure", "");
    r.divergentNode = j.stringOr("divergent_node", "");
    r.divergentRun = static_cast<int>(j.intOr("divergent_run", 0));
    r.cancelled = j["cancelled"].isBool() && j["cancelled"].asBool();
    r.seconds = j["seconds"].isNumber() ? j["seconds"].asDouble() : 0.0;
    if (j["report"].isObject())
        r.report = reportFromJson(j["report"]);
    return r;
}

std::string formatSweep(const SweepResult& r, const SweepSpec& spec, const std::string& target)
{
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f s", r.seconds);
    const std::string range = std::to_string(spec.first) + "-" + std::to_string(spec.last);
    const std::string runs = spec.divergeRuns ? " (" + std::to_string(spec.repeat + 1) + " runs each)" : "";
    if (r.found) {
        std::string repro = "fxray replay " + target + " --seed " + std::to_string(r.seed);
        if (spec.divergeRuns)
            repro += " --repeat " + std::to_string(spec.repeat) + " --until diverge";
        return "seed " + std::to_string(r.seed) + " fails (--until " + describeUntil(spec) + "): " + r.failure + "\n  " +
               std::to_string(r.seedsRun) + " of " + std::to_string(spec.count()) + " seed(s) of " + range + " run" + runs +
               " in " + secs + "; reproduce: " + repro + "\n";
    }
    if (r.cancelled)
        return "cancelled after " + std::to_string(r.seedsRun) + " of " + std::to_string(spec.count()) + " seed(s) of " + range +
               " (" + secs + "): no failure (--until " + describeUntil(spec) + ") so far\n";
    return "no seed of " + range + " fails (--until " + describeUntil(spec) + "): " + std::to_string(r.seedsRun) + " seed(s)" +
           runs + " in " + secs + "\n";
}

}  // namespace fxray::replay
