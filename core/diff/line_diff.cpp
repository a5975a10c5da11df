#include "diff/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace fxray::diff {
namespace {

// Myers' linear-space divide and conquer: strip the common prefix and suffix, find the middle snake of the rest
// (forward and reverse searches meeting), recurse on both sides of it. Each half has at most half the edits, so the
// recursion is O(log D) deep and every level keeps O(N) state.
class Lcs {
public:
    Lcs(const std::vector<int>& a, const std::vector<int>& b, std::size_t maxEdits)
        : m_a(a), m_b(b), m_maxHalf(static_cast<std::int64_t>(maxEdits / 2 + 1))
    {
    }

    std::vector<std::pair<std::size_t, std::size_t>> run()
    {
        solve(0, m_a.size(), 0, m_b.size());
        return std::move(m_out);
    }

private:
    void solve(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1)
    {
        while (a0 < a1 && b0 < b1 && m_a[a0] == m_b[b0])
            m_out.emplace_back(a0++, b0++);
        std::size_t suffix = 0;
        while (a0 < a1 - suffix && b0 < b1 - suffix && m_a[a1 - suffix - 1] == m_b[b1 - suffix - 1])
            ++suffix;
        a1 -= suffix;
        b1 -= suffix;
        if (a0 < a1 && b0 < b1) {
            std::size_t x = 0, y = 0;
            // No split (edit budget spent): the region counts as replaced, which is still a correct diff.
            if (bisect(a0, a1, b0, b1, x, y) && !(x == a0 && y == b0) && !(x == a1 && y == b1)) {
                solve(a0, x, b0, y);
                solve(x, a1, y, b1);
            }
        }
        for (std::size_t k = 0; k < suffix; ++k)
            m_out.emplace_back(a1 + k, b1 + k);
    }

