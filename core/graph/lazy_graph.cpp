#include "graph/lazy_graph.h"

#include "graph/algorithms.h"
#include "graph/node_namer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <queue>

namespace fxray::graph {
namespace {

constexpr int kMaxListDepth = 16;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// An attribute value as LTC prints it: 1, -0.5, null, true, (1, 2), [1, 2]; anything else stays text.
Arg attributeValue(std::string_view v, int depth)
{
    v = trim(v);
    if (v == "null")
        return Arg::none();
    if (v == "true" || v == "false")
        return Arg::ofBool(v == "true");
    std::int64_t i = 0;
    auto [ip, iec] = std::from_chars(v.data(), v.data() + v.size(), i);
    if (!v.empty() && iec == std::errc() && ip == v.data() + v.size())
        return Arg::ofInt(i);
    double f = 0;
    auto [fp, fec] = std::from_chars(v.data(), v.data() + v.size(), f);
    if (!v.empty() && fec == std::errc() && fp == v.data() + v.size())
        return Arg::ofFloat(f);
    if (v.size() >= 2 && depth < kMaxListDepth && ((v.front() == '(' && v.back() == ')') || (v.front() == '[' && v.back() == ']'))) {
        std::vector<Arg> items;
        int level = 0;
        std::size_t start = 1;
        bool balanced = true;
        for (std::size_t k = 1; k + 1 < v.size() && balanced; ++k) {
            const char c = v[k];
            level += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
            balanced = level >= 0;
            if (c == ',' && level == 0) {
                items.push_back(attributeValue(v.substr(start, k - start), depth + 1));
                start = k + 1;
            }
        }
        if (balanced && level == 0) {
            if (!trim(v.substr(start, v.size() - 1 - start)).empty())
                items.push_back(attributeValue(v.substr(start, v.size() - 1 - start), depth + 1));
            return Arg::ofList(std::move(items), v.front() == '[' ? Arg::Kind::List : Arg::Kind::Tuple);
        }
    }
    return Arg::ofString(std::string(v));
}

bool dropped(const LazyNode& n, const std::string& key)
{
    return key == "NodeType" || key == "ROOT" || key == "num_outputs" ||
           (n.op == "lazy_tensors::device_data" && key == "device");
}

}  // namespace

Graph buildLazyGraph(std::vector<LazyNode> nodes, const std::string& fileName)
{
    auto fail = [&](const std::string& msg, int line) -> void { throw Error(msg, SourceLocation{fileName, line, 0, {}}); };
    std::map<int, std::size_t> byId;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        auto [it, fresh] = byId.emplace(nodes[k].id, k);
        if (!fresh)
            fail("node " + std::to_string(nodes[k].id) + " is defined twice (first on line " +
                     std::to_string(nodes[it->second].line) + ")",
                 nodes[k].line);
    }
    // Topological order, smallest id first among ready nodes (LTC numbers nodes in post order: usually as listed).
    std::vector<std::vector<std::size_t>> users(nodes.size());
    std::vector<int> pending(nodes.size(), 0);
    for (std::size_t k = 0; k < nodes.size(); ++k)
        for (const LazyOperand& o : nodes[k].operands) {
            auto it = byId.find(o.node);
            if (it == byId.end())
                fail("operand %" + std::to_string(o.node) + " of node " + std::to_string(nodes[k].id) + " is not defined",
                     nodes[k].line);
            const LazyNode& producer = nodes[it->second];
            if (o.output < 0 || o.output >= producer.outputs)
                fail("operand %" + std::to_string(o.node) + "." + std::to_string(o.output) + ": node " +
                         std::to_string(o.node) + " has " + std::to_string(producer.outputs) + " output(s)",
                     nodes[k].line);
            users[it->second].push_back(k);
            ++pending[k];
        }
    std::priority_queue<std::pair<int, std::size_t>, std::vector<std::pair<int, std::size_t>>, std::greater<>> ready;
    for (std::size_t k = 0; k < nodes.size(); ++k)
        if (pending[k] == 0)
            ready.emplace(nodes[k].id, k);
    std::vector<std::size_t> order;
    while (!ready.empty()) {
        const std::size_t k = ready.top().second;
        ready.pop();
        order.push_back(k);
        for (std::size_t u : users[k])
            if (--pending[u] == 0)
                ready.emplace(nodes[u].id, u);
    }
    if (order.size() != nodes.size())
        for (std::size_t k = 0; k < nodes.size(); ++k)
            if (pending[k] > 0)
                fail("node " + std::to_string(nodes[k].id) + " is on a cycle of operands", nodes[k].line);

