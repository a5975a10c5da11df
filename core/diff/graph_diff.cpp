#include "diff/graph_diff.h"

#include "diff/line_diff.h"
#include "diff/node_matcher.h"
#include "graph/algorithms.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>
#include <unordered_map>

namespace fxray::diff {

std::string_view statusName(Status s)
{
    switch (s) {
    case Status::Same: return "same";
    case Status::Changed: return "changed";
    case Status::Added: return "added";
    case Status::Removed: return "removed";
    }
    return "";
}

std::string_view matchReasonName(MatchReason r)
{
    switch (r) {
    case MatchReason::None: return "none";
    case MatchReason::Name: return "name";
    case MatchReason::Position: return "position";
    case MatchReason::Hash: return "hash";
    case MatchReason::Propagation: return "propagation";
    case MatchReason::SourceLocation: return "source-location";
    case MatchReason::Order: return "order";
    }
    return "";
}

std::string_view fieldName(Change::Field f)
{
    switch (f) {
    case Change::Field::Overload: return "overload";
    case Change::Field::Argument: return "argument";
    case Change::Field::Keyword: return "kwarg";
    case Change::Field::DType: return "dtype";
    case Change::Field::Shape: return "shape";
    case Change::Field::Stride: return "stride";
    case Change::Field::Device: return "device";
    case Change::Field::StorageOffset: return "storage_offset";
    case Change::Field::SymValue: return "sym_value";
    case Change::Field::Metadata: return "metadata";
    case Change::Field::Position: return "position";
    case Change::Field::Output: return "output";
    }
    return "";
}

std::string Change::str() const
{
    std::string head;
    switch (field) {
    case Field::Argument: head = "argument " + where; break;
    case Field::Keyword: head = "kwarg " + where; break;
    case Field::Output: head = where; break;
    default: head = std::string(fieldName(field)); break;
    }
    return head + ": " + before + " → " + after;
}

namespace {

using graph::Arg;
using graph::Graph;
using graph::Node;
using graph::NodeKind;

const Node& nodeAt(const Graph& g, int i) { return g.nodes[static_cast<std::size_t>(i)]; }

bool isPort(NodeKind k) { return k == NodeKind::Placeholder || k == NodeKind::Output; }

std::string dims(const std::vector<graph::SymDim>& d)
{
    std::string out = "[";
    for (std::size_t k = 0; k < d.size(); ++k)
        out += (k ? ", " : "") + d[k].expr;
    return out + "]";
}

void compareMeta(const graph::ValueMeta& x, const graph::ValueMeta& y, std::vector<Change>& out)
{
    using Kind = graph::ValueMeta::Kind;
    if (x.kind != y.kind) {
        out.push_back({Change::Field::Metadata, {}, graph::formatAnnotation(x), graph::formatAnnotation(y)});
        return;
    }
    if (x.kind == Kind::SymInt || x.kind == Kind::SymFloat || x.kind == Kind::SymBool) {
        if (x.symExpr != y.symExpr)
            out.push_back({Change::Field::SymValue, {}, graph::formatAnnotation(x), graph::formatAnnotation(y)});
        return;
    }
    if (x.kind != Kind::Tensor)
        return;
    const graph::TensorMeta& s = x.tensor;
    const graph::TensorMeta& t = y.tensor;
    if (s.dtype != t.dtype)
        out.push_back({Change::Field::DType, {}, std::string(graph::dtypeAbbrev(s.dtype)), std::string(graph::dtypeAbbrev(t.dtype))});
    if (s.sizes != t.sizes)
        out.push_back({Change::Field::Shape, {}, dims(s.sizes), dims(t.sizes)});
    // An annotation without strides or device (sizes-only readable files) says nothing about them: no difference.
    if (s.strides && t.strides && *s.strides != *t.strides)
        out.push_back({Change::Field::Stride, {}, dims(*s.strides), dims(*t.strides)});
    if (s.device && t.device && !(*s.device == *t.device))
        out.push_back({Change::Field::Device, {}, s.device->str(), t.device->str()});
    if (s.storageOffset && t.storageOffset && !(*s.storageOffset == *t.storageOffset))
        out.push_back({Change::Field::StorageOffset, {}, s.storageOffset->expr, t.storageOffset->expr});
}

class Classifier {
public:
    Classifier(const Graph& a, const Graph& b, const DiffOptions& options, DiffResult& r)
        : m_a(a), m_b(b), m_options(options), m_r(r)
    {
    }

