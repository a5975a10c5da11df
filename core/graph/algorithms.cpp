#include "graph/algorithms.h"

#include "base/error.h"
#include "graph/printer.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

namespace fxray::graph {
namespace {

// 64-bit FNV-1a + a final avalanche: stable across runs and platforms (std::hash is not).
struct Hasher {
    std::uint64_t h = 1469598103934665603ull;
    void bytes(const void* data, std::size_t n)
    {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t k = 0; k < n; ++k) {
            h ^= p[k];
            h *= 1099511628211ull;
        }
    }
    void str(std::string_view s)
    {
        u64(s.size());
        bytes(s.data(), s.size());
    }
    void u64(std::uint64_t v) { bytes(&v, sizeof v); }
    std::uint64_t done() const
    {
        std::uint64_t x = h;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ull;
        return x ^ (x >> 33);
    }
};

void hashArg(Hasher& h, const Arg& a, const std::vector<std::uint64_t>& nodeHashes)
{
    h.u64(static_cast<std::uint64_t>(a.kind));
    switch (a.kind) {
    case Arg::Kind::Node: h.u64(nodeHashes[static_cast<std::size_t>(a.node)]); break;
    case Arg::Kind::List:
    case Arg::Kind::Tuple:
    case Arg::Kind::Slice:
    case Arg::Kind::Dict:
        h.u64(a.items.size());
        for (const Arg& i : a.items)
            hashArg(h, i, nodeHashes);
        break;
    default: h.str(formatArg(Graph{}, a)); break;  // literal text is canonical (and nan-safe)
    }
}

bool hasSideEffects(const Node& n)
{
    if (n.kind != NodeKind::CallFunction && n.kind != NodeKind::CallMethod)
        return n.kind != NodeKind::GetAttr;  // placeholders and output stay
    const std::string& op = n.target.op;
    if (!op.empty() && op.back() == '_')
        return true;  // in-place ops (add_, copy_, ...)
    static const std::unordered_set<std::string> kImpure = {
        "copy", "set_", "resize_", "_assert_async", "_assert_scalar", "_print", "sym_constrain_range",
        "sym_constrain_range_for_size", "_assert_tensor_metadata", "record_stream", "_local_scalar_dense",
    };
    if (kImpure.count(op) || n.target.ns == "_c10d_functional" || n.target.ns == "c10d_functional")
        return true;
    return n.target.kind == Target::Kind::Python && (op == "torch._assert" || op == "print");
}

}  // namespace

std::uint64_t structuralHash(const Graph& g)
{
    // Merkle hash: each node's hash covers its target, literal args, metadata and its inputs' hashes,
    // so renaming and reordering of independent nodes do not change it.
    std::vector<std::uint64_t> nodeHashes(g.nodes.size());
    std::size_t placeholder = 0;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        Hasher h;
        h.u64(static_cast<std::uint64_t>(n.kind));
        if (n.kind == NodeKind::Placeholder)
            h.u64(placeholder++);
        if (n.kind == NodeKind::GetAttr)
            h.str(n.attr);
        h.str(n.target.str());
        h.u64(n.args.size());
        for (const Arg& a : n.args)
            hashArg(h, a, nodeHashes);
        for (const auto& [k, v] : n.kwargs) {
            h.str(k);
            hashArg(h, v, nodeHashes);
        }
        h.str(n.meta ? formatAnnotation(*n.meta) : "");
        nodeHashes[i] = h.done();
    }
    std::vector<std::uint64_t> sorted = nodeHashes;
    std::sort(sorted.begin(), sorted.end());
    Hasher h;
    for (std::uint64_t v : sorted)
        h.u64(v);
    int out = g.outputNode();
    h.u64(out >= 0 ? nodeHashes[static_cast<std::size_t>(out)] : 0);
    h.u64(static_cast<std::uint64_t>(g.outputForm));
    for (const auto& [name, sub] : g.subgraphs) {
        h.str(name);
        h.u64(structuralHash(sub));
    }
    return h.done();
}

std::vector<std::vector<int>> computeUsers(const Graph& g)
{
    std::vector<std::vector<int>> users(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        forEachNodeRef(g.nodes[i], [&](int ref) {
            auto& u = users[static_cast<std::size_t>(ref)];
            if (u.empty() || u.back() != static_cast<int>(i))
                u.push_back(static_cast<int>(i));
        });
    }
    return users;
}

