#include "graph/collective_check.h"

#include <algorithm>
#include <set>

namespace fxray::graph {
namespace {

bool isReducing(const std::string& op)
{
    return op.find("reduce") != std::string::npos;
}

std::string tensorText(const Graph& g, const Arg& a)
{
    if (a.kind == Arg::Kind::Node && a.node >= 0 && a.node < static_cast<int>(g.nodes.size())) {
        const auto& meta = g.nodes[static_cast<std::size_t>(a.node)].meta;
        if (!meta || !meta->isTensor())
            return "?";
        std::string s(dtypeAbbrev(meta->tensor.dtype));
        s += '[';
        for (std::size_t k = 0; k < meta->tensor.sizes.size(); ++k)
            s += (k ? ", " : "") + meta->tensor.sizes[k].expr;
        return s + ']';
    }
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        std::string s = "(";
        for (std::size_t k = 0; k < a.items.size(); ++k)
            s += (k ? ", " : "") + tensorText(g, a.items[k]);
        return s + ")";
    }
    return "?";
}

// The legacy c10d_functional form names its group by the ranks in it.
std::vector<int> intList(const Arg& a)
{
    std::vector<int> out;
    for (const Arg& item : a.items) {
        if (item.kind != Arg::Kind::Int)
            return {};
        out.push_back(static_cast<int>(item.i));
    }
    return out;
}

std::string ranksText(const std::vector<int>& ranks)
{
    std::string s = "ranks[";
    for (std::size_t k = 0; k < ranks.size(); ++k)
        s += (k ? ", " : "") + std::to_string(ranks[k]);
    return s + "]";
}

const Arg* kwarg(const Node& n, const std::string& name)
{
    for (const auto& [k, v] : n.kwargs)
        if (k == name)
            return &v;
    return nullptr;
}

CollectiveCall callOf(const Graph& g, const Node& n, const std::string& label)
{
    CollectiveCall c;
    c.op = n.target.op;
    c.node = n.name;
    c.graph = label;
    c.compareShape = c.op.find("all_to_all") == std::string::npos;
    if (!n.args.empty())
        c.input = tensorText(g, n.args[0]);
    std::vector<std::string> strings;
    // Gathers and scatters pass their group's size (broadcast's int is its source rank, not a size).
    const bool sized = c.op.find("all_gather") != std::string::npos || c.op.find("reduce_scatter") != std::string::npos ||
                       n.target.ns == "c10d_functional";
    for (std::size_t k = 1; k < n.args.size(); ++k) {
        if (n.args[k].kind == Arg::Kind::Int && sized)
            c.groupSize = static_cast<int>(n.args[k].i);
        if (n.args[k].kind == Arg::Kind::String)
            strings.push_back(n.args[k].s);
        else if (n.args[k].kind == Arg::Kind::List && n.target.ns == "c10d_functional" && c.ranks.empty())
            c.ranks = intList(n.args[k]);
    }
    for (const char* name : {"reduce_op", "reduceOp"})
        if (const Arg* a = kwarg(n, name); a && a->kind == Arg::Kind::String)
            strings.insert(strings.begin(), a->s);
    if (n.target.ns == "c10d_functional") {
        if (const Arg* a = kwarg(n, "ranks"))
            c.ranks = intList(*a);
        c.group = ranksText(c.ranks);
        if (isReducing(c.op) && !strings.empty())
            c.reduceOp = strings.front();
        return c;
    }
    // _c10d_functional(_autograd): the group name is the last string argument, the reduce op the first.
    if (const Arg* a = kwarg(n, "group_name"); a && a->kind == Arg::Kind::String)
        strings.push_back(a->s);
    if (!strings.empty())
        c.group = strings.back();
    if (isReducing(c.op) && strings.size() >= 2)
        c.reduceOp = strings.front();
    return c;
}

using CallsByRank = std::map<int, std::map<std::string, std::vector<CollectiveCall>>>;

// The first thing that would hang or mispair group `name`: a call size that contradicts its members, a rank that
// calls it without being in it, else the first call where a member differs from the lowest member. "" if none.
// The group's first problem, named; `involved` gets the calls it names (each with its rank).
std::string groupProblem(const std::string& name, const std::vector<int>& members, bool assumed, const CallsByRank& calls,
                         std::vector<std::pair<int, CollectiveCall>>& involved)
{
    std::string sizeProblem, outsider;
    std::vector<std::pair<int, CollectiveCall>> sizeCalls, outsiderCalls;
    for (const auto& [rank, byGroup] : calls) {
        auto g = byGroup.find(name);
        if (g == byGroup.end())
            continue;
        if (outsider.empty() && std::find(members.begin(), members.end(), rank) == members.end()) {
            outsiderCalls = {{rank, g->second.front()}};
            outsider = "group '" + name + "': rank " + std::to_string(rank) + " calls " + g->second.front().describe() + " in " +
                       g->second.front().graph + " but is not a member of it";
        }
        for (const CollectiveCall& c : g->second)
            if (sizeProblem.empty() && c.groupSize > 0 && c.groupSize != static_cast<int>(members.size())) {
                sizeCalls = {{rank, c}};
                sizeProblem = "group '" + name + "': rank " + std::to_string(rank) + "'s " + c.describe() + " in " + c.graph +
                              " says the group has " + std::to_string(c.groupSize) + " ranks, but " +
                              (assumed ? "it was taken as every rank of the job (" : "--group gives it ") +
                              std::to_string(members.size()) + (assumed ? ")" : "") + ": name its members with --group " +
                              name + "=RANKS";
            }
    }
    if (!sizeProblem.empty() || !outsider.empty()) {
        involved = !sizeProblem.empty() ? sizeCalls : outsiderCalls;
        return !sizeProblem.empty() ? sizeProblem : outsider;
    }
    if (members.empty())
        return {};
    const std::vector<CollectiveCall> none;
    auto seq = [&](int rank) -> const std::vector<CollectiveCall>& {
        auto r = calls.find(rank);
        if (r == calls.end())
            return none;
        auto g = r->second.find(name);
        return g == r->second.end() ? none : g->second;
    };
    const int ref = members.front();
    const auto& a = seq(ref);
    for (std::size_t m = 1; m < members.size(); ++m) {
        const int rank = members[m];
        const auto& b = seq(rank);
        const std::size_t common = std::min(a.size(), b.size());
        std::size_t k = 0;
        while (k < common && a[k].matches(b[k]))
            ++k;
        const std::string at = "group '" + name + "', collective #" + std::to_string(k + 1) + ": ";
        if (k < common)
            involved = {{rank, b[k]}, {ref, a[k]}};
        else if (a.size() > b.size())
            involved = {{ref, a[k]}};
        else if (b.size() > a.size())
            involved = {{rank, b[k]}};
        if (k < common)
            return at + "rank " + std::to_string(rank) + " calls " + b[k].describe() + " in " + b[k].graph + " where rank " +
                   std::to_string(ref) + " calls " + a[k].describe() + " in " + a[k].graph;
        if (a.size() > b.size())
            return at + "rank " + std::to_string(ref) + " calls " + a[k].describe() + " in " + a[k].graph + " but rank " +
                   std::to_string(rank) + " makes only " + std::to_string(b.size()) + " call(s) on this group";
        if (b.size() > a.size())
            return at + "rank " + std::to_string(rank) + " calls " + b[k].describe() + " in " + b[k].graph + " but rank " +
                   std::to_string(ref) + " makes only " + std::to_string(a.size()) + " call(s) on this group";
    }
    return {};
}

}  // namespace