    // Equal under the matching. A reference where one side is an added or removed node is "explained" by that
    // node's own entry: an op inserted on an edge makes its user read the new node, which is not a second difference.
    bool equivalent(const Arg& p, const Arg& q) const
    {
        if (p.kind == Arg::Kind::Node || q.kind == Arg::Kind::Node) {
            if (p.kind != q.kind)
                return false;
            const int mp = m_r.aToB[static_cast<std::size_t>(p.node)];
            return mp == q.node || mp < 0 || m_r.bToA[static_cast<std::size_t>(q.node)] < 0;
        }
        if (p.kind == Arg::Kind::List || p.kind == Arg::Kind::Tuple || p.kind == Arg::Kind::Slice ||
            p.kind == Arg::Kind::Dict) {
            if (p.kind != q.kind || p.items.size() != q.items.size())
                return false;
            for (std::size_t k = 0; k < p.items.size(); ++k)
                if (!equivalent(p.items[k], q.items[k]))
                    return false;
            return true;
        }
        return p.kind == q.kind && graph::formatArg(Graph{}, p) == graph::formatArg(Graph{}, q);
    }

    std::vector<Change> nodeChanges(int i, int j) const
    {
        const Node& x = nodeAt(m_a, i);
        const Node& y = nodeAt(m_b, j);
        std::vector<Change> out;
        if (x.target.overload != y.target.overload)
            out.push_back({Change::Field::Overload, {}, x.target.str(), y.target.str()});
        if (x.kind != NodeKind::Output) {  // outputs are compared item by item (classifyOutputs)
            for (std::size_t k = 0; k < std::max(x.args.size(), y.args.size()); ++k) {
                const bool inA = k < x.args.size(), inB = k < y.args.size();
                if (inA && inB && equivalent(x.args[k], y.args[k]))
                    continue;
                out.push_back({Change::Field::Argument, std::to_string(k), inA ? graph::formatArg(m_a, x.args[k]) : "(none)",
                               inB ? graph::formatArg(m_b, y.args[k]) : "(none)"});
            }
            for (const auto& [key, value] : x.kwargs) {
                const auto other = std::find_if(y.kwargs.begin(), y.kwargs.end(), [&](const auto& kv) { return kv.first == key; });
                if (other == y.kwargs.end())
                    out.push_back({Change::Field::Keyword, key, graph::formatArg(m_a, value), "(none)"});
                else if (!equivalent(value, other->second))
                    out.push_back({Change::Field::Keyword, key, graph::formatArg(m_a, value), graph::formatArg(m_b, other->second)});
            }
            for (const auto& [key, value] : y.kwargs)
                if (std::none_of(x.kwargs.begin(), x.kwargs.end(), [&](const auto& kv) { return kv.first == key; }))
                    out.push_back({Change::Field::Keyword, key, "(none)", graph::formatArg(m_b, value)});
        }
        if (m_options.compareMetadata && x.meta && y.meta)
            compareMeta(*x.meta, *y.meta, out);
        return out;
    }

