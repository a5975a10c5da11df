#include "diff/diff_report.h"

#include "diff/line_diff.h"
#include "graph/algorithms.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_set>

namespace fxray::diff {
namespace {

using graph::Graph;
using graph::Node;
using graph::NodeKind;

const Node& nodeAt(const Graph& g, int i) { return g.nodes[static_cast<std::size_t>(i)]; }

std::string joinChanges(const std::vector<Change>& changes)
{
    std::string out;
    for (const Change& c : changes)
        out += (out.empty() ? "" : "; ") + c.str();
    return out;
}

// "name" or "name (A: old)" when the match renamed it.
std::string pairName(const Graph& a, const Graph& b, int i, int j)
{
    if (j < 0)
        return nodeAt(a, i).name;
    if (i < 0 || nodeAt(a, i).name == nodeAt(b, j).name)
        return nodeAt(b, j).name;
    return nodeAt(b, j).name + " (A: " + nodeAt(a, i).name + ")";
}

std::string countsLine(std::string_view what, const StatusCounts& c)
{
    std::string out = std::string(what) + ": " + std::to_string(c.same) + " same";
    if (c.changed)
        out += ", " + std::to_string(c.changed) + " changed";
    if (c.added)
        out += ", " + std::to_string(c.added) + " added";
    if (c.removed)
        out += ", " + std::to_string(c.removed) + " removed";
    return out;
}

char statusMark(Status s)
{
    switch (s) {
    case Status::Same: return ' ';
    case Status::Changed: return '~';
    case Status::Added: return '+';
    case Status::Removed: return '-';
    }
    return ' ';
}

json::Value changesJson(const std::vector<Change>& changes)
{
    json::Value out = json::Array{};
    for (const Change& c : changes) {
        json::Value v = json::Object{};
        v["field"] = std::string(fieldName(c.field));
        if (!c.where.empty())
            v["where"] = c.where;
        v["before"] = c.before;
        v["after"] = c.after;
        out.push_back(std::move(v));
    }
    return out;
}

json::Value countsJson(const StatusCounts& c)
{
    return json::Object{{"same", c.same}, {"changed", c.changed}, {"added", c.added}, {"removed", c.removed}};
}

json::Value nameOrNull(const Graph& g, int i) { return i >= 0 ? json::Value(nodeAt(g, i).name) : json::Value(); }

// The "; a = b = None" suffixes as FX's codegen writes them: after a value's last use, in the order the user
// reads its inputs (graph::recomputeFrees orders them by producer instead).
void canonicalFrees(Graph& g)
{
    std::vector<int> lastUse(g.nodes.size(), -1);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        graph::forEachNodeRef(g.nodes[i], [&](int r) { lastUse[static_cast<std::size_t>(r)] = static_cast<int>(i); });
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        Node& n = g.nodes[i];
        n.frees.clear();
        if (n.kind == NodeKind::Output)
            continue;
        graph::forEachNodeRef(n, [&](int r) {
            if (lastUse[static_cast<std::size_t>(r)] == static_cast<int>(i) &&
                std::find(n.frees.begin(), n.frees.end(), r) == n.frees.end())
                n.frees.push_back(r);
        });
    }
}

}  // namespace

std::string describeNode(const Graph& g, int index)
{
    const Node& n = nodeAt(g, index);
    std::string out = n.name;
    if (n.meta)
        out += ": \"" + graph::formatAnnotation(*n.meta) + "\"";
    if (n.kind != NodeKind::Placeholder)
        out += " = " + graph::formatNodeExpr(g, n);
    constexpr std::size_t kMax = 160;
    if (out.size() > kMax)
        out = out.substr(0, kMax - 3) + "...";
    return out;
}

