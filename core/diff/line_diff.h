#pragma once
// Sequence and text diffs: Myers' O(ND) algorithm in its linear-space form (the middle-snake bisection), so two
// 20,000-line files with a few changes cost milliseconds and O(N) memory, not an N x M table.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxray::diff {

// A longest common subsequence of a and b: pairs (i, j) with a[i] == b[j], increasing in both. When the edit
// distance would exceed `maxEdits` (pathological, nearly disjoint inputs) a smaller common subsequence may be
// returned: the diff stays correct, only less minimal.
std::vector<std::pair<std::size_t, std::size_t>> commonSubsequence(const std::vector<int>& a, const std::vector<int>& b,
                                                                   std::size_t maxEdits = 20000);

// Lines of text without their '\n'; a final line without '\n' counts as a line.
std::vector<std::string_view> splitLines(std::string_view text);

// `diff -u` style: "--- labelA", "+++ labelB", "@@ -l,n +l,n @@" hunks with `context` lines around each change.
// Empty when the texts are equal.
std::string unifiedDiff(std::string_view a, std::string_view b, std::string_view labelA, std::string_view labelB,
                        int context = 3);

}  // namespace fxray::diff