    // Positions of matched inputs that moved relative to the others: those off a longest increasing run of B
    // positions (taken in A order). A mere shift (an input inserted before) is not a move.
    std::vector<bool> movedInputs(const std::vector<int>& pa, const std::vector<int>& posB) const
    {
        std::vector<int> seq, seqIndex;  // B positions of matched inputs in A order, and their index in pa
        for (std::size_t k = 0; k < pa.size(); ++k) {
            const int m = m_r.aToB[static_cast<std::size_t>(pa[k])];
            if (m >= 0 && posB[static_cast<std::size_t>(m)] >= 0) {
                seq.push_back(posB[static_cast<std::size_t>(m)]);
                seqIndex.push_back(static_cast<int>(k));
            }
        }
        // Patience LIS with back-pointers: O(n log n).
        std::vector<int> tails, tailIdx, prev(seq.size(), -1);
        for (std::size_t s = 0; s < seq.size(); ++s) {
            const auto it = std::lower_bound(tails.begin(), tails.end(), seq[s]);
            const std::size_t pos = static_cast<std::size_t>(it - tails.begin());
            if (pos > 0)
                prev[s] = tailIdx[pos - 1];
            if (it == tails.end()) {
                tails.push_back(seq[s]);
                tailIdx.push_back(static_cast<int>(s));
            } else {
                *it = seq[s];
                tailIdx[pos] = static_cast<int>(s);
            }
        }
        std::vector<bool> moved(pa.size(), false);
        for (std::size_t s = 0; s < seq.size(); ++s)
            moved[static_cast<std::size_t>(seqIndex[s])] = true;
        for (int s = tailIdx.empty() ? -1 : tailIdx.back(); s >= 0; s = prev[static_cast<std::size_t>(s)])
            moved[static_cast<std::size_t>(seqIndex[static_cast<std::size_t>(s)])] = false;
        return moved;
    }

    void classifyInputs(std::vector<NodeDiff>& nodeOfA, std::vector<NodeDiff>& nodeOfB)
    {
        const std::vector<int> pa = m_a.placeholders(), pb = m_b.placeholders();
        std::vector<int> posA(m_a.nodes.size(), -1), posB(m_b.nodes.size(), -1);
        for (std::size_t k = 0; k < pa.size(); ++k)
            posA[static_cast<std::size_t>(pa[k])] = static_cast<int>(k);
        for (std::size_t k = 0; k < pb.size(); ++k)
            posB[static_cast<std::size_t>(pb[k])] = static_cast<int>(k);
        const std::vector<bool> moved = movedInputs(pa, posB);

        std::size_t nextA = 0;  // removed inputs of A are listed before the first B input that follows them in A
        std::vector<bool> listed(pa.size(), false);
        const auto flushRemoved = [&](std::size_t untilA) {
            for (; nextA < untilA; ++nextA) {
                if (listed[nextA] || m_r.aToB[static_cast<std::size_t>(pa[nextA])] >= 0)
                    continue;
                listed[nextA] = true;
                m_r.inputs.push_back({Status::Removed, static_cast<int>(nextA), -1, pa[nextA], -1, {}});
            }
        };
        for (std::size_t k = 0; k < pb.size(); ++k) {
            const int j = pb[k];
            const int i = m_r.bToA[static_cast<std::size_t>(j)];
            if (i < 0 || posA[static_cast<std::size_t>(i)] < 0) {
                m_r.inputs.push_back({Status::Added, -1, static_cast<int>(k), -1, j, {}});
                continue;
            }
            const std::size_t ka = static_cast<std::size_t>(posA[static_cast<std::size_t>(i)]);
            if (!moved[ka])
                flushRemoved(ka);
            listed[ka] = true;
            NodeDiff& nd = nodeOfA[static_cast<std::size_t>(i)];
            if (moved[ka])
                nd.changes.push_back({Change::Field::Position, {}, "input " + std::to_string(ka), "input " + std::to_string(k)});
            nd.status = nd.changes.empty() ? Status::Same : Status::Changed;
            nodeOfB[static_cast<std::size_t>(j)] = nd;
            m_r.inputs.push_back({nd.status, static_cast<int>(ka), static_cast<int>(k), i, j, nd.changes});
        }
        flushRemoved(pa.size());
    }

    static std::vector<Arg> outputItems(const Graph& g)
    {
        const int out = g.outputNode();
        if (out < 0 || nodeAt(g, out).args.empty())
            return {};
        const Arg& v = nodeAt(g, out).args[0];
        if (v.kind == Arg::Kind::Tuple || v.kind == Arg::Kind::List)
            return v.items;
        return {v};
    }