std::string CollectiveCall::describe() const
{
    std::string s = op;
    if (!reduceOp.empty())
        s += " " + reduceOp;
    return s + " " + input + " on group '" + group + "' (node " + node + ")";
}

bool CollectiveCall::matches(const CollectiveCall& o) const
{
    if (op != o.op || group != o.group || reduceOp != o.reduceOp)
        return false;
    if (compareShape)
        return input == o.input;
    // Shapes may differ (uneven splits); the dtype may not.
    auto dtypeOf = [](const std::string& s) { return s.substr(0, s.find('[')); };
    return dtypeOf(input) == dtypeOf(o.input);
}

bool isCollectiveNamespace(const std::string& ns)
{
    return ns == "_c10d_functional" || ns == "_c10d_functional_autograd" || ns == "c10d_functional";
}

std::vector<CollectiveCall> collectiveCalls(const Graph& g, const std::string& label)
{
    std::vector<CollectiveCall> out;
    for (const Node& n : g.nodes) {
        if (n.kind != NodeKind::CallFunction || n.target.kind != Target::Kind::Op || !isCollectiveNamespace(n.target.ns))
            continue;
        if (n.target.op == "wait_tensor")
            continue;
        out.push_back(callOf(g, n, label));
    }
    return out;
}

std::string waitedCollective(const Graph& g, int nodeIndex)
{
    if (nodeIndex < 0 || nodeIndex >= static_cast<int>(g.nodes.size()))
        return {};
    const Node& n = g.nodes[static_cast<std::size_t>(nodeIndex)];
    if (!n.isOp() || !isCollectiveNamespace(n.target.ns) || n.target.op != "wait_tensor" || n.args.empty())
        return {};
    // wait_tensor(getitem(coalesced, i)) waits on the coalesced call.
    int at = n.args[0].kind == Arg::Kind::Node ? n.args[0].node : -1;
    for (int hops = 0; hops < 2 && at >= 0 && at < static_cast<int>(g.nodes.size()); ++hops) {
        const Node& m = g.nodes[static_cast<std::size_t>(at)];
        if (m.isOp() && isCollectiveNamespace(m.target.ns))
            return m.name;
        at = m.target.kind == Target::Kind::Getitem && !m.args.empty() && m.args[0].kind == Arg::Kind::Node ? m.args[0].node : -1;
    }
    return {};
}