std::string formatSummary(const Graph& a, const Graph& b, const DiffResult& r, const DiffLabels& labels)
{
    std::string out;
    const auto header = [&](char mark, const std::string& label, const Graph& g) {
        out += std::string(1, mark) + " " + label + "  (" + std::to_string(g.nodes.size()) + " nodes, " +
               std::to_string(g.placeholders().size()) + " inputs, " + std::to_string(g.opCount()) + " ops)\n";
    };
    header('A', labels.a, a);
    header('B', labels.b, b);
    out += countsLine("ops", r.ops) + "; " + countsLine("inputs", r.inputCounts) + "; " + countsLine("outputs", r.outputCounts) + "\n";
    for (const NodeDiff& d : r.nodes) {
        if (!isOpDifference(d, a, b))
            continue;
        out += "  ";
        out += statusMark(d.status);
        out += ' ';
        if (d.status == Status::Added)
            out += describeNode(b, d.b);
        else if (d.status == Status::Removed)
            out += describeNode(a, d.a);
        else
            out += pairName(a, b, d.a, d.b) + ": " + joinChanges(d.changes);
        out += "\n";
    }
    const auto ports = [&](std::string_view title, const std::vector<PortDiff>& list, bool inputs) {
        std::string lines;
        for (const PortDiff& p : list) {
            if (p.status == Status::Same)
                continue;
            lines += "  ";
            lines += statusMark(p.status);
            // Positions are B's; a removed input or output says where it was in A.
            const std::string what = inputs ? "input " : "output ";
            if (p.status == Status::Removed)
                lines += " " + what + std::to_string(p.aPosition) + " of A: " +
                         (inputs ? describeNode(a, p.a) : p.changes.front().before);
            else if (p.status == Status::Added)
                lines += " " + what + std::to_string(p.bPosition) + ": " + (inputs ? describeNode(b, p.b) : p.changes.front().after);
            else if (inputs)
                lines += " " + what + std::to_string(p.bPosition) + " " + pairName(a, b, p.a, p.b) + ": " + joinChanges(p.changes);
            else
                lines += " " + joinChanges(p.changes);
            lines += "\n";
        }
        if (!lines.empty())
            out += std::string(title) + ":\n" + lines;
    };
    ports("inputs", r.inputs, true);
    ports("outputs", r.outputs, false);
    for (const std::string& note : r.notes)
        out += "  ! " + note + "\n";
    for (const std::string& w : r.warnings)
        out += "  warning: " + w + "\n";
    const int n = r.differenceCount();
    out += n == 0 ? "the graphs are equal (up to renaming and reordering)\n" : std::to_string(n) + " difference(s)\n";
    return out;
}

json::Value toJson(const Graph& a, const Graph& b, const DiffResult& r, const DiffLabels& labels)
{
    json::Value out = json::Object{};
    out["a"] = labels.a;
    out["b"] = labels.b;
    out["equal"] = r.equal();
    out["differences"] = r.differenceCount();
    out["counts"] = json::Object{
        {"ops", countsJson(r.ops)}, {"inputs", countsJson(r.inputCounts)}, {"outputs", countsJson(r.outputCounts)}};
    json::Value nodes = json::Array{};
    std::map<std::string, int> reasons;
    for (const NodeDiff& d : r.nodes) {
        if (d.a >= 0 && d.b >= 0)
            ++reasons[std::string(matchReasonName(d.reason))];
        if (!isOpDifference(d, a, b))
            continue;
        const Node& n = d.b >= 0 ? nodeAt(b, d.b) : nodeAt(a, d.a);
        json::Value v = json::Object{};
        v["status"] = std::string(statusName(d.status));
        v["a"] = nameOrNull(a, d.a);
        v["b"] = nameOrNull(b, d.b);
        v["kind"] = std::string(graph::nodeKindName(n.kind));
        v["target"] = n.kind == NodeKind::GetAttr ? n.attr : n.target.str();
        if (d.status == Status::Changed)
            v["match"] = std::string(matchReasonName(d.reason));
        else
            v["code"] = d.b >= 0 ? describeNode(b, d.b) : describeNode(a, d.a);
        v["changes"] = changesJson(d.changes);
        nodes.push_back(std::move(v));
    }
    out["nodes"] = std::move(nodes);
    const auto ports = [&](const std::vector<PortDiff>& list) {
        json::Value arr = json::Array{};
        for (const PortDiff& p : list) {
            if (p.status == Status::Same)
                continue;
            json::Value v = json::Object{};
            v["status"] = std::string(statusName(p.status));
            v["a_position"] = p.aPosition >= 0 ? json::Value(p.aPosition) : json::Value();
            v["b_position"] = p.bPosition >= 0 ? json::Value(p.bPosition) : json::Value();
            v["a"] = nameOrNull(a, p.a);
            v["b"] = nameOrNull(b, p.b);
            v["changes"] = changesJson(p.changes);
            arr.push_back(std::move(v));
        }
        return arr;
    };
    out["inputs"] = ports(r.inputs);
    out["outputs"] = ports(r.outputs);
    json::Value notes = json::Array{};
    for (const std::string& note : r.notes)
        notes.push_back(note);
    out["notes"] = std::move(notes);
    json::Value warnings = json::Array{};
    for (const std::string& w : r.warnings)
        warnings.push_back(w);
    out["warnings"] = std::move(warnings);
    json::Value matched = json::Object{};
    for (const auto& [reason, count] : reasons)
        matched[reason] = count;
    out["matched_by"] = std::move(matched);
    return out;
}