    void classifyOutputs()
    {
        const std::vector<Arg> oa = outputItems(m_a), ob = outputItems(m_b);
        // Keys that are equal exactly when the two items are the same value under the matching.
        std::unordered_map<std::string, int> ids;
        const auto id = [&](const std::string& key) { return ids.emplace(key, static_cast<int>(ids.size())).first->second; };
        std::vector<int> ka, kb;
        for (const Arg& v : oa) {
            const int m = v.kind == Arg::Kind::Node ? m_r.aToB[static_cast<std::size_t>(v.node)] : -1;
            ka.push_back(id(v.kind != Arg::Kind::Node ? "l" + graph::formatArg(m_a, v)
                            : m >= 0                 ? "m" + std::to_string(v.node)
                                                     : "a" + std::to_string(v.node)));
        }
        for (const Arg& v : ob) {
            const int m = v.kind == Arg::Kind::Node ? m_r.bToA[static_cast<std::size_t>(v.node)] : -1;
            kb.push_back(id(v.kind != Arg::Kind::Node ? "l" + graph::formatArg(m_b, v)
                            : m >= 0                 ? "m" + std::to_string(m)
                                                     : "b" + std::to_string(v.node)));
        }
        const auto common = commonSubsequence(ka, kb);
        const auto nodeOf = [](const Arg& v) { return v.kind == Arg::Kind::Node ? v.node : -1; };

        // Items off the common subsequence whose value is returned elsewhere on the other side: moved.
        std::vector<bool> onA(oa.size(), false), onB(ob.size(), false);
        for (const auto& [x, y] : common) {
            onA[x] = true;
            onB[y] = true;
        }
        std::vector<int> movedTo(oa.size(), -1), movedFrom(ob.size(), -1);
        std::unordered_map<int, std::vector<std::size_t>> freeB;
        for (std::size_t y = ob.size(); y-- > 0;)
            if (!onB[y])
                freeB[kb[y]].push_back(y);
        for (std::size_t x = 0; x < oa.size(); ++x) {
            if (onA[x])
                continue;
            auto it = freeB.find(ka[x]);
            if (it == freeB.end() || it->second.empty())
                continue;
            const std::size_t y = it->second.back();
            it->second.pop_back();
            movedTo[x] = static_cast<int>(y);
            movedFrom[y] = static_cast<int>(x);
        }

        const auto emit = [&](std::size_t x, std::size_t y, bool inA, bool inB) {
            PortDiff p;
            p.aPosition = inA ? static_cast<int>(x) : -1;
            p.bPosition = inB ? static_cast<int>(y) : -1;
            p.a = inA ? nodeOf(oa[x]) : -1;
            p.b = inB ? nodeOf(ob[y]) : -1;
            const std::string where = "output " + std::to_string(inB ? y : x);
            if (inA && inB) {
                if (ka[x] == kb[y] && x != y && movedTo[x] == static_cast<int>(y))
                    p.changes.push_back({Change::Field::Position, where, "output " + std::to_string(x), "output " + std::to_string(y)});
                else if (ka[x] != kb[y] && !equivalent(oa[x], ob[y]))
                    p.changes.push_back({Change::Field::Output, where, graph::formatArg(m_a, oa[x]), graph::formatArg(m_b, ob[y])});
                p.status = p.changes.empty() ? Status::Same : Status::Changed;
            } else if (inA) {
                p.status = Status::Removed;
                p.changes.push_back({Change::Field::Output, where, graph::formatArg(m_a, oa[x]), "(none)"});
            } else {
                p.status = Status::Added;
                p.changes.push_back({Change::Field::Output, where, "(none)", graph::formatArg(m_b, ob[y])});
            }
            m_r.outputs.push_back(std::move(p));
        };

        std::size_t x = 0, y = 0;
        const auto gap = [&](std::size_t ex, std::size_t ey) {
            std::vector<std::size_t> ga, gb;
            for (; x < ex; ++x)
                if (movedTo[x] < 0)
                    ga.push_back(x);
            for (; y < ey; ++y)
                if (movedFrom[y] < 0)
                    gb.push_back(y);
                else
                    emit(static_cast<std::size_t>(movedFrom[y]), y, true, true);
            if (ga.size() == gb.size()) {  // as many on each side: the values at these positions changed (or not)
                for (std::size_t k = 0; k < ga.size(); ++k)
                    emit(ga[k], gb[k], true, true);
                return;
            }
            for (std::size_t k : ga)
                emit(k, 0, true, false);
            for (std::size_t k : gb)
                emit(0, k, false, true);
        };
        for (const auto& [cx, cy] : common) {
            gap(cx, cy);
            emit(cx, cy, true, true);
            x = cx + 1;
            y = cy + 1;
        }
        gap(oa.size(), ob.size());
    }

