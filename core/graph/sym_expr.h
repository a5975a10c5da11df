#pragma once
// Sympy-printed integer expressions as they appear in annotations ("s0", "2*s0 + 1", "(s0//2)",
// "Max(1, s0)", "FloorDiv(s0, 4)", "s0**2"): parsed once, evaluated with bound symbols during replay checks.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxray::graph {

// How deeply SymExpr::parse nests (parentheses, unary signs): it recurses, and annotations are short.
inline constexpr int kMaxSymExprDepth = 200;

class SymExpr {
public:
    // Throws fxray::Error with the text and position on anything it does not understand.
    static SymExpr parse(std::string_view text);

    using Bindings = std::map<std::string, std::int64_t, std::less<>>;
    // Value under the bindings; std::nullopt when a symbol is unbound or the arithmetic is undefined (x // 0).
    std::optional<std::int64_t> evaluate(const Bindings& bindings) const;
    // The bare symbol when the expression is just one ("s0"), else empty.
    std::string singleSymbol() const;
    std::vector<std::string> symbols() const;

    struct Node;

private:
    std::shared_ptr<const Node> m_root;
};

}  // namespace fxray::graph