std::vector<int> topologicalOrder(const Graph& g)
{
    // Kahn's algorithm, preferring program order among ready nodes so an already ordered graph is unchanged.
    const std::size_t n = g.nodes.size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::unordered_set<int> seen;
        forEachNodeRef(g.nodes[i], [&](int ref) {
            if (ref < 0 || static_cast<std::size_t>(ref) >= n)
                throw Error("reference to a node that does not exist", SourceLocation{g.sourceFile, g.nodes[i].line, 0, g.nodes[i].name});
            if (seen.insert(ref).second) {
                ++pending[i];
                users[static_cast<std::size_t>(ref)].push_back(static_cast<int>(i));
            }
        });
    }
    std::vector<int> order;
    std::vector<int> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (pending[i] == 0)
            ready.push_back(static_cast<int>(i));
    std::make_heap(ready.begin(), ready.end(), std::greater<>());
    while (!ready.empty()) {
        std::pop_heap(ready.begin(), ready.end(), std::greater<>());
        int v = ready.back();
        ready.pop_back();
        order.push_back(v);
        for (int u : users[static_cast<std::size_t>(v)]) {
            if (--pending[static_cast<std::size_t>(u)] == 0) {
                ready.push_back(u);
                std::push_heap(ready.begin(), ready.end(), std::greater<>());
            }
        }
    }
    if (order.size() != n) {
        for (std::size_t i = 0; i < n; ++i)
            if (pending[i] > 0)
                throw Error("the graph has a cycle", SourceLocation{g.sourceFile, g.nodes[i].line, 0, g.nodes[i].name});
    }
    return order;
}

void recomputeFrees(Graph& g)
{
    for (Node& n : g.nodes)
        n.frees.clear();
    std::vector<int> lastUse(g.nodes.size(), -1);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        forEachNodeRef(g.nodes[i], [&](int ref) { lastUse[static_cast<std::size_t>(ref)] = static_cast<int>(i); });
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
        int last = lastUse[v];
        if (last >= 0 && g.nodes[static_cast<std::size_t>(last)].kind != NodeKind::Output)
            g.nodes[static_cast<std::size_t>(last)].frees.push_back(static_cast<int>(v));
    }
}

Graph removeNodes(const Graph& g, const std::vector<int>& removed)
{
    std::vector<bool> drop(g.nodes.size(), false);
    for (int r : removed)
        drop[static_cast<std::size_t>(r)] = true;
    std::vector<int> remap(g.nodes.size(), -1);
    Graph out = g;
    out.nodes.clear();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (drop[i])
            continue;
        remap[i] = static_cast<int>(out.nodes.size());
        out.nodes.push_back(g.nodes[i]);
    }
    std::function<void(Arg&, const Node&)> fix = [&](Arg& a, const Node& owner) {
        if (a.kind == Arg::Kind::Node) {
            int m = remap[static_cast<std::size_t>(a.node)];
            if (m < 0)
                throw Error("node still uses removed node '" + g.nodes[static_cast<std::size_t>(a.node)].name + "'",
                            SourceLocation{g.sourceFile, owner.line, 0, owner.name});
            a.node = m;
        }
        for (Arg& item : a.items)
            fix(item, owner);
    };
    for (Node& n : out.nodes) {
        for (Arg& a : n.args)
            fix(a, n);
        for (auto& kv : n.kwargs)
            fix(kv.second, n);
        std::vector<int> frees;
        for (int f : n.frees)
            if (remap[static_cast<std::size_t>(f)] >= 0)
                frees.push_back(remap[static_cast<std::size_t>(f)]);
        n.frees = std::move(frees);
    }
    return out;
}

int eliminateDeadCode(Graph& g)
{
    // Walk backwards: a node is live if it has side effects or a live user.
    std::vector<bool> live(g.nodes.size(), false);
    for (std::size_t i = g.nodes.size(); i-- > 0;) {
        const Node& n = g.nodes[i];
        if (hasSideEffects(n))
            live[i] = true;
        if (live[i])
            forEachNodeRef(n, [&](int ref) { live[static_cast<std::size_t>(ref)] = true; });
    }
    std::vector<int> dead;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (!live[i])
            dead.push_back(static_cast<int>(i));
    if (!dead.empty()) {
        g = removeNodes(g, dead);
        recomputeFrees(g);
    }
    return static_cast<int>(dead.size());
}