    const Graph& m_a;
    const Graph& m_b;
    const DiffOptions& m_options;
    DiffResult& m_r;
};

// Merged order: B's order, each removed node of A right after the B pair of the matched node preceding it in A.
// Kahn's algorithm with that order as priority keeps it topological (a removed node may read a node that B moved
// further down).
std::vector<std::pair<int, int>> mergedOrder(const Graph& a, const Graph& b, const std::vector<int>& aToB,
                                             const std::vector<int>& bToA)
{
    constexpr int kLast = std::numeric_limits<int>::max();  // the output node stays last
    std::vector<std::pair<int, int>> entries;  // (a, b)
    std::vector<std::tuple<int, int, int>> keys;
    std::vector<int> entryOfA(a.nodes.size(), -1), entryOfB(b.nodes.size(), -1);
    for (std::size_t j = 0; j < b.nodes.size(); ++j) {
        entryOfB[j] = static_cast<int>(entries.size());
        entries.emplace_back(bToA[j], static_cast<int>(j));
        const bool output = b.nodes[j].kind == NodeKind::Output;
        keys.emplace_back(output ? kLast : static_cast<int>(j), 0, 0);
    }
    int anchor = -1;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        if (aToB[i] >= 0) {
            entryOfA[i] = entryOfB[static_cast<std::size_t>(aToB[i])];
            if (a.nodes[i].kind != NodeKind::Output)
                anchor = aToB[i];
            continue;
        }
        entryOfA[i] = static_cast<int>(entries.size());
        entries.emplace_back(static_cast<int>(i), -1);
        keys.emplace_back(a.nodes[i].kind == NodeKind::Output ? kLast : anchor, 1, static_cast<int>(i));
    }
    const std::size_t n = entries.size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (std::size_t e = 0; e < n; ++e) {
        const auto [i, j] = entries[e];
        const auto add = [&](int producer) {
            users[static_cast<std::size_t>(producer)].push_back(static_cast<int>(e));
            ++pending[e];
        };
        if (j >= 0)
            graph::forEachNodeRef(b.nodes[static_cast<std::size_t>(j)], [&](int r) { add(entryOfB[static_cast<std::size_t>(r)]); });
        else
            graph::forEachNodeRef(a.nodes[static_cast<std::size_t>(i)], [&](int r) { add(entryOfA[static_cast<std::size_t>(r)]); });
    }
    using Item = std::pair<std::tuple<int, int, int>, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (std::size_t e = 0; e < n; ++e)
        if (pending[e] == 0)
            ready.emplace(keys[e], static_cast<int>(e));
    std::vector<std::pair<int, int>> order;
    order.reserve(n);
    while (!ready.empty()) {
        const int e = ready.top().second;
        ready.pop();
        order.push_back(entries[static_cast<std::size_t>(e)]);
        for (const int u : users[static_cast<std::size_t>(e)])
            if (--pending[static_cast<std::size_t>(u)] == 0)
                ready.emplace(keys[static_cast<std::size_t>(u)], u);
    }
    return order;  // complete: B is acyclic and removed nodes only feed removed nodes
}

}  // namespace

bool isOpDifference(const NodeDiff& d, const graph::Graph& a, const graph::Graph& b)
{
    if (d.status == Status::Same)
        return false;
    const NodeKind k = d.b >= 0 ? nodeAt(b, d.b).kind : nodeAt(a, d.a).kind;
    return !isPort(k);
}

