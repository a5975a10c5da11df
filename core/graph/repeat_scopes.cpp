// Scopes from repeated structure in program order (see repeat_scopes.h for what and why).
#include "graph/repeat_scopes.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace fxray::graph {

namespace {

bool isInput(const Node& n)
{
    return n.kind == NodeKind::Placeholder || n.kind == NodeKind::GetAttr;
}

std::uint64_t mix(std::uint64_t h, std::string_view s)
{
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
    return h;
}

// What must be equal for two nodes to be "the same statement": the source line they come from and the op.
std::uint64_t nodeKey(const Graph& g, const Node& n, std::vector<std::uint64_t>& stackKeys)
{
    std::uint64_t h = 1469598103934665603ull;
    if (n.stack >= 0 && static_cast<std::size_t>(n.stack) < g.stacks.size()) {
        std::uint64_t& k = stackKeys[static_cast<std::size_t>(n.stack)];
        if (k == 0) {
            const StackFrame& f = g.stacks[static_cast<std::size_t>(n.stack)];
            k = mix(mix(mix(1469598103934665603ull, f.file), std::to_string(f.line)), f.code.empty() ? f.raw : f.code) | 1;
        }
        h = k;
    }
    h = mix(h, n.kind == NodeKind::CallMethod ? "method " + n.target.op : n.target.op);
    return mix(h, n.target.overload);
}

struct Repeat {
    std::size_t start = 0;   // body position of the first copy
    std::size_t period = 0;  // body positions per copy
    std::size_t copies = 0;
    std::size_t end() const { return start + period * copies; }
};

// A file's stem without dots (scope path components are split at dots): ".../modeling_qwen2.py" -> "modeling_qwen2".
std::string fileStem(std::string_view file)
{
    const std::size_t slash = file.find_last_of("/\\");
    std::string stem(slash == std::string_view::npos ? file : file.substr(slash + 1));
    if (stem.size() > 3 && stem.ends_with(".py"))
        stem.resize(stem.size() - 3);
    std::replace(stem.begin(), stem.end(), '.', '_');
    return stem.empty() ? std::string("block") : stem;
}

class Finder {
public:
    Finder(const Graph& g, const RepeatOptions& options) : m_g(g), m_options(options)
    {
        std::vector<std::uint64_t> stackKeys(g.stacks.size(), 0);
        m_key.resize(g.nodes.size(), 0);
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            m_key[i] = nodeKey(g, g.nodes[i], stackKeys);
        m_path.resize(g.nodes.size());
        m_copyOf.assign(g.nodes.size(), -1);
        m_stamp.assign(g.nodes.size(), 0);
    }

    // Searches the nodes `body` (program order, no inputs) under `prefix` ("" or "forward"/"backward").
    void searchHalf(std::vector<int> body, const std::string& prefix, bool linkTwins)
    {
        m_body = std::move(body);
        m_linkTwins = linkTwins;
        m_budget = 64 * m_body.size() + 4096;
        for (int n : m_body)
            m_path[static_cast<std::size_t>(n)] = prefix;
        search(0, m_body.size(), prefix, 0);
    }

    bool found() const { return m_found; }
    std::vector<std::string>& paths() { return m_path; }
    std::vector<std::pair<std::string, std::string>>& twins() { return m_twins; }

private:
    static constexpr int kMaxDepth = 4;

