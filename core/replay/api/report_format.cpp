#include "replay/api/report_format.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fxray::replay {
namespace {

// JSON has no NaN or Infinity: a statistic that is one (the min of a mask, a max_abs of inf) is written as the
// string "nan", "inf" or "-inf" (Python's float() reads them back), so a reader gets -inf, not a missing value.
json::Value numberJson(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

// A number, or one of numberJson's names; anything else (absent, null): NaN.
double numberFrom(const json::Value& v)
{
    if (v.isNumber())
        return v.asDouble();
    if (v.isString()) {
        const std::string& s = v.asString();
        if (s == "inf")
            return HUGE_VAL;
        if (s == "-inf")
            return -HUGE_VAL;
    }
    return std::nan("");
}

json::Value stringArray(const std::vector<std::string>& items)
{
    json::Value a = json::Array{};
    for (const auto& item : items)
        a.push_back(item);
    return a;
}

// The strings of a JSON array (absent: none).
std::vector<std::string> stringsOf(const json::Value& a)
{
    std::vector<std::string> out;
    if (a.isArray())
        for (const json::Value& v : a.asArray())
            out.push_back(v.asString());
    return out;
}


json::Value statsJson(const OutputStats& s)
{
    json::Value o = json::Object{};
    o["meta"] = s.meta;
    if (s.hasValues) {
        o["min"] = numberJson(s.min);
        o["max"] = numberJson(s.max);
        o["mean"] = numberJson(s.mean);
        o["nan"] = s.nanCount;
        o["inf"] = s.infCount;
        o["numel"] = s.numel;
    }
    if (!s.digest.empty())
        o["digest"] = s.digest;
    return o;
}

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

}  // namespace

json::Value nodeToJson(const NodeResult& n)
{
    json::Value j = json::Object{};
    j["name"] = n.name;
    j["target"] = n.target;
    if (!n.schema.empty())
        j["schema"] = n.schema;
    j["status"] = std::string(nodeStatusName(n.status));
    j["time_us"] = n.timeUs;
    if (!n.error.empty())
        j["error"] = n.error;
    if (n.nanOrigin)
        j["nan_origin"] = true;
    if (n.nonFiniteConstant)
        j["nonfinite_constant"] = true;
    if (n.transientNonFinite) {
        j["transient_nonfinite"] = true;
        json::Value at = json::Array{};
        for (const std::string& a : n.absorbedAt)
            at.push_back(a);
        j["absorbed_at"] = std::move(at);
    }
    auto mismatchesJson = [](const std::vector<Mismatch>& list) {
        json::Value ms = json::Array{};
        for (const Mismatch& m : list)
            ms.push_back(json::Object{{"kind", std::string(mismatchKindName(m.kind))},
                                      {"output", m.output},
                                      {"expected", m.expected},
                                      {"actual", m.actual}});
        return ms;
    };
    if (!n.mismatches.empty())
        j["mismatches"] = mismatchesJson(n.mismatches);
    if (!n.crossDeviceLayouts.empty())
        j["cross_device_layouts"] = mismatchesJson(n.crossDeviceLayouts);
    if (!n.kernelLayouts.empty())
        j["kernel_layouts"] = mismatchesJson(n.kernelLayouts);
    if (!n.staleLayouts.empty())
        j["stale_layouts"] = mismatchesJson(n.staleLayouts);
    json::Value outs = json::Array{};
    for (const OutputStats& s : n.outputs)
        outs.push_back(statsJson(s));
    j["outputs"] = std::move(outs);
    return j;
}

namespace {

template <class Enum, std::size_t N>
Enum enumFromName(const std::string& name, const Enum (&all)[N], std::string_view (*nameOf)(Enum), const char* what)
{
    for (Enum e : all)
        if (nameOf(e) == name)
            return e;
    throw Error(std::string("replay report: unknown ") + what + " '" + name + "'");
}

json::Value comparisonToJson(const OutputComparison& c)
{
    return json::Object{{"output", c.output}, {"what", c.what}, {"max_abs", numberJson(c.maxAbs)}, {"max_rel", numberJson(c.maxRel)},
                        {"atol", c.atol}, {"rtol", c.rtol}, {"mismatched", c.mismatched}, {"ok", c.ok}, {"compared", c.compared}, {"by_rate", c.byRate}, {"note", c.note},
                        {"rounding_noise", c.roundingNoise >= 0 ? numberJson(c.roundingNoise) : json::Value()}};
}

OutputComparison comparisonFromJson(const json::Value& c)
{
    OutputComparison oc;
    oc.output = static_cast<int>(c.intOr("output", 0));
    oc.what = c.stringOr("what", "");
    oc.maxAbs = numberFrom(c["max_abs"]);
    oc.maxRel = numberFrom(c["max_rel"]);
    oc.atol = c["atol"].isNumber() ? c["atol"].asDouble() : 0;
    oc.rtol = c["rtol"].isNumber() ? c["rtol"].asDouble() : 0;
    oc.mismatched = c.intOr("mismatched", 0);
    oc.ok = c["ok"].isBool() && c["ok"].asBool();
    oc.compared = !c["compared"].isBool() || c["compared"].asBool();
    oc.byRate = c["by_rate"].isBool() && c["by_rate"].asBool();
    oc.note = c.stringOr("note", "");
    oc.roundingNoise = c["rounding_noise"].isNull() ? -1.0 : numberFrom(c["rounding_noise"]);
    return oc;
}

json::Value cudaGraphToJson(const CudaGraphReport& cg)
{
    json::Value o = json::Object{};
    o["status"] = cg.status;
    o["reason"] = cg.reason;
    json::Value findings = json::Array{};
    for (const CudaGraphFinding& f : cg.findings)
        findings.push_back(json::Object{{"kind", std::string(cudaGraphFindingKindName(f.kind))}, {"node", f.node},
                                        {"message", f.message}, {"blocking", f.blocking}});
    o["findings"] = std::move(findings);
    json::Value nondet = json::Array{};
    for (const auto& op : cg.nondeterministicOps)
        nondet.push_back(op);
    o["nondeterministic_ops"] = std::move(nondet);
    o["warmup_runs"] = cg.warmupRuns;
    o["capture_us"] = cg.captureUs;
    json::Value replays = json::Array{};
    for (double v : cg.replayUs)
        replays.push_back(v);
    o["replay_us"] = std::move(replays);
    o["replay_median_us"] = cg.medianReplayUs();
    o["replay_back_to_back_us"] = cg.replayBackToBackUs;
    json::Value vs = json::Array{};
    for (const OutputComparison& c : cg.vsEager)
        vs.push_back(comparisonToJson(c));
    o["vs_eager"] = std::move(vs);
    o["matches_eager"] = cg.matchesEager();
    if (cg.valueChecks) {
        json::Value nf = json::Array{};
        for (const auto& n : cg.nonFinite)
            nf.push_back(json::Object{{"node", n.node}, {"nan", n.nan}, {"inf", n.inf}, {"origin", n.origin}, {"counted", n.counted}});
        o["value_checks"] = json::Object{{"replays", cg.checkedReplays}, {"presence_replays", cg.presenceReplays},
                                         {"nan_replays", cg.nanReplays},
                                         {"note", cg.valueChecksNote.empty() ? json::Value() : json::Value(cg.valueChecksNote)},
                                         {"first_nan_node", cg.firstNanNode.empty() ? json::Value() : json::Value(cg.firstNanNode)},
                                         {"nonfinite", std::move(nf)},
                                         {"rows_vs_pass", json::Object{{"compared", cg.statsRowsCompared},
                                                                       {"differ", cg.statsRowsDiffer},
                                                                       {"first", cg.firstStatsDiffer.empty() ? json::Value() : json::Value(cg.firstStatsDiffer)}}}};
    }
    return o;
}

CudaGraphReport cudaGraphFromJson(const json::Value& o)
{
    static constexpr CudaGraphFinding::Kind kKinds[] = {
        CudaGraphFinding::Kind::NotCuda,         CudaGraphFinding::Kind::MutatesInput, CudaGraphFinding::Kind::CpuTensor,
        CudaGraphFinding::Kind::CpuScalar,       CudaGraphFinding::Kind::MultipleDevices,
        CudaGraphFinding::Kind::HostSync,        CudaGraphFinding::Kind::Unsupported,
        CudaGraphFinding::Kind::Nondeterministic};
    CudaGraphReport cg;
    cg.status = o.stringOr("status", "");
    cg.reason = o.stringOr("reason", "");
    if (o["findings"].isArray())
        for (const json::Value& f : o["findings"].asArray())
            cg.findings.push_back(CudaGraphFinding{
                enumFromName(f.stringOr("kind", ""), kKinds, &cudaGraphFindingKindName, "CUDA graph finding"),
                f.stringOr("node", ""), f.stringOr("message", ""), !f["blocking"].isBool() || f["blocking"].asBool()});
    if (o["nondeterministic_ops"].isArray())
        for (const json::Value& v : o["nondeterministic_ops"].asArray())
            cg.nondeterministicOps.push_back(v.asString());
    cg.warmupRuns = static_cast<int>(o.intOr("warmup_runs", 0));
    cg.captureUs = o["capture_us"].isNumber() ? o["capture_us"].asDouble() : 0;
    if (o["replay_us"].isArray())
        for (const json::Value& v : o["replay_us"].asArray())
            cg.replayUs.push_back(v.asDouble());
    cg.replayBackToBackUs = o["replay_back_to_back_us"].isNumber() ? o["replay_back_to_back_us"].asDouble() : 0;
    if (o["vs_eager"].isArray())
        for (const json::Value& c : o["vs_eager"].asArray())
            cg.vsEager.push_back(comparisonFromJson(c));
    if (const json::Value& v = o["value_checks"]; v.isObject()) {
        cg.valueChecks = true;
        cg.checkedReplays = static_cast<int>(v.intOr("replays", 0));
        cg.presenceReplays = static_cast<int>(v.intOr("presence_replays", 0));
        cg.valueChecksNote = v["note"].isString() ? v["note"].asString() : "";
        cg.nanReplays = static_cast<int>(v.intOr("nan_replays", 0));
        cg.firstNanNode = v["first_nan_node"].isString() ? v["first_nan_node"].asString() : "";
        if (const json::Value& rows = v["rows_vs_pass"]; rows.isObject()) {
            cg.statsRowsCompared = static_cast<int>(rows.intOr("compared", 0));
            cg.statsRowsDiffer = static_cast<int>(rows.intOr("differ", 0));
            cg.firstStatsDiffer = rows["first"].isString() ? rows["first"].asString() : "";
        }
        if (v["nonfinite"].isArray())
            for (const json::Value& n : v["nonfinite"].asArray())
                cg.nonFinite.push_back({n.stringOr("node", ""), n.intOr("nan", 0), n.intOr("inf", 0),
                                        n["origin"].isBool() && n["origin"].asBool(),
                                        !n["counted"].isBool() || n["counted"].asBool()});
    }
    return cg;
}

}  // namespace

json::Value reportToJson(const ReplayReport& r)
{
    json::Value o = json::Object{};
    o["address"] = r.address;
    o["device"] = r.device;
    o["seed"] = r.seed;
    o["inputs"] = r.inputs;
    o["verdict"] = r.verdict();
    if (!r.fatal.empty())
        o["fatal"] = r.fatal;
    o["total_us"] = r.totalUs;
    if (r.peakDeviceBytes >= 0)
        o["peak_device_bytes"] = r.peakDeviceBytes;
    if (!r.iterationUs.empty()) {
        json::Value it = json::Array{};
        for (double v : r.iterationUs)
            it.push_back(v);
        o["iteration_us"] = std::move(it);
    }
    if (!r.reference.empty()) {
        o["reference"] = r.reference;
        json::Value cs = json::Array{};
        for (const OutputComparison& c : r.comparisons)
            cs.push_back(comparisonToJson(c));
        o["comparisons"] = std::move(cs);
    }
    if (r.cudaGraph)
        o["cuda_graph"] = cudaGraphToJson(*r.cudaGraph);
    o["cancelled"] = r.cancelled;
    json::Value counts = json::Object{};
    for (NodeStatus s : {NodeStatus::Passed, NodeStatus::Mismatch, NodeStatus::Error, NodeStatus::Skipped,
                         NodeStatus::Unsupported, NodeStatus::NotRun})
        counts[nodeStatusName(s)] = r.count(s);
    o["counts"] = std::move(counts);
    o["first_nan_node"] = r.firstNanNode.empty() ? json::Value() : json::Value(r.firstNanNode);
    o["unsupported"] = stringArray(r.unsupported);
    o["constraints"] = stringArray(r.constraints);
    if (!r.chainedFrom.empty()) {
        o["chained_from"] = r.chainedFrom;
        o["chained_inputs"] = stringArray(r.chainedInputs);
    }
    o["notes"] = stringArray(r.notes);
    json::Value symbols = json::Object{};
    for (const auto& [sym, v] : r.symbols)
        symbols[sym] = v;
    o["symbols"] = std::move(symbols);
    json::Value nodes = json::Array{};
    for (const NodeResult& n : r.nodes)
        nodes.push_back(nodeToJson(n));
    o["nodes"] = std::move(nodes);
    return o;
}

namespace {

OutputStats statsFromJson(const json::Value& j)
{
    OutputStats s;
    s.meta = j.stringOr("meta", "");
    if (j.find("min")) {
        s.hasValues = true;
        s.min = numberFrom(j["min"]);
        s.max = numberFrom(j["max"]);
        s.mean = numberFrom(j["mean"]);
        s.nanCount = j.intOr("nan", 0);
        s.infCount = j.intOr("inf", 0);
        s.numel = j.intOr("numel", 0);
    }
    s.digest = j.stringOr("digest", "");
    return s;
}

}  // namespace

NodeResult nodeFromJson(const json::Value& j)
{
    static constexpr NodeStatus kStatuses[] = {NodeStatus::Passed,      NodeStatus::Mismatch, NodeStatus::Error,
                                               NodeStatus::Skipped,     NodeStatus::Unsupported, NodeStatus::NotRun};
    static constexpr Mismatch::Kind kKinds[] = {Mismatch::Kind::DType, Mismatch::Kind::Size, Mismatch::Kind::Stride,
                                                Mismatch::Kind::Device, Mismatch::Kind::Value};
    NodeResult n;
    n.name = j.stringOr("name", "");
    n.target = j.stringOr("target", "");
    n.schema = j.stringOr("schema", "");
    n.status = enumFromName(j.stringOr("status", ""), kStatuses, &nodeStatusName, "node status");
    n.timeUs = j["time_us"].isNumber() ? j["time_us"].asDouble() : 0;
    n.error = j.stringOr("error", "");
    n.nanOrigin = j["nan_origin"].isBool() && j["nan_origin"].asBool();
    n.nonFiniteConstant = j["nonfinite_constant"].isBool() && j["nonfinite_constant"].asBool();
    n.transientNonFinite = j["transient_nonfinite"].isBool() && j["transient_nonfinite"].asBool();
    if (j["absorbed_at"].isArray())
        for (const json::Value& a : j["absorbed_at"].asArray())
            n.absorbedAt.push_back(a.asString());
    auto mismatchesFrom = [](const json::Value& list, std::vector<Mismatch>& into) {
        if (list.isArray())
            for (const json::Value& m : list.asArray())
                into.push_back(Mismatch{enumFromName(m.stringOr("kind", ""), kKinds, &mismatchKindName, "mismatch kind"),
                                        static_cast<int>(m.intOr("output", 0)), m.stringOr("expected", ""),
                                        m.stringOr("actual", "")});
    };
    mismatchesFrom(j["mismatches"], n.mismatches);
    mismatchesFrom(j["cross_device_layouts"], n.crossDeviceLayouts);
    mismatchesFrom(j["kernel_layouts"], n.kernelLayouts);
    mismatchesFrom(j["stale_layouts"], n.staleLayouts);
    if (j["outputs"].isArray())
        for (const json::Value& s : j["outputs"].asArray())
            n.outputs.push_back(statsFromJson(s));
    return n;
}

ReplayReport reportFromJson(const json::Value& o)
{
    ReplayReport r;
    r.address = o.stringOr("address", "");
    r.device = o.stringOr("device", "");
    r.seed = static_cast<std::uint64_t>(o.intOr("seed", 0));
    r.inputs = o.stringOr("inputs", "");
    r.fatal = o.stringOr("fatal", "");
    if (o["total_us"].isNumber())
        r.totalUs = o["total_us"].asDouble();
    r.peakDeviceBytes = o.intOr("peak_device_bytes", -1);
    for (const json::Value& v : o["iteration_us"].isArray() ? o["iteration_us"].asArray() : json::Array{})
        r.iterationUs.push_back(v.asDouble());
    r.reference = o.stringOr("reference", "");
    if (o["comparisons"].isArray())
        for (const json::Value& c : o["comparisons"].asArray())
            r.comparisons.push_back(comparisonFromJson(c));
    if (o["cuda_graph"].isObject())
        r.cudaGraph = cudaGraphFromJson(o["cuda_graph"]);
    r.cancelled = o["cancelled"].isBool() && o["cancelled"].asBool();
    r.firstNanNode = o["first_nan_node"].isString() ? o["first_nan_node"].asString() : "";
    r.unsupported = stringsOf(o["unsupported"]);
    r.notes = stringsOf(o["notes"]);
    r.chainedFrom = o.stringOr("chained_from", "");
    r.chainedInputs = stringsOf(o["chained_inputs"]);
    r.constraints = stringsOf(o["constraints"]);
    if (o["symbols"].isObject())
        for (const auto& [sym, v] : o["symbols"].asObject())
            r.symbols[sym] = v.asInt();
    if (o["nodes"].isArray())
        for (const json::Value& j : o["nodes"].asArray())
            r.nodes.push_back(nodeFromJson(j));
    return r;
}

namespace {

std::string formatCudaGraph(const CudaGraphReport& cg)
{
    std::string out = "  CUDA graph: " + cg.status;
    if (cg.captured()) {
        out += "; capture " + fixed(cg.captureUs / 1000.0, 2) + " ms after " + std::to_string(cg.warmupRuns) +
               " warm-up runs; replay median " + fixed(cg.medianReplayUs(), 1) + " us over " +
               std::to_string(cg.replayUs.size()) + " replays (" + fixed(cg.replayBackToBackUs, 1) +
               " us back to back); outputs " +
               (cg.matchesEager() ? "match eager" : "DIFFER from eager") + "\n";
        for (const OutputComparison& c : cg.vsEager)
            if (!c.ok || !c.note.empty())
                out += "    [" + std::to_string(c.output) + "] " + c.what + (c.ok ? "  ok" : "  DIFFERS") + "  max abs " +
                       fixed(c.maxAbs, 8) + (c.mismatched ? "  " + std::to_string(c.mismatched) + " elements differ" : "") +
                       (c.note.empty() ? "" : "  (" + c.note + ")") + "\n";
        if (cg.valueChecks)
            out += "    value checks captured: " + std::to_string(cg.checkedReplays) + " replays read back" +
                   (cg.presenceReplays == 0 ? std::string()
                                            : " (" + std::to_string(cg.presenceReplays) + " of them NaN/Inf presence only)") +
                   (cg.valueChecksNote.empty() ? std::string() : " (" + cg.valueChecksNote + ")") +
                   ", " +
                   (cg.nanReplays == 0 ? std::string("no NaN/Inf made from finite inputs")
                                       : std::to_string(cg.nanReplays) + " with NaN/Inf, first made at node '" + cg.firstNanNode + "'") +
                   (cg.statsRowsDiffer == 0 ? std::string()
                                            : "; " + std::to_string(cg.statsRowsDiffer) + " of " + std::to_string(cg.statsRowsCompared) +
                                                  " statistics rows differ from the checked pass's (first at node '" +
                                                  cg.firstStatsDiffer + "'): these checks are not to be trusted") +
                   "\n";
    } else {
        out += ": " + cg.reason + "; replayed eagerly\n";
    }
    for (const CudaGraphFinding& f : cg.findings)
        out += "    " + std::string(f.blocking ? "blocks: " : "note:   ") + (f.node.empty() ? "" : f.node + ": ") + f.message +
               "\n";
    return out;
}

}  // namespace

namespace {

// One line for the nodes whose stride differences one NodeResult list (`which`) set apart from the mismatches: how
// many, why (`what`), and the first; empty when none.
std::string setApartLayouts(const ReplayReport& r, std::vector<Mismatch> NodeResult::*which, const std::string& what)
{
    const NodeResult* first = nullptr;
    int count = 0;
    for (const NodeResult& n : r.nodes)
        if (!(n.*which).empty() && count++ == 0)
            first = &n;
    if (!first)
        return {};
    const Mismatch& m = (first->*which)[0];
    return "  layouts differ from the recording on " + std::to_string(count) + what + "; first at " + first->name + " (" +
           first->target + "): recorded " + m.expected + ", here " + m.actual + "\n";
}

std::string formatComparison(const OutputComparison& c)
{
    std::string line = "    [" + std::to_string(c.output) + "] " + c.what;
    if (!c.compared)
        return line + "  " + c.note + "\n";
    if (c.byRate)
        return line + (c.ok ? "  ok  " : "  DIVERGED  ") + c.note + "\n";
    line += (c.ok ? "  ok" : "  DIVERGED") + std::string("  max abs ") + fixed(c.maxAbs, 8) + " max rel " + fixed(c.maxRel, 8);
    if (c.mismatched)
        line += "  " + std::to_string(c.mismatched) + " elements outside tolerance";
    return line + (c.note.empty() ? "" : "  (" + c.note + ")") + "\n";
}

}  // namespace

std::string formatReport(const ReplayReport& r, bool allNodes)
{
    std::string out = r.address + " on " + r.device + " (" + r.inputs + " inputs, seed " + std::to_string(r.seed) +
                      "): " + r.verdict() + "\n";
    if (!r.fatal.empty())
        return out + "  " + r.fatal + "\n";
    out += "  " + std::to_string(r.count(NodeStatus::Passed)) + " passed, " + std::to_string(r.count(NodeStatus::Mismatch)) +
           " mismatch, " + std::to_string(r.count(NodeStatus::Error)) + " error, " +
           std::to_string(r.count(NodeStatus::Skipped)) + " skipped, " + std::to_string(r.count(NodeStatus::Unsupported)) +
           " unsupported; " + fixed(r.totalUs / 1000.0, 2) + " ms\n";
    for (const auto& u : r.unsupported)
        out += "  unsupported: " + u + "\n";
    if (!r.reference.empty()) {
        out += "  outputs vs " + r.reference + ":\n";
        for (const OutputComparison& c : r.comparisons)
            out += formatComparison(c);
    }
    if (!r.iterationUs.empty())
        out += "  timed repeats: median " + fixed(medianOf(r.iterationUs), 1) + " us over " +
               std::to_string(r.iterationUs.size()) + " runs\n";
    if (r.cudaGraph)
        out += formatCudaGraph(*r.cudaGraph);
    for (const auto& note : r.notes)
        out += "  note: " + note + "\n";
    if (!r.chainedFrom.empty()) {
        out += "  chained from " + r.chainedFrom + ": " + std::to_string(r.chainedInputs.size()) + " input(s) from its outputs (";
        for (std::size_t k = 0; k < r.chainedInputs.size() && k < 8; ++k)
            out += (k ? ", " : "") + r.chainedInputs[k];
        out += r.chainedInputs.size() > 8 ? ", ...)\n" : ")\n";
    }
    // One line per input would bury the findings of a real model (hundreds of batch-norm variances): the text
    // report counts them, --json lists each.
    if (r.constraints.size() > 6)
        out += "  " + std::to_string(r.constraints.size()) + " inputs drawn from their value domains (integer ranges, "
               "positive, probabilities, CPU scalars; --json lists each)\n";
    else
        for (const auto& c : r.constraints)
            out += "  input " + c + "\n";
    if (!r.firstNanNode.empty())
        out += "  NaN/Inf from finite inputs first appears at node '" + r.firstNanNode + "'\n";
    std::string constants;
    for (const NodeResult& n : r.nodes)
        if (n.nonFiniteConstant)
            constants += (constants.empty() ? "" : ", ") + n.name;
    if (!constants.empty())
        out += "  NaN/Inf by intent (constants, fills, logsumexp padding; not a failure): " + constants + "\n";
    out += setApartLayouts(r, &NodeResult::crossDeviceLayouts,
                           " node(s): recorded on another device type, where kernels pick other layouts (not a compiler bug)");
    out += setApartLayouts(r, &NodeResult::kernelLayouts,
                           " node(s): the op's eager kernel lays its output out otherwise than its fake-tensor rule recorded "
                           "(torch's fake-vs-eager difference, not the graph's; not a mismatch)");
    out += setApartLayouts(r, &NodeResult::staleLayouts,
                           " view(s) whose inputs hold their recorded layouts: the views' records are stale (a compiler pass "
                           "such as inductor's pad_mm rewrote their input and kept the old record; not a mismatch)");
    for (const NodeResult& n : r.nodes) {
        if (!n.transientNonFinite)
            continue;
        out += "  transient NaN/Inf (no output holds it; not a failure, --strict-nonfinite fails it): made at '" + n.name +
               "'";
        for (std::size_t k = 0; k < n.absorbedAt.size() && k < 6; ++k)
            out += (k ? ", '" : ", absorbed at '") + n.absorbedAt[k] + "'";
        out += n.absorbedAt.size() > 6 ? ", ...\n" : "\n";
    }
    for (const NodeResult& n : r.nodes) {
        const bool interesting = n.status == NodeStatus::Mismatch || n.status == NodeStatus::Error || n.nanOrigin;
        if (!interesting && !allNodes)
            continue;
        out += "  " + n.name + " = " + n.target + "  [" + std::string(nodeStatusName(n.status)) + "]  " +
               fixed(n.timeUs, 1) + " us";
        for (const Mismatch& m : n.mismatches)
            out += "\n      " + std::string(mismatchKindName(m.kind)) + " of output " + std::to_string(m.output) +
                   ": recorded " + m.expected + ", actual " + m.actual;
        if (!n.error.empty())
            out += "\n      " + n.error;
        if (n.nanOrigin)
            out += "\n      NaN/Inf originates here";
        for (const OutputStats& s : n.outputs)
            if (allNodes || n.nanOrigin)
                out += "\n      " + s.meta +
                       (s.hasValues ? "  min " + fixed(s.min, 4) + " max " + fixed(s.max, 4) + " mean " + fixed(s.mean, 4) +
                                          " nan " + std::to_string(s.nanCount) + " inf " + std::to_string(s.infCount)
                                    : "");
        out += "\n";
    }
    return out;
}

}  // namespace fxray::replay