Graph alignToA(const Graph& a, const Graph& b, const DiffResult& r)
{
    const std::size_t n = b.nodes.size();
    // Order: B's inputs first as they are (the signature is part of what is compared), then A's order, an added node
    // right after the matched node that precedes it in B. Kahn's algorithm keeps it topological.
    constexpr int kLast = std::numeric_limits<int>::max();
    using Key = std::tuple<int, int, int>;
    std::vector<Key> keys(n);
    int lastA = -1;
    for (std::size_t j = 0; j < n; ++j) {
        const Node& node = b.nodes[j];
        const int i = r.bToA[j];
        if (node.kind == NodeKind::Placeholder)
            keys[j] = {-1, 0, static_cast<int>(j)};
        else if (node.kind == NodeKind::Output)
            keys[j] = {kLast, 0, static_cast<int>(j)};
        else if (i >= 0)
            keys[j] = {lastA = i, 0, static_cast<int>(j)};
        else
            keys[j] = {lastA, 1, static_cast<int>(j)};
    }
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (std::size_t j = 0; j < n; ++j)
        graph::forEachNodeRef(b.nodes[j], [&](int p) {
            users[static_cast<std::size_t>(p)].push_back(static_cast<int>(j));
            ++pending[j];
        });
    std::priority_queue<std::pair<Key, int>, std::vector<std::pair<Key, int>>, std::greater<>> ready;
    for (std::size_t j = 0; j < n; ++j)
        if (pending[j] == 0)
            ready.emplace(keys[j], static_cast<int>(j));
    std::vector<int> order, position(n, -1);
    while (!ready.empty()) {
        const int j = ready.top().second;
        ready.pop();
        position[static_cast<std::size_t>(j)] = static_cast<int>(order.size());
        order.push_back(j);
        for (const int u : users[static_cast<std::size_t>(j)])
            if (--pending[static_cast<std::size_t>(u)] == 0)
                ready.emplace(keys[static_cast<std::size_t>(u)], u);
    }
    if (order.size() != n)
        return b;  // B has a cycle: diffGraphs would have refused it already

    // Names: matched nodes take A's; added nodes keep theirs unless that is now taken.
    std::unordered_set<std::string> taken;
    for (std::size_t j = 0; j < n; ++j)
        if (r.bToA[j] >= 0)
            taken.insert(nodeAt(a, r.bToA[j]).name);
    Graph out = b;
    out.nodes.clear();
    bool reordered = false;
    const std::function<void(graph::Arg&)> remap = [&](graph::Arg& arg) {
        if (arg.kind == graph::Arg::Kind::Node)
            arg.node = position[static_cast<std::size_t>(arg.node)];
        for (graph::Arg& item : arg.items)
            remap(item);
    };
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t j = static_cast<std::size_t>(order[k]);
        reordered = reordered || j != k;
        Node node = b.nodes[j];
        if (const int i = r.bToA[j]; i >= 0) {
            node.name = nodeAt(a, i).name;
            if (node.kind == NodeKind::Placeholder)
                node.attr = nodeAt(a, i).attr;
        } else if (node.kind != NodeKind::Output) {
            const std::string base = node.name;
            for (int suffix = 1; !taken.insert(node.name).second; ++suffix)
                node.name = base + "_new" + (suffix > 1 ? std::to_string(suffix) : "");
            if (node.kind == NodeKind::Placeholder)
                node.attr = node.name;
        }
        for (graph::Arg& arg : node.args)
            remap(arg);
        for (auto& kv : node.kwargs)
            remap(kv.second);
        for (int& f : node.frees)
            f = position[static_cast<std::size_t>(f)];
        out.nodes.push_back(std::move(node));
    }
    if (reordered)
        canonicalFrees(out);
    return out;
}

std::string unifiedCodeDiff(const Graph& a, const Graph& b, const DiffResult& r, const DiffLabels& labels, int context)
{
    // Both sides get the frees FX itself would print, so a reordering does not show up in "; x = y = None" suffixes.
    Graph left = a;
    canonicalFrees(left);
    Graph right = alignToA(a, b, r);
    canonicalFrees(right);
    return unifiedDiff(graph::printReadable(left), graph::printReadable(right), "a: " + labels.a,
                       "b: " + labels.b + " (names and order aligned to a)", context);
}

}  // namespace fxray::diff