CollectiveCheck checkCollectives(const std::vector<RankGraphs>& ranks, const std::map<std::string, std::vector<int>>& membership)
{
    CollectiveCheck out;
    std::vector<int> everyRank;
    for (const RankGraphs& r : ranks)
        everyRank.push_back(r.rank);
    std::sort(everyRank.begin(), everyRank.end());

    // Per rank, per group: the calls in run order.
    CallsByRank calls;
    for (const RankGraphs& r : ranks) {
        calls[r.rank];  // a rank with no call at all still takes part in every group's comparison
        out.callsPerRank[r.rank] += 0;
        for (const auto& [label, graph] : r.graphs)
            for (CollectiveCall& c : collectiveCalls(*graph, label)) {
                ++out.callsPerRank[r.rank];
                if (!c.ranks.empty() && !out.groups.contains(c.group))
                    out.groups[c.group] = c.ranks;
                calls[r.rank][c.group].push_back(std::move(c));
            }
    }
    std::set<std::string> names;
    for (const auto& [rank, byGroup] : calls)
        for (const auto& [group, list] : byGroup)
            names.insert(group);
    for (const std::string& name : names) {
        if (auto it = membership.find(name); it != membership.end()) {
            out.groups[name] = it->second;
        } else if (!out.groups.contains(name)) {
            out.groups[name] = everyRank;
            if (name != "0")  // "0" is torch's name for the world group
                out.notes.push_back("group '" + name + "': membership not recorded; taken as every rank");
        }
    }
    for (const auto& [name, members] : out.groups) {
        const bool assumed = !membership.contains(name) && name.rfind("ranks[", 0) != 0;  // legacy calls name theirs
        std::vector<std::pair<int, CollectiveCall>> involved;
        std::string why = groupProblem(name, members, assumed, calls, involved);
        if (!why.empty()) {
            out.mismatches.push_back(std::move(why));
            out.mismatchCalls.push_back(std::move(involved));
        }
    }
    return out;
}

}  // namespace fxray::graph
