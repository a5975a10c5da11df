#include "replay/report_format.h"

#include <algorithm>
#include <cstdio>

namespace fxray::replay {
namespace {

json::Value statsJson(const OutputStats& s)
{
    json::Value o = json::Object{};
    o["meta"] = s.meta;
    if (s.hasValues) {
        o["min"] = s.min;
        o["max"] = s.max;
        o["mean"] = s.mean;
        o["nan"] = s.nanCount;
        o["inf"] = s.infCount;
        o["numel"] = s.numel;
    }
    return o;
}

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
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
            cs.push_back(json::Object{{"output", c.output}, {"what", c.what}, {"max_abs", c.maxAbs}, {"max_rel", c.maxRel},
                                      {"atol", c.atol}, {"rtol", c.rtol}, {"mismatched", c.mismatched}, {"ok", c.ok},
                                      {"note", c.note}});
        o["comparisons"] = std::move(cs);
    }
    o["cancelled"] = r.cancelled;
    json::Value counts = json::Object{};
    for (NodeStatus s : {NodeStatus::Passed, NodeStatus::Mismatch, NodeStatus::Error, NodeStatus::Skipped,
                         NodeStatus::Unsupported, NodeStatus::NotRun})
        counts[nodeStatusName(s)] = r.count(s);
    o["counts"] = std::move(counts);
    o["first_nan_node"] = r.firstNanNode.empty() ? json::Value() : json::Value(r.firstNanNode);
    json::Value unsupported = json::Array{};
    for (const auto& u : r.unsupported)
        unsupported.push_back(u);
    o["unsupported"] = std::move(unsupported);
    json::Value notes = json::Array{};
    for (const auto& n : r.notes)
        notes.push_back(n);
    o["notes"] = std::move(notes);
    json::Value nodes = json::Array{};
    for (const NodeResult& n : r.nodes) {
        json::Value j = json::Object{};
        j["name"] = n.name;
        j["target"] = n.target;
        j["status"] = std::string(nodeStatusName(n.status));
        j["time_us"] = n.timeUs;
        if (!n.error.empty())
            j["error"] = n.error;
        if (n.nanOrigin)
            j["nan_origin"] = true;
        if (!n.mismatches.empty()) {
            json::Value ms = json::Array{};
            for (const Mismatch& m : n.mismatches)
                ms.push_back(json::Object{{"kind", std::string(mismatchKindName(m.kind))},
                                          {"output", m.output},
                                          {"expected", m.expected},
                                          {"actual", m.actual}});
            j["mismatches"] = std::move(ms);
        }
        json::Value outs = json::Array{};
        for (const OutputStats& s : n.outputs)
            outs.push_back(statsJson(s));
        j["outputs"] = std::move(outs);
        nodes.push_back(std::move(j));
    }
    o["nodes"] = std::move(nodes);
    return o;
}

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
            out += "    [" + std::to_string(c.output) + "] " + c.what + (c.ok ? "  ok" : "  DIVERGED") + "  max abs " +
                   fixed(c.maxAbs, 8) + " max rel " + fixed(c.maxRel, 8) +
                   (c.mismatched ? "  " + std::to_string(c.mismatched) + " elements outside tolerance" : "") +
                   (c.note.empty() ? "" : "  (" + c.note + ")") + "\n";
    }
    if (!r.iterationUs.empty()) {
        std::vector<double> v = r.iterationUs;
        std::sort(v.begin(), v.end());
        out += "  timed repeats: median " + fixed(v[v.size() / 2], 1) + " us over " + std::to_string(v.size()) + " runs\n";
    }
    for (const auto& note : r.notes)
        out += "  assumed " + note + "\n";
    if (!r.firstNanNode.empty())
        out += "  NaN/Inf first appears at node '" + r.firstNanNode + "'\n";
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