    // The best tandem repeat in body positions [lo, hi): the most nodes covered, then the shorter period.
    std::optional<Repeat> best(std::size_t lo, std::size_t hi) const
    {
        const std::size_t n = hi - lo;
        const std::size_t minUnit = std::max<std::size_t>(m_options.minUnitNodes, 1);
        if (n < 2 * minUnit)
            return std::nullopt;
        // Candidate periods: the distances between consecutive occurrences of a key, most frequent first (a perfect
        // repeat of period L makes every key that occurs once per copy recur at distance L), and the spacing of every
        // key whose occurrences are evenly spaced (a copy's keys that occur several times in it recur at shorter
        // distances, which can outnumber L).
        struct Occurrences {
            std::size_t last = 0, gap = 0, count = 0;
            bool even = true;
        };
        std::unordered_map<std::uint64_t, Occurrences> seen;
        std::unordered_map<std::size_t, std::size_t> gaps;
        for (std::size_t p = lo; p < hi; ++p) {
            Occurrences& o = seen[m_key[static_cast<std::size_t>(m_body[p])]];
            if (o.count > 0) {
                const std::size_t gap = p - o.last;
                if (gap >= minUnit && gap <= n / 2)
                    ++gaps[gap];
                o.even = o.even && (o.count == 1 || gap == o.gap);
                o.gap = gap;
            }
            o.last = p;
            ++o.count;
        }
        std::vector<std::pair<std::size_t, std::size_t>> ranked(gaps.begin(), gaps.end());  // (period, count)
        std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        if (ranked.size() > 32)
            ranked.resize(32);
        std::unordered_map<std::size_t, std::size_t> even;
        for (const auto& [key, o] : seen)
            if (o.count >= 2 && o.even && o.gap >= minUnit && o.gap <= n / 2)
                ++even[o.gap];
        for (const auto& entry : even)  // not a structured binding: clang before 16 cannot capture one in a lambda
            if (std::none_of(ranked.begin(), ranked.end(), [&](const auto& r) { return r.first == entry.first; }))
                ranked.emplace_back(entry.first, entry.second);
        std::optional<Repeat> bestRepeat;
        std::size_t bestCover = 0;
        for (const auto& [period, support] : ranked) {
            (void)support;
            for (std::size_t a = lo; a + period < hi;) {
                std::size_t j = a;
                while (j + period < hi && m_key[static_cast<std::size_t>(m_body[j])] == m_key[static_cast<std::size_t>(m_body[j + period])])
                    ++j;
                const std::size_t length = j - a + period;  // [a, j + period) is periodic
                const std::size_t copies = length / period;
                if (copies >= 2) {
                    const std::size_t cover = copies * period;
                    if (cover > bestCover || (cover == bestCover && bestRepeat && period < bestRepeat->period)) {
                        bestCover = cover;
                        bestRepeat = Repeat{a, period, copies};
                        bestRepeat->start = align(*bestRepeat, length - cover);
                    }
                }
                a = j + 1;
            }
        }
        return bestRepeat;
    }

    // Where a copy starts within the periodic run: the rotation whose cut, in a middle copy, the fewest values cross
    // (counting only values made less than a period before: a layer boundary is crossed by the residual stream alone,
    // a cut inside a layer also by what its halves share). Ties: the earliest.
    std::size_t align(const Repeat& r, std::size_t slack) const
    {
        if (slack == 0 || r.period > 4000)
            return r.start;
        std::size_t bestShift = 0, bestCost = static_cast<std::size_t>(-1);
        const std::size_t middle = r.start + (r.copies / 2) * r.period;
        for (std::size_t s = 0; s <= slack && s < r.period; ++s) {
            const std::size_t cost = crossing(middle + s, r.period);
            if (cost < bestCost) {
                bestCost = cost;
                bestShift = s;
            }
        }
        return r.start + bestShift;
    }

    std::size_t crossing(std::size_t cut, std::size_t period) const
    {
        if (cut < period || cut >= m_body.size())
            return 0;
        const int cutNode = m_body[cut];
        const int from = m_body[cut - period];
        ++m_stampValue;
        std::size_t count = 0;
        for (std::size_t p = cut; p < std::min(m_body.size(), cut + period); ++p)
            forEachNodeRef(m_g.nodes[static_cast<std::size_t>(m_body[p])], [&](int u) {
                if (u >= from && u < cutNode && !isInput(m_g.nodes[static_cast<std::size_t>(u)]) &&
                    m_stamp[static_cast<std::size_t>(u)] != m_stampValue) {
                    m_stamp[static_cast<std::size_t>(u)] = m_stampValue;
                    ++count;
                }
            });
        return count;
    }

