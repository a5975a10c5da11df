#include "diff/node_matcher.h"

#include "graph/algorithms.h"
#include "graph/printer.h"
#include "graph/tensor_meta.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace fxray::diff {
namespace {

using graph::Arg;
using graph::Graph;
using graph::Node;
using graph::NodeKind;

std::uint64_t mix(std::uint64_t x)  // splitmix64's finaliser
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::uint64_t combine(std::uint64_t h, std::uint64_t v)
{
    return mix(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
}

std::uint64_t hashString(std::string_view s)
{
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (const char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return mix(h ^ s.size());
}

constexpr std::uint64_t kMatched = 0x6d61746368656421ull;
constexpr std::uint64_t kNodeRef = 0x6e6f646572656621ull;

// Literal structure of an argument: node references count only as "a reference here" (their identity enters the
// deep hash through the reference list).
std::uint64_t hashArgShape(const Arg& a)
{
    std::uint64_t h = static_cast<std::uint64_t>(a.kind) + 1;
    switch (a.kind) {
    case Arg::Kind::Node: return combine(h, kNodeRef);
    case Arg::Kind::List:
    case Arg::Kind::Tuple:
    case Arg::Kind::Slice:
    case Arg::Kind::Dict:
        h = combine(h, a.items.size());
        for (const Arg& item : a.items)
            h = combine(h, hashArgShape(item));
        return h;
    default: return combine(h, hashString(graph::formatArg(Graph{}, a)));  // the printed literal is canonical
    }
}

// The op a node runs, without overload: nodes are only ever paired when this agrees.
std::uint64_t looseKeyOf(const Node& n)
{
    std::uint64_t h = combine(static_cast<std::uint64_t>(n.kind) + 1, static_cast<std::uint64_t>(n.target.kind) + 1);
    h = combine(h, hashString(n.target.ns));
    h = combine(h, hashString(n.target.op));
    if (n.kind == NodeKind::GetAttr)
        h = combine(h, hashString(n.attr));
    return h;
}

// Everything a node says about itself apart from names and sources: op with overload, literals, metadata.
std::uint64_t strictKeyOf(const Node& n, std::uint64_t loose)
{
    std::uint64_t h = combine(loose, hashString(n.target.overload));
    h = combine(h, n.args.size());
    for (const Arg& a : n.args)
        h = combine(h, hashArgShape(a));
    for (const auto& [key, value] : n.kwargs) {
        h = combine(h, hashString(key));
        h = combine(h, hashArgShape(value));
    }
    return combine(h, n.meta ? hashString(graph::formatAnnotation(*n.meta)) : 0);
}

// Walks two arguments in parallel (lists item by item, up to the shorter one).
template <class F>
void walkArgPairs(const Arg& p, const Arg& q, F& fn)
{
    fn(p, q);
    const auto container = [](const Arg& a) {
        return a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple || a.kind == Arg::Kind::Slice ||
               a.kind == Arg::Kind::Dict;
    };
    if (container(p) && container(q))
        for (std::size_t k = 0; k < p.items.size() && k < q.items.size(); ++k)
            walkArgPairs(p.items[k], q.items[k], fn);
}

// Positional arguments by index, keyword arguments by name.
template <class F>
void walkNodePairs(const Node& x, const Node& y, F&& fn)
{
    for (std::size_t k = 0; k < x.args.size() && k < y.args.size(); ++k)
        walkArgPairs(x.args[k], y.args[k], fn);
    for (const auto& [key, value] : x.kwargs)
        for (const auto& [otherKey, otherValue] : y.kwargs)
            if (key == otherKey)
                walkArgPairs(value, otherValue, fn);
}

struct Side {
    const Graph* g = nullptr;
    std::vector<int> order;               // topological
    std::vector<std::vector<int>> refs;   // node references in argument order, duplicates kept
    std::vector<std::vector<int>> users;  // distinct users in program order
    std::vector<std::uint64_t> looseKey, strictKey;
    std::vector<int> match;
    std::vector<std::uint64_t> deep;  // deep hashes of the current pass

    explicit Side(const Graph& graph) : g(&graph)
    {
        const std::size_t n = graph.nodes.size();
        order = graph::topologicalOrder(graph);  // also rejects references out of range and cycles
        refs.resize(n);
        users.resize(n);
        looseKey.resize(n);
        strictKey.resize(n);
        match.assign(n, -1);
        deep.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const Node& node = graph.nodes[i];
            graph::forEachNodeRef(node, [&](int r) {
                refs[i].push_back(r);
                auto& u = users[static_cast<std::size_t>(r)];
                if (u.empty() || u.back() != static_cast<int>(i))
                    u.push_back(static_cast<int>(i));
            });
            looseKey[i] = looseKeyOf(node);
            strictKey[i] = strictKeyOf(node, looseKey[i]);
        }
        // A node reading the same value twice but not consecutively shows up twice in users: dedupe.
        for (auto& u : users) {
            if (u.size() < 2)
                continue;
            std::vector<int> sorted = u;
            std::sort(sorted.begin(), sorted.end());
            sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
            u = std::move(sorted);
        }
    }
    const Node& node(int i) const { return g->nodes[static_cast<std::size_t>(i)]; }
    std::size_t size() const { return g->nodes.size(); }
};

class Matcher {
public:
    Matcher(const Graph& a, const Graph& b) : m_a(a), m_b(b), m_reason(a.nodes.size(), MatchReason::None) {}

    NodeMatching run()
    {
        seedByName();
        constexpr int kMaxRounds = 100;  // each round finds something; real graphs settle in a handful
        for (int round = 0; round < kMaxRounds; ++round) {
            const std::size_t before = m_matched;
            anchor(true);
            propagate();
            anchor(false);
            propagate();
            if (m_matched != before)
                continue;
            if (step(&Matcher::bySourceLocation) || step(&Matcher::placeholderGaps) || step(&Matcher::identicalInOrder) ||
                step(&Matcher::sameName))
                continue;
            break;
        }
        return NodeMatching{m_a.match, m_b.match, m_reason};
    }

private:
    bool step(void (Matcher::*pass)())
    {
        const std::size_t before = m_matched;
        (this->*pass)();
        propagate();
        return m_matched != before;
    }

    void pair(int i, int j, MatchReason reason)
    {
        m_a.match[static_cast<std::size_t>(i)] = j;
        m_b.match[static_cast<std::size_t>(j)] = i;
        m_reason[static_cast<std::size_t>(i)] = reason;
        m_work.push_back(i);
        ++m_matched;
    }
    bool freeA(int i) const { return m_a.match[static_cast<std::size_t>(i)] < 0; }
    bool freeB(int j) const { return m_b.match[static_cast<std::size_t>(j)] < 0; }
    bool sameOp(int i, int j) const
    {
        return m_a.looseKey[static_cast<std::size_t>(i)] == m_b.looseKey[static_cast<std::size_t>(j)];
    }

    // 1. Names that carry meaning.
    void seedByName()
    {
        const int outA = m_a.g->outputNode(), outB = m_b.g->outputNode();
        if (outA >= 0 && outB >= 0)
            pair(outA, outB, MatchReason::Name);
        std::unordered_map<std::string_view, int> attrs;
        for (std::size_t j = 0; j < m_b.size(); ++j)
            if (m_b.node(static_cast<int>(j)).kind == NodeKind::GetAttr)
                attrs.emplace(m_b.node(static_cast<int>(j)).attr, static_cast<int>(j));
        for (std::size_t i = 0; i < m_a.size(); ++i) {
            const Node& n = m_a.node(static_cast<int>(i));
            if (n.kind != NodeKind::GetAttr)
                continue;
            if (auto it = attrs.find(n.attr); it != attrs.end() && freeB(it->second))
                pair(static_cast<int>(i), it->second, MatchReason::Name);
        }
        // Placeholder names are positional (primals_3, arg2_1): positions are what carries meaning. With an input
        // added or removed, positions shift, so they are left to the structure (and to placeholderGaps).
        const std::vector<int> pa = m_a.g->placeholders(), pb = m_b.g->placeholders();
        if (pa.size() == pb.size())
            for (std::size_t k = 0; k < pa.size(); ++k)
                pair(pa[k], pb[k], MatchReason::Position);
    }

    // Deep (Merkle) hashes over the topological order: a matched node hashes as its pair.
    void computeDeep(Side& s, bool strict, bool sideA)
    {
        for (const int i : s.order) {
            const std::size_t u = static_cast<std::size_t>(i);
            if (s.match[u] >= 0) {
                s.deep[u] = combine(kMatched, static_cast<std::uint64_t>(sideA ? i : s.match[u]));
                continue;
            }
            std::uint64_t h = strict ? s.strictKey[u] : s.looseKey[u];
            for (const int r : s.refs[u])
                h = combine(h, s.deep[static_cast<std::size_t>(r)]);
            s.deep[u] = h;
        }
    }

    // 2. Structural anchors: a deep hash that occurs exactly once among the unmatched nodes of each side.
    void anchor(bool strict)
    {
        computeDeep(m_a, strict, true);
        computeDeep(m_b, strict, false);
        struct Bucket {
            int countA = 0, countB = 0, b = -1;
        };
        std::unordered_map<std::uint64_t, Bucket> buckets;
        buckets.reserve(m_a.size() + m_b.size());
        // Nodes without inputs (inputs, constants, full/arange) hash by their own content only: no structure speaks
        // for a pair, and a shape that happens to occur once on each side is weak evidence. They are left to the
        // propagation from their users (and to the leftover passes, once more is matched to check them against).
        for (std::size_t i = 0; i < m_a.size(); ++i)
            if (m_a.match[i] < 0 && !m_a.refs[i].empty())
                ++buckets[m_a.deep[i]].countA;
        for (std::size_t j = 0; j < m_b.size(); ++j) {
            if (m_b.match[j] >= 0 || m_b.refs[j].empty())
                continue;
            Bucket& bucket = buckets[m_b.deep[j]];
            ++bucket.countB;
            bucket.b = static_cast<int>(j);
        }
        for (std::size_t i = 0; i < m_a.size(); ++i) {
            if (m_a.match[i] >= 0 || m_a.refs[i].empty())
                continue;
            const auto it = buckets.find(m_a.deep[i]);
            if (it->second.countA == 1 && it->second.countB == 1 && sameOp(static_cast<int>(i), it->second.b) &&
                !contradicted(static_cast<int>(i), it->second.b))
                pair(static_cast<int>(i), it->second.b, MatchReason::Hash);
        }
    }

    // 3. Propagation to a fixpoint.
    void propagate()
    {
        for (std::size_t k = 0; k < m_work.size(); ++k) {
            const int i = m_work[k];
            const int j = m_a.match[static_cast<std::size_t>(i)];
            backward(i, j);
            forward(i, j);
        }
        m_work.clear();
    }

    // The inputs of a matched pair, position by position, when their ops agree.
    void backward(int i, int j)
    {
        const Node& x = m_a.node(i);
        const Node& y = m_b.node(j);
        if (!positional(i, j) || (x.kind != NodeKind::Output && !sameOp(i, j)))
            return;
        walkNodePairs(x, y, [&](const Arg& p, const Arg& q) {
            if (p.kind == Arg::Kind::Node && q.kind == Arg::Kind::Node && freeA(p.node) && freeB(q.node) &&
                sameOp(p.node, q.node))
                pair(p.node, q.node, MatchReason::Propagation);
        });
    }

    // How well user u of A lines up with user v of B: matched inputs that correspond (-1: one that contradicts).
    int consistency(int u, int v) const
    {
        int agree = 0;
        bool conflict = false;
        walkNodePairs(m_a.node(u), m_b.node(v), [&](const Arg& p, const Arg& q) {
            if (p.kind != Arg::Kind::Node || q.kind != Arg::Kind::Node)
                return;
            const int mp = m_a.match[static_cast<std::size_t>(p.node)];
            if (mp < 0 && freeB(q.node))
                return;
            if (mp == q.node)
                ++agree;
            else
                conflict = true;
        });
        return conflict ? -1 : agree;
    }

    // Whether the arguments of a matched pair correspond by position: always for ops, for the output node only when
    // both return as many values (otherwise an inserted output shifts the rest).
    bool positional(int i, int j) const
    {
        const Node& x = m_a.node(i);
        const Node& y = m_b.node(j);
        if (x.kind != NodeKind::Output)
            return true;
        return !x.args.empty() && !y.args.empty() && x.args[0].items.size() == y.args[0].items.size();
    }

    // Whether pairing i with j would contradict a match already made: a matched user of j whose pair reads another
    // node where it reads j (or the other way round). Heuristic passes (anchors, source lines, leftovers) check this;
    // e.g. a value cut into a new input of a minimized graph must not pair with an old input of the same shape.
    bool contradicted(int i, int j) const
    {
        bool conflict = false;
        for (const int v : m_b.users[static_cast<std::size_t>(j)]) {
            const int u = m_b.match[static_cast<std::size_t>(v)];
            if (u < 0 || conflict || !positional(u, v))
                continue;
            walkNodePairs(m_a.node(u), m_b.node(v), [&](const Arg& p, const Arg& q) {
                if (q.kind == Arg::Kind::Node && q.node == j && p.kind == Arg::Kind::Node && p.node != i)
                    conflict = true;
            });
        }
        for (const int u : m_a.users[static_cast<std::size_t>(i)]) {
            const int v = m_a.match[static_cast<std::size_t>(u)];
            if (v < 0 || conflict || !positional(u, v))
                continue;
            walkNodePairs(m_a.node(u), m_b.node(v), [&](const Arg& p, const Arg& q) {
                if (p.kind == Arg::Kind::Node && p.node == i && q.kind == Arg::Kind::Node && q.node != j)
                    conflict = true;
            });
        }
        return conflict;
    }

    // Unmatched users of a matched pair: each is matched to the one unmatched user of the pair with the same op whose
    // matched inputs agree best (a tie is left for later, when more inputs are matched).
    void forward(int i, int j)
    {
        const std::vector<int>& usersA = m_a.users[static_cast<std::size_t>(i)];
        const std::vector<int>& usersB = m_b.users[static_cast<std::size_t>(j)];
        // Hubs (a SymInt read by thousands of nodes) would cost |usersA| x |usersB|: their users get anchored by hash
        // through their other inputs instead.
        constexpr std::size_t kMaxFanout = 256;
        if (usersA.size() > kMaxFanout || usersB.size() > kMaxFanout)
            return;
        for (const int u : usersA) {
            if (!freeA(u))
                continue;
            int best = -1, bestScore = 0;
            bool tie = false;
            for (const int v : usersB) {
                if (!freeB(v) || !sameOp(u, v))
                    continue;
                const int agree = consistency(u, v);
                if (agree <= 0)
                    continue;
                const int score = agree * 2 +
                                  (m_a.strictKey[static_cast<std::size_t>(u)] == m_b.strictKey[static_cast<std::size_t>(v)]);
                if (score > bestScore) {
                    best = v;
                    bestScore = score;
                    tie = false;
                } else if (score == bestScore) {
                    tie = true;
                }
            }
            if (best < 0 || tie)
                continue;
            // Mutual: another user of i that fits `best` as well (a recomputed twin, as joint graphs have) leaves the
            // choice to later evidence, e.g. a matched user of the twin propagating backwards.
            bool rival = false;
            for (const int w : usersA) {
                if (w == u || !freeA(w) || !sameOp(w, best))
                    continue;
                const int agree = consistency(w, best);
                const int score = agree * 2 + (m_a.strictKey[static_cast<std::size_t>(w)] ==
                                               m_b.strictKey[static_cast<std::size_t>(best)]);
                if (agree > 0 && score >= bestScore) {
                    rival = true;
                    break;
                }
            }
            if (!rival)
                pair(u, best, MatchReason::Propagation);
        }
    }

    // Pairs unmatched nodes of A with unmatched nodes of B that share `key`, in program order.
    template <class Key>
    void zipByKey(Key key, MatchReason reason)
    {
        std::unordered_map<std::uint64_t, std::vector<int>> groups;
        for (std::size_t j = 0; j < m_b.size(); ++j)
            if (m_b.match[j] < 0 && m_b.node(static_cast<int>(j)).kind != NodeKind::Output)
                if (const auto k = key(m_b, static_cast<int>(j)))
                    groups[*k].push_back(static_cast<int>(j));
        std::unordered_map<std::uint64_t, std::size_t> cursor;
        for (std::size_t i = 0; i < m_a.size(); ++i) {
            if (m_a.match[i] >= 0 || m_a.node(static_cast<int>(i)).kind == NodeKind::Output)
                continue;
            const auto k = key(m_a, static_cast<int>(i));
            if (!k)
                continue;
            const auto it = groups.find(*k);
            if (it == groups.end())
                continue;
            std::size_t& c = cursor[*k];
            while (c < it->second.size() && !freeB(it->second[c]))
                ++c;
            if (c < it->second.size() && sameOp(static_cast<int>(i), it->second[c]) &&
                !contradicted(static_cast<int>(i), it->second[c]))
                pair(static_cast<int>(i), it->second[c++], reason);
        }
    }

    // 4. Same op at the same model source line.
    void bySourceLocation()
    {
        zipByKey(
            [](const Side& s, int i) -> std::optional<std::uint64_t> {
                const Node& n = s.node(i);
                if (n.stack < 0 || static_cast<std::size_t>(n.stack) >= s.g->stacks.size())
                    return std::nullopt;
                const graph::StackFrame& f = s.g->stacks[static_cast<std::size_t>(n.stack)];
                if (f.file.empty())
                    return std::nullopt;
                return combine(combine(hashString(f.file), static_cast<std::uint64_t>(f.line)),
                               s.looseKey[static_cast<std::size_t>(i)]);
            },
            MatchReason::SourceLocation);
    }

    // 5a. Inputs between two matched inputs, when as many are left on each side: paired by position.
    void placeholderGaps()
    {
        const std::vector<int> pa = m_a.g->placeholders(), pb = m_b.g->placeholders();
        std::vector<int> posB(m_b.size(), -1);
        for (std::size_t k = 0; k < pb.size(); ++k)
            posB[static_cast<std::size_t>(pb[k])] = static_cast<int>(k);
        std::size_t startA = 0;
        int startB = 0;
        const auto closeGap = [&](std::size_t endA, int endB) {
            std::vector<int> gapA, gapB;
            for (std::size_t k = startA; k < endA; ++k)
                if (freeA(pa[k]))
                    gapA.push_back(pa[k]);
            for (int k = startB; k < endB; ++k)
                if (freeB(pb[static_cast<std::size_t>(k)]))
                    gapB.push_back(pb[static_cast<std::size_t>(k)]);
            if (!gapA.empty() && gapA.size() == gapB.size())
                for (std::size_t k = 0; k < gapA.size(); ++k)
                    if (!contradicted(gapA[k], gapB[k]))
                        pair(gapA[k], gapB[k], MatchReason::Position);
        };
        for (std::size_t k = 0; k < pa.size(); ++k) {
            const int m = m_a.match[static_cast<std::size_t>(pa[k])];
            const int pos = m >= 0 ? posB[static_cast<std::size_t>(m)] : -1;
            if (pos < startB)  // unmatched, or matched out of order: not a gap boundary
                continue;
            closeGap(k, pos);
            startA = k + 1;
            startB = pos + 1;
        }
        closeGap(pa.size(), static_cast<int>(pb.size()));
    }

    // 5b. Nodes that compute the very same thing (equal strict deep hash), paired in program order.
    void identicalInOrder()
    {
        computeDeep(m_a, true, true);
        computeDeep(m_b, true, false);
        zipByKey([](const Side& s, int i) -> std::optional<std::uint64_t> { return s.deep[static_cast<std::size_t>(i)]; },
                 MatchReason::Order);
    }

    // 5c. Same name and same op: names are no evidence of identity in FX graphs, but the last one left.
    void sameName()
    {
        zipByKey(
            [](const Side& s, int i) -> std::optional<std::uint64_t> {
                return combine(hashString(s.node(i).name), s.looseKey[static_cast<std::size_t>(i)]);
            },
            MatchReason::Order);
    }

    Side m_a, m_b;
    std::vector<MatchReason> m_reason;
    std::vector<int> m_work;  // A indices matched since the last propagation
    std::size_t m_matched = 0;
};

}  // namespace

NodeMatching matchNodes(const graph::Graph& a, const graph::Graph& b)
{
    return Matcher(a, b).run();
}

}  // namespace fxray::diff