DiffResult diffGraphs(const graph::Graph& a, const graph::Graph& b, const DiffOptions& options)
{
    const NodeMatching matching = matchNodes(a, b);
    DiffResult r;
    r.aToB = matching.aToB;
    r.bToA = matching.bToA;
    Classifier classifier(a, b, options, r);

    // Per-node classification, indexed by A (matched and removed) and by B (added).
    std::vector<NodeDiff> nodeOfA(a.nodes.size()), nodeOfB(b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        NodeDiff& d = nodeOfA[i];
        d.a = static_cast<int>(i);
        d.b = r.aToB[i];
        d.reason = matching.reasonA[i];
        if (d.b < 0) {
            d.status = Status::Removed;
            continue;
        }
        d.changes = classifier.nodeChanges(d.a, d.b);
        d.status = d.changes.empty() ? Status::Same : Status::Changed;
        nodeOfB[static_cast<std::size_t>(d.b)] = d;
    }
    for (std::size_t j = 0; j < b.nodes.size(); ++j)
        if (r.bToA[j] < 0)
            nodeOfB[j] = NodeDiff{Status::Added, -1, static_cast<int>(j), MatchReason::None, {}};

    classifier.classifyInputs(nodeOfA, nodeOfB);
    classifier.classifyOutputs();
    // The output node carries its changed outputs, so a drawing of the merged graph can show them.
    const int outB = b.outputNode();
    if (outB >= 0 && r.bToA[static_cast<std::size_t>(outB)] >= 0) {
        NodeDiff& d = nodeOfB[static_cast<std::size_t>(outB)];
        for (const PortDiff& p : r.outputs)
            if (p.status != Status::Same)
                d.changes.insert(d.changes.end(), p.changes.begin(), p.changes.end());
        d.status = d.changes.empty() ? Status::Same : Status::Changed;
    }

    for (const auto& [i, j] : mergedOrder(a, b, r.aToB, r.bToA))
        r.nodes.push_back(j >= 0 ? nodeOfB[static_cast<std::size_t>(j)] : nodeOfA[static_cast<std::size_t>(i)]);

    const auto count = [](StatusCounts& c, Status s) {
        switch (s) {
        case Status::Same: ++c.same; break;
        case Status::Changed: ++c.changed; break;
        case Status::Added: ++c.added; break;
        case Status::Removed: ++c.removed; break;
        }
    };
    for (const NodeDiff& d : r.nodes) {
        const NodeKind k = d.b >= 0 ? nodeAt(b, d.b).kind : nodeAt(a, d.a).kind;
        if (!isPort(k))
            count(r.ops, d.status);
    }
    for (const PortDiff& p : r.inputs)
        count(r.inputCounts, p.status);
    for (const PortDiff& p : r.outputs)
        count(r.outputCounts, p.status);
    if (options.compareMetadata) {
        const auto hasMeta = [](const graph::Graph& g) {
            return std::any_of(g.nodes.begin(), g.nodes.end(), [](const graph::Node& n) { return n.meta.has_value(); });
        };
        for (const auto& [label, g] : {std::pair{"A", &a}, std::pair{"B", &b}})
            if (!hasMeta(*g) && !g->nodes.empty())
                r.warnings.push_back(std::string("graph ") + label +
                                     " has no recorded metadata (dtype/shape/stride): only the code was compared");
    }

    // Higher-order-op subgraphs, by attribute name.
    for (const graph::Subgraph& sa : a.subgraphs) {
        const auto sb = std::find_if(b.subgraphs.begin(), b.subgraphs.end(), [&](const auto& s) { return s.name == sa.name; });
        if (sb == b.subgraphs.end()) {
            r.notes.push_back("subgraph " + sa.name + " removed");
        } else if (graph::structuralHash(sa.graph) != graph::structuralHash(sb->graph)) {
            const DiffResult sub = diffGraphs(sa.graph, sb->graph, options);
            if (!sub.equal())
                r.notes.push_back("subgraph " + sa.name + ": " + std::to_string(sub.differenceCount()) + " difference(s)");
        }
    }
    for (const graph::Subgraph& sb : b.subgraphs)
        if (std::none_of(a.subgraphs.begin(), a.subgraphs.end(), [&](const auto& s) { return s.name == sb.name; }))
            r.notes.push_back("subgraph " + sb.name + " added");
    return r;
}

}  // namespace fxray::diff