    // The middle snake of [a0, a1) x [b0, b1); (x, y) is where the forward and reverse paths meet.
    bool bisect(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, std::size_t& x, std::size_t& y)
    {
        const std::int64_t n = static_cast<std::int64_t>(a1 - a0), m = static_cast<std::int64_t>(b1 - b0);
        const std::int64_t maxD = std::min((n + m + 1) / 2, m_maxHalf);
        const std::int64_t off = maxD + 1, len = 2 * maxD + 3;
        std::vector<std::int64_t> v1(static_cast<std::size_t>(len), -1), v2(static_cast<std::size_t>(len), -1);
        v1[static_cast<std::size_t>(off + 1)] = 0;
        v2[static_cast<std::size_t>(off + 1)] = 0;
        const std::int64_t delta = n - m;
        const bool front = (delta & 1) != 0;  // odd delta: the paths meet during a forward step
        const auto A = [&](std::int64_t i) { return m_a[a0 + static_cast<std::size_t>(i)]; };
        const auto B = [&](std::int64_t j) { return m_b[b0 + static_cast<std::size_t>(j)]; };
        const auto at = [](std::vector<std::int64_t>& v, std::int64_t i) -> std::int64_t& { return v[static_cast<std::size_t>(i)]; };
        std::int64_t k1start = 0, k1end = 0, k2start = 0, k2end = 0;
        for (std::int64_t d = 0; d < maxD; ++d) {
            for (std::int64_t k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
                const std::int64_t i1 = off + k1;
                std::int64_t x1 = (k1 == -d || (k1 != d && at(v1, i1 - 1) < at(v1, i1 + 1))) ? at(v1, i1 + 1) : at(v1, i1 - 1) + 1;
                std::int64_t y1 = x1 - k1;
                while (x1 < n && y1 < m && A(x1) == B(y1)) {
                    ++x1;
                    ++y1;
                }
                at(v1, i1) = x1;
                if (x1 > n) {
                    k1end += 2;  // ran off the right edge
                } else if (y1 > m) {
                    k1start += 2;  // ran off the bottom edge
                } else if (front) {
                    const std::int64_t i2 = off + delta - k1;
                    if (i2 >= 0 && i2 < len && at(v2, i2) != -1 && x1 >= n - at(v2, i2)) {
                        x = a0 + static_cast<std::size_t>(x1);
                        y = b0 + static_cast<std::size_t>(y1);
                        return true;
                    }
                }
            }
            for (std::int64_t k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
                const std::int64_t i2 = off + k2;
                std::int64_t x2 = (k2 == -d || (k2 != d && at(v2, i2 - 1) < at(v2, i2 + 1))) ? at(v2, i2 + 1) : at(v2, i2 - 1) + 1;
                std::int64_t y2 = x2 - k2;
                while (x2 < n && y2 < m && A(n - x2 - 1) == B(m - y2 - 1)) {
                    ++x2;
                    ++y2;
                }
                at(v2, i2) = x2;
                if (x2 > n) {
                    k2end += 2;
                } else if (y2 > m) {
                    k2start += 2;
                } else if (!front) {
                    const std::int64_t i1 = off + delta - k2;
                    if (i1 >= 0 && i1 < len && at(v1, i1) != -1) {
                        const std::int64_t x1 = at(v1, i1);
                        const std::int64_t y1 = x1 - (i1 - off);
                        if (x1 >= n - x2) {
                            x = a0 + static_cast<std::size_t>(x1);
                            y = b0 + static_cast<std::size_t>(y1);
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    const std::vector<int>& m_a;
    const std::vector<int>& m_b;
    std::int64_t m_maxHalf;
    std::vector<std::pair<std::size_t, std::size_t>> m_out;
};

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> commonSubsequence(const std::vector<int>& a, const std::vector<int>& b,
                                                                   std::size_t maxEdits)
{
    return Lcs(a, b, maxEdits).run();
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string unifiedDiff(std::string_view a, std::string_view b, std::string_view labelA, std::string_view labelB,
                        int context)
{
    const std::vector<std::string_view> la = splitLines(a), lb = splitLines(b);
    std::unordered_map<std::string_view, int> ids;
    ids.reserve(la.size() + lb.size());
    const auto tokens = [&](const std::vector<std::string_view>& lines) {
        std::vector<int> out;
        out.reserve(lines.size());
        for (std::string_view l : lines)
            out.push_back(ids.emplace(l, static_cast<int>(ids.size())).first->second);
        return out;
    };
    const std::vector<int> ta = tokens(la), tb = tokens(lb);
    const auto common = commonSubsequence(ta, tb);

    // The edit script: ' ' keep, '-' delete from a, '+' insert from b; with the line positions before each op.
    struct Op {
        char kind;
        std::size_t a, b;
    };
    std::vector<Op> ops;
    ops.reserve(la.size() + lb.size());
    std::size_t i = 0, j = 0;
    const auto until = [&](std::size_t ea, std::size_t eb) {
        for (; i < ea; ++i)
            ops.push_back({'-', i, j});
        for (; j < eb; ++j)
            ops.push_back({'+', i, j});
    };
    for (const auto& [ca, cb] : common) {
        until(ca, cb);
        ops.push_back({' ', i++, j++});
    }
    until(la.size(), lb.size());

    std::string out;
    const std::size_t ctx = static_cast<std::size_t>(std::max(context, 0));
    std::size_t k = 0;
    while (k < ops.size()) {
        while (k < ops.size() && ops[k].kind == ' ')
            ++k;
        if (k == ops.size())
            break;
        const std::size_t first = k >= ctx ? k - ctx : 0;
        // Extend the hunk while the next change is within 2 * context lines of the last one.
        std::size_t last = k;
        for (std::size_t s = k + 1; s < ops.size() && s <= last + 2 * ctx + 1; ++s)
            if (ops[s].kind != ' ')
                last = s;
        const std::size_t end = std::min(ops.size(), last + ctx + 1);
        std::size_t countA = 0, countB = 0;
        for (std::size_t s = first; s < end; ++s) {
            countA += ops[s].kind != '+';
            countB += ops[s].kind != '-';
        }
        if (out.empty())
            out += "--- " + std::string(labelA) + "\n+++ " + std::string(labelB) + "\n";
        const auto range = [](std::size_t start, std::size_t count) {
            std::string r = std::to_string(count == 0 ? start : start + 1);
            return count == 1 ? r : r + "," + std::to_string(count);
        };
        out += "@@ -" + range(ops[first].a, countA) + " +" + range(ops[first].b, countB) + " @@\n";
        for (std::size_t s = first; s < end; ++s) {
            out += ops[s].kind;
            out += ops[s].kind == '+' ? lb[ops[s].b] : la[ops[s].a];
            out += '\n';
        }
        k = end;
    }
    return out;
}

}  // namespace fxray::diff