    Graph g;
    g.sourceFile = fileName;
    g.className = "GraphModule";
    NodeNamer namer;
    // values[k][j]: graph node holding output j of nodes[k]
    std::vector<std::vector<int>> values(nodes.size());
    int inputs = 0;
    // Placeholders first, in node order, so the signature lists them as the backend's p0, p1, ...
    for (std::size_t k : order) {
        const LazyNode& n = nodes[k];
        if (n.op != "lazy_tensors::device_data")
            continue;
        if (!n.operands.empty() || n.outputs != 1)
            fail("lazy_tensors::device_data with operands or several outputs", n.line);
        Node p;
        p.kind = NodeKind::Placeholder;
        p.name = namer.unique("p" + std::to_string(inputs++));
        p.attr = p.name;
        if (!n.shapes.empty())
            p.meta = n.shapes[0];
        p.line = n.line;
        g.nodes.push_back(std::move(p));
        values[k] = {static_cast<int>(g.nodes.size() - 1)};
    }
    for (std::size_t k : order) {
        const LazyNode& n = nodes[k];
        if (n.op == "lazy_tensors::device_data")
            continue;
        const std::size_t sep = n.op.find("::");
        std::string ns = sep == std::string::npos ? std::string() : n.op.substr(0, sep);
        std::string op = sep == std::string::npos ? std::string() : n.op.substr(sep + 2);
        std::string overload;
        if (const std::size_t dot = op.find('.'); dot != std::string::npos) {
            overload = op.substr(dot + 1);
            op.resize(dot);
        }
        if (!isIdentifier(ns) || !isIdentifier(op) || !(overload.empty() || isIdentifier(overload)))
            fail("bad operator name '" + n.op + "' (expected ns::op)", n.line);
        Node c;
        c.kind = NodeKind::CallFunction;
        c.target = Target{Target::Kind::Op, ns, op, overload};
        c.name = namer.unique(op);
        c.line = n.line;
        for (const LazyOperand& o : n.operands)
            c.args.push_back(Arg::ofNode(values[byId.at(o.node)][static_cast<std::size_t>(o.output)]));
        for (const auto& [key, v] : n.attributes) {
            if (dropped(n, key))
                continue;
            if (!isIdentifier(key))
                fail("bad attribute name '" + key.substr(0, 40) + "'", n.line);
            c.kwargs.emplace_back(key, attributeValue(v, 0));
        }
        if (n.outputs == 1 && !n.shapes.empty())
            c.meta = n.shapes[0];
        g.nodes.push_back(std::move(c));
        const int index = static_cast<int>(g.nodes.size() - 1);
        if (n.outputs == 1) {
            values[k] = {index};
            continue;
        }
        for (int j = 0; j < n.outputs; ++j) {
            Node item;
            item.kind = NodeKind::CallFunction;
            item.target.kind = Target::Kind::Getitem;
            item.name = namer.unique("getitem");
            item.args = {Arg::ofNode(index), Arg::ofInt(j)};
            if (static_cast<std::size_t>(j) < n.shapes.size())
                item.meta = n.shapes[static_cast<std::size_t>(j)];
            item.line = n.line;
            g.nodes.push_back(std::move(item));
            values[k].push_back(static_cast<int>(g.nodes.size() - 1));
        }
    }
    // Outputs: the ROOT nodes in ROOT order; without any ROOT mark, every node nobody uses.
    std::vector<std::pair<int, std::size_t>> roots;
    for (std::size_t k = 0; k < nodes.size(); ++k)
        if (nodes[k].root >= 0)
            roots.emplace_back(nodes[k].root, k);
    if (roots.empty())
        for (std::size_t k : order)
            if (users[k].empty())
                roots.emplace_back(static_cast<int>(roots.size()), k);
    std::sort(roots.begin(), roots.end());
    std::vector<Arg> outs;
    for (const auto& [rootIndex, k] : roots)
        for (int v : values[k])
            outs.push_back(Arg::ofNode(v));
    Node out;
    out.kind = NodeKind::Output;
    out.name = g.freeOutputName();
    Arg v = outs.size() == 1 ? std::move(outs[0]) : Arg::ofList(std::move(outs), Arg::Kind::Tuple);
    g.outputForm = v.kind == Arg::Kind::Tuple ? OutputForm::Tuple : OutputForm::Single;
    out.args.push_back(std::move(v));
    g.nodes.push_back(std::move(out));
    recomputeFrees(g);
    return g;
}

}  // namespace fxray::graph