Graph extractSubgraph(const Graph& g, const std::vector<int>& keep, const std::vector<int>& outputs)
{
    std::vector<bool> kept(g.nodes.size(), false);
    for (int k : keep)
        kept[static_cast<std::size_t>(k)] = true;
    Graph out;
    out.className = g.className;
    out.sourceFile = g.sourceFile;
    out.stacks = g.stacks;
    out.outputForm = OutputForm::Tuple;
    std::vector<int> remap(g.nodes.size(), -1);
    std::unordered_set<std::string> names;
    auto addPlaceholder = [&](int producer) {
        const Node& p = g.nodes[static_cast<std::size_t>(producer)];
        Node ph;
        ph.kind = NodeKind::Placeholder;
        ph.name = p.name;
        ph.attr = p.name;
        ph.meta = p.meta;
        ph.stack = p.stack;
        remap[static_cast<std::size_t>(producer)] = static_cast<int>(out.nodes.size());
        out.nodes.push_back(std::move(ph));
    };
    // Inputs first: existing placeholders that are kept, then every outside producer a kept node reads.
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (kept[i] && g.nodes[i].kind == NodeKind::Placeholder)
            addPlaceholder(static_cast<int>(i));
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (!kept[i] || g.nodes[i].kind == NodeKind::Placeholder || g.nodes[i].kind == NodeKind::Output)
            continue;
        forEachNodeRef(g.nodes[i], [&](int ref) {
            if (!kept[static_cast<std::size_t>(ref)] && remap[static_cast<std::size_t>(ref)] < 0)
                addPlaceholder(ref);
        });
    }
    std::function<void(Arg&)> fix = [&](Arg& a) {
        if (a.kind == Arg::Kind::Node)
            a.node = remap[static_cast<std::size_t>(a.node)];
        for (Arg& item : a.items)
            fix(item);
    };
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (!kept[i] || n.kind == NodeKind::Placeholder || n.kind == NodeKind::Output)
            continue;
        Node copy = n;
        copy.frees.clear();
        for (Arg& a : copy.args)
            fix(a);
        for (auto& kv : copy.kwargs)
            fix(kv.second);
        remap[i] = static_cast<int>(out.nodes.size());
        out.nodes.push_back(std::move(copy));
    }
    Node output;
    output.kind = NodeKind::Output;
    output.name = out.freeOutputName();
    std::vector<Arg> items;
    for (int o : outputs) {
        int m = remap[static_cast<std::size_t>(o)];
        if (m < 0)
            throw Error("subgraph output '" + g.nodes[static_cast<std::size_t>(o)].name + "' is not among the kept nodes");
        items.push_back(Arg::ofNode(m));
    }
    output.args.push_back(Arg::ofList(std::move(items), Arg::Kind::Tuple));
    out.nodes.push_back(std::move(output));
    recomputeFrees(out);
    return out;
}

bool graphsEqual(const Graph& a, const Graph& b, std::string* why)
{
    auto differ = [&](const std::string& msg) {
        if (why)
            *why = msg;
        return false;
    };
    if (a.nodes.size() != b.nodes.size())
        return differ("node count " + std::to_string(a.nodes.size()) + " vs " + std::to_string(b.nodes.size()));
    if (a.outputForm != b.outputForm)
        return differ("output form differs");
    if (a.pytreeInputs != b.pytreeInputs)
        return differ("pytree inputs differ");
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const Node& x = a.nodes[i];
        const Node& y = b.nodes[i];
        const std::string where = "node " + std::to_string(i) + " ('" + x.name + "'): ";
        if (x.name != y.name)
            return differ(where + "name vs '" + y.name + "'");
        if (x.kind != y.kind)
            return differ(where + "kind");
        if (!(x.target == y.target))
            return differ(where + "target " + x.target.str() + " vs " + y.target.str());
        if (x.args != y.args || x.kwargs != y.kwargs)
            return differ(where + "arguments: " + formatNodeExpr(a, x) + " vs " + formatNodeExpr(b, y));
        if (x.meta != y.meta)
            return differ(where + "metadata " + (x.meta ? formatAnnotation(*x.meta) : "-") + " vs " +
                          (y.meta ? formatAnnotation(*y.meta) : "-"));
        if (x.attr != y.attr)
            return differ(where + "attribute");
        if (x.frees != y.frees)
            return differ(where + "frees");
        const StackFrame* sx = x.stack >= 0 ? &a.stacks[static_cast<std::size_t>(x.stack)] : nullptr;
        const StackFrame* sy = y.stack >= 0 ? &b.stacks[static_cast<std::size_t>(y.stack)] : nullptr;
        if ((sx == nullptr) != (sy == nullptr) || (sx && !(*sx == *sy)))
            return differ(where + "stack trace");
    }
    if (a.subgraphs.size() != b.subgraphs.size())
        return differ("subgraph count");
    for (std::size_t k = 0; k < a.subgraphs.size(); ++k) {
        if (a.subgraphs[k].name != b.subgraphs[k].name)
            return differ("subgraph name");
        std::string sub;
        if (!graphsEqual(a.subgraphs[k].graph, b.subgraphs[k].graph, &sub))
            return differ("subgraph " + a.subgraphs[k].name + ": " + sub);
    }
    return true;
}

}  // namespace fxray::graph