    // "modeling_qwen2:47–297" from the file most of the copy's statements come from, and its functions.
    std::pair<std::string, std::string> labelOf(std::size_t lo, std::size_t hi) const
    {
        std::map<std::string_view, std::size_t> byFile;
        for (std::size_t p = lo; p < hi; ++p)
            if (const int s = m_g.nodes[static_cast<std::size_t>(m_body[p])].stack; s >= 0 && !m_g.stacks[static_cast<std::size_t>(s)].file.empty())
                ++byFile[m_g.stacks[static_cast<std::size_t>(s)].file];  // comments of other forms name no file
        if (byFile.empty())
            return {"block", ""};
        const std::string_view file =
            std::max_element(byFile.begin(), byFile.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
        int first = 0, lastLine = 0;
        std::map<std::string_view, std::size_t> functions;
        for (std::size_t p = lo; p < hi; ++p) {
            const int s = m_g.nodes[static_cast<std::size_t>(m_body[p])].stack;
            if (s < 0)
                continue;
            const StackFrame& f = m_g.stacks[static_cast<std::size_t>(s)];
            if (!f.function.empty())
                ++functions[f.function];
            if (f.file != file || f.line <= 0)
                continue;
            first = first == 0 ? f.line : std::min(first, f.line);
            lastLine = std::max(lastLine, f.line);
        }
        std::string label = fileStem(file);
        if (first > 0)
            label += ":" + std::to_string(first) + (lastLine > first ? "–" + std::to_string(lastLine) : "");
        std::vector<std::pair<std::string_view, std::size_t>> fs(functions.begin(), functions.end());
        std::stable_sort(fs.begin(), fs.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::string type;
        for (std::size_t k = 0; k < fs.size() && k < 3; ++k)
            type += (k ? ", " : "") + std::string(fs[k].first) + "()";
        if (fs.size() > 3)
            type += " +" + std::to_string(fs.size() - 3);
        return {label, type};
    }

    struct Task {
        std::size_t lo, hi;
        std::string prefix;
        int depth;
    };

    // Finds the best repeat of a range, makes its copies scopes, then searches what lies before it, after it and
    // inside each copy, in that order (so copies are numbered in program order). A worklist, not recursion: a graph of
    // thousands of different repeats must not run out of stack; and a budget of positions scanned (each search
    // scans its range once per candidate period) keeps an adversarial graph from taking quadratic time.
    void search(std::size_t lo, std::size_t hi, const std::string& prefix, int depth)
    {
        std::vector<Task> work{{lo, hi, prefix, depth}};
        while (!work.empty()) {
            Task t = std::move(work.back());
            work.pop_back();
            if (t.depth > kMaxDepth || t.hi <= t.lo || m_budget < t.hi - t.lo)
                continue;
            m_budget -= t.hi - t.lo;
            const std::optional<Repeat> r = best(t.lo, t.hi);
            if (!r)
                continue;
            const std::vector<std::string> paths = makeCopies(*r, t.prefix, t.depth);
            for (std::size_t k = r->copies; k-- > 0;)
                work.push_back({r->start + k * r->period, r->start + (k + 1) * r->period, paths[k], t.depth + 1});
            work.push_back({r->end(), t.hi, t.prefix, t.depth});
            work.push_back({t.lo, r->start, t.prefix, t.depth});
        }
    }

    // Names the copies of `r` and assigns their nodes; returns each copy's path.
    std::vector<std::string> makeCopies(const Repeat& r, const std::string& prefix, int depth)
    {
        m_found = true;
        auto [label, type] = labelOf(r.start, r.start + r.period);
        std::vector<long> index = numbering(r, depth, prefix, label);
        const std::string base = prefix.empty() ? std::string() : prefix + ".";
        std::vector<std::string> paths;
        for (std::size_t k = 0; k < r.copies; ++k) {
            const std::string path = base + label + " #" + std::to_string(index[k]);
            paths.push_back(path);
            m_types.emplace(path, type);
            for (std::size_t p = r.start + k * r.period; p < r.start + (k + 1) * r.period; ++p) {
                m_path[static_cast<std::size_t>(m_body[p])] = path;
                if (depth == 0 && !m_linkTwins)
                    m_copyOf[static_cast<std::size_t>(m_body[p])] = static_cast<int>(m_copies.size());
            }
            if (depth == 0 && !m_linkTwins)
                m_copies.push_back({path, index[k]});
            if (depth == 0 && m_linkTwins && m_twinOf.size() == r.copies && m_twinOf[k] >= 0)
                m_twins.emplace_back(path, m_copies[static_cast<std::size_t>(m_twinOf[k])].first);
        }
        m_twinOf.clear();
        return paths;
    }

    // Copy numbers: 0, 1, ... (continuing where an earlier run of the same label under the same parent stopped); a
    // backward half's top-level copies take their forward twins' numbers when every copy has a distinct twin.
    std::vector<long> numbering(const Repeat& r, int depth, const std::string& prefix, std::string& label)
    {
        std::vector<long> index(r.copies);
        if (depth == 0 && m_linkTwins && !m_copies.empty()) {
            m_twinOf = twinsOf(r);
            std::vector<char> used(m_copies.size(), 0);
            bool distinct = true;
            std::string twinLabel;
            for (std::size_t k = 0; k < r.copies && distinct; ++k) {
                const int t = m_twinOf[k];
                distinct = t >= 0 && !used[static_cast<std::size_t>(t)];
                if (!distinct)
                    break;
                used[static_cast<std::size_t>(t)] = 1;
                const std::string& path = m_copies[static_cast<std::size_t>(t)].first;
                const std::string l = splitRepeatIndex(path.substr(path.rfind('.') + 1)).first;
                distinct = twinLabel.empty() || twinLabel == l;
                twinLabel = l;
                index[k] = m_copies[static_cast<std::size_t>(t)].second;
            }
            if (distinct && !twinLabel.empty()) {
                label = twinLabel;
                return index;
            }
            m_twinOf.clear();
        }
        long& next = m_nextIndex[prefix + "\x1f" + label];
        for (std::size_t k = 0; k < r.copies; ++k)
            index[k] = next++;
        return index;
    }

    // Per backward copy: the forward copy (index into m_copies) whose values it reads most; -1 if none.
    std::vector<int> twinsOf(const Repeat& r) const
    {
        std::vector<int> out(r.copies, -1);
        for (std::size_t k = 0; k < r.copies; ++k) {
            std::map<int, std::size_t> reads;
            for (std::size_t p = r.start + k * r.period; p < r.start + (k + 1) * r.period; ++p)
                forEachNodeRef(m_g.nodes[static_cast<std::size_t>(m_body[p])], [&](int u) {
                    if (u >= 0 && static_cast<std::size_t>(u) < m_copyOf.size() && m_copyOf[static_cast<std::size_t>(u)] >= 0)
                        ++reads[m_copyOf[static_cast<std::size_t>(u)]];
                });
            if (!reads.empty())
                out[k] = std::max_element(reads.begin(), reads.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
        }
        return out;
    }

public:
    std::map<std::string, std::string> m_types;  // copy path -> its functions

private:
    const Graph& m_g;
    RepeatOptions m_options;
    std::vector<std::uint64_t> m_key;
    std::vector<std::string> m_path;
    std::vector<int> m_body;
    bool m_linkTwins = false;
    bool m_found = false;
    std::vector<int> m_copyOf;                              // node -> forward top-level copy
    std::vector<std::pair<std::string, long>> m_copies;     // forward top-level copies: path, number
    std::vector<int> m_twinOf;                              // of the run being numbered
    std::vector<std::pair<std::string, std::string>> m_twins;
    std::map<std::string, long> m_nextIndex;  // per parent path and label: the next copy number
    std::size_t m_budget = 0;                  // body positions left to scan in this half
    mutable std::vector<unsigned> m_stamp;
    mutable unsigned m_stampValue = 0;
};

// The common leading components of two dotted paths.
std::string commonPath(const std::string& a, const std::string& b)
{
    std::size_t k = 0, lastDot = 0;
    while (k < a.size() && k < b.size() && a[k] == b[k]) {
        ++k;
        if (k < a.size() && a[k] == '.')
            lastDot = k;
    }
    if (k == a.size() && (k == b.size() || b[k] == '.'))
        return a;
    if (k == b.size() && a[k] == '.')
        return b;
    return a.substr(0, lastDot);
}

}  // namespace

std::pair<std::string, long> splitRepeatIndex(const std::string& name)
{
    const std::size_t hash = name.rfind(" #");
    if (hash == std::string::npos || hash + 2 >= name.size() || name.size() - hash > 11)
        return {name, -1};
    long v = 0;
    for (std::size_t i = hash + 2; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return {name, -1};
        v = v * 10 + (name[i] - '0');
    }
    return {name.substr(0, hash), v};
}

ModuleScopes inferRepeatScopes(const Graph& g, const RepeatOptions& options)
{
    ModuleScopes out;
    const std::size_t count = g.nodes.size();
    if (count < options.minGraphNodes || count == 0)
        return out;
    const std::vector<Phase> phase = jointPhases(g);
    std::vector<int> forward, backward;
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (isInput(n) || n.kind == NodeKind::Output)
            continue;
        (phase[i] == Phase::Backward ? backward : forward).push_back(static_cast<int>(i));
    }
    // A joint graph has two halves worth naming; a backward graph (tangents, and a few views of saved values before
    // the first node that reads one) is searched whole.
    const bool joint = forward.size() >= 2 * options.minUnitNodes && backward.size() >= 2 * options.minUnitNodes;
    if (!joint) {
        forward.insert(forward.end(), backward.begin(), backward.end());
        std::sort(forward.begin(), forward.end());
        backward.clear();
    }
    Finder finder(g, options);
    finder.searchHalf(std::move(forward), joint ? "forward" : "", false);
    if (joint)
        finder.searchHalf(std::move(backward), "backward", true);
    if (!finder.found())
        return out;
    std::vector<std::string>& path = finder.paths();
    // Inputs go where all their users in their own phase are (a weight: its layer; a tangent: the backward copy
    // that reads it); an input read across copies stays with the model.
    std::vector<std::optional<std::string>> common(count);
    for (std::size_t j = 0; j < count; ++j) {
        const Node& user = g.nodes[j];
        if (user.kind == NodeKind::Output || isInput(user))
            continue;
        forEachNodeRef(user, [&](int u) {
            if (u < 0 || static_cast<std::size_t>(u) >= count || !isInput(g.nodes[static_cast<std::size_t>(u)]))
                return;
            const std::size_t i = static_cast<std::size_t>(u);
            if (joint && phase[j] != phase[i])
                return;
            common[i] = common[i] ? commonPath(*common[i], path[j]) : path[j];
        });
    }
    for (std::size_t i = 0; i < count; ++i)
        if (common[i])
            path[i] = std::move(*common[i]);
    out.source = ModuleScopes::Source::Repeats;
    out.nodes.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.nodes[i].module = std::move(path[i]);
        out.nodes[i].phase = phase[i];
    }
    out.scopeTypes = std::move(finder.m_types);
    out.twins = std::move(finder.twins());
    return out;
}

}  // namespace fxray::graph
