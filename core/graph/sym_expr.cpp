#include "graph/sym_expr.h"

#include "base/error.h"

#include <cctype>
#include <charconv>
#include <set>

namespace fxray::graph {

struct SymExpr::Node {
    enum class Kind { Int, Symbol, Neg, Add, Sub, Mul, FloorDiv, TrueDiv, Mod, Pow, Call };
    Kind kind = Kind::Int;
    std::int64_t value = 0;
    std::string name;  // Symbol name or Call function
    std::vector<std::shared_ptr<const Node>> kids;
};

namespace {

using NodePtr = std::shared_ptr<const SymExpr::Node>;
using Kind = SymExpr::Node::Kind;

// Annotations are short; anything longer is not a size expression, and the limit bounds recursion depth.
constexpr std::size_t kMaxExprLength = 4096;
constexpr int kMaxDepth = kMaxSymExprDepth;

class Parser {
public:
    explicit Parser(std::string_view t) : m_t(t) {}

    NodePtr run()
    {
        if (m_t.size() > kMaxExprLength)
            fail("expression longer than " + std::to_string(kMaxExprLength) + " characters");
        NodePtr e = additive();
        skip();
        if (m_p != m_t.size())
            fail("unexpected '" + std::string(1, m_t[m_p]) + "'");
        return e;
    }

private:
    void skip()
    {
        while (m_p < m_t.size() && m_t[m_p] == ' ')
            ++m_p;
    }
    bool eat(std::string_view s)
    {
        skip();
        if (m_t.substr(m_p, s.size()) == s) {
            m_p += s.size();
            return true;
        }
        return false;
    }
    [[noreturn]] void fail(const std::string& msg) const
    {
        throw Error(msg + " at column " + std::to_string(m_p + 1) + " of size expression \"" + std::string(m_t) + "\"");
    }
    static NodePtr make(Kind k, std::vector<NodePtr> kids, std::int64_t v = 0, std::string name = {})
    {
        auto n = std::make_shared<SymExpr::Node>();
        n->kind = k;
        n->kids = std::move(kids);
        n->value = v;
        n->name = std::move(name);
        return n;
    }

    NodePtr additive()
    {
        NodePtr l = multiplicative();
        while (true) {
            if (eat("+"))
                l = make(Kind::Add, {l, multiplicative()});
            else if (eat("-"))
                l = make(Kind::Sub, {l, multiplicative()});
            else
                return l;
        }
    }
    NodePtr multiplicative()
    {
        NodePtr l = unary();
        while (true) {
            skip();
            if (m_t.substr(m_p, 2) == "**")
                return l;  // handled in power()
            if (eat("//"))
                l = make(Kind::FloorDiv, {l, unary()});
            else if (eat("*"))
                l = make(Kind::Mul, {l, unary()});
            else if (eat("/"))
                l = make(Kind::TrueDiv, {l, unary()});
            else if (eat("%"))
                l = make(Kind::Mod, {l, unary()});
            else
                return l;
        }
    }
    NodePtr unary()
    {
        if (++m_depth > kMaxDepth)
            fail("expression nested deeper than " + std::to_string(kMaxDepth));
        struct Leave {
            int& d;
            ~Leave() { --d; }
        } leave{m_depth};
        if (eat("-"))
            return make(Kind::Neg, {unary()});
        if (eat("+"))
            return unary();
        return power();
    }
    NodePtr power()
    {
        NodePtr base = atom();
        if (eat("**"))
            return make(Kind::Pow, {base, unary()});
        return base;
    }
    NodePtr atom()
    {
        skip();
        if (m_p >= m_t.size())
            fail("unexpected end");
        if (eat("(")) {
            NodePtr e = additive();
            if (!eat(")"))
                fail("expected ')'");
            return e;
        }
        char c = m_t[m_p];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            std::int64_t v = 0;
            auto [ptr, ec] = std::from_chars(m_t.data() + m_p, m_t.data() + m_t.size(), v);
            if (ec != std::errc())
                fail("bad integer");
            m_p = static_cast<std::size_t>(ptr - m_t.data());
            return make(Kind::Int, {}, v);
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t s = m_p;
            while (m_p < m_t.size() && (std::isalnum(static_cast<unsigned char>(m_t[m_p])) || m_t[m_p] == '_'))
                ++m_p;
            std::string name(m_t.substr(s, m_p - s));
            if (eat("(")) {
                std::vector<NodePtr> args;
                if (!eat(")")) {
                    do {
                        args.push_back(additive());
                    } while (eat(","));
                    if (!eat(")"))
                        fail("expected ')' after arguments of " + name);
                }
                static const std::set<std::string> kFunctions = {
                    "Max", "Min", "floor", "ceiling", "FloorDiv", "CeilDiv", "Mod", "PythonMod", "Abs",
                    "CleanDiv", "IntTrueDiv", "FloorToInt", "CeilToInt", "TruncToInt", "ModularIndexing", "Identity"};
                if (!kFunctions.count(name))
                    fail("unknown function '" + name + "'");
                return make(Kind::Call, std::move(args), 0, name);
            }
            return make(Kind::Symbol, {}, 0, name);
        }
        fail("unexpected '" + std::string(1, c) + "'");
    }

    std::string_view m_t;
    std::size_t m_p = 0;
    int m_depth = 0;
};

// Python's floor division; nullopt where it is undefined or overflows (x // 0, INT64_MIN // -1).
std::optional<std::int64_t> floorDiv(std::int64_t a, std::int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return std::nullopt;
    std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<std::int64_t> pythonMod(std::int64_t a, std::int64_t b)
{
    auto q = floorDiv(a, b);
    if (!q)
        return std::nullopt;
    return a - *q * b;  // |a - q*b| < |b|: no overflow
}

std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}
std::optional<std::int64_t> checkedSub(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}
std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
}

std::optional<std::int64_t> eval(const SymExpr::Node& n, const SymExpr::Bindings& b);

// a / b rounded as f rounds it, where the quotient is a true division: CeilToInt(IntTrueDiv(s, 32)) is how torch
// writes ceil(s / 32) (CUDA's memory-efficient attention pads its logsumexp to 32 columns); floor division would
// make it 0 for s < 32. nullopt where the node is no such rounding of a quotient.
std::optional<std::int64_t> roundedQuotient(const SymExpr::Node& n, const SymExpr::Bindings& b)
{
    const std::string& f = n.name;
    const bool ceil = f == "ceiling" || f == "CeilToInt";
    const bool trunc = f == "TruncToInt";
    if (n.kind != Kind::Call || n.kids.size() != 1 || !(ceil || trunc || f == "floor" || f == "FloorToInt"))
        return std::nullopt;
    const SymExpr::Node& q = *n.kids[0];
    const bool trueDiv = q.kind == Kind::TrueDiv || (q.kind == Kind::Call && q.name == "IntTrueDiv");
    if (!trueDiv || q.kids.size() != 2)
        return std::nullopt;
    auto num = eval(*q.kids[0], b);
    auto den = eval(*q.kids[1], b);
    if (!num || !den || *den == 0 || *num == INT64_MIN)
        return std::nullopt;
    const bool negative = (*num < 0) != (*den < 0);
    if (ceil || (trunc && negative)) {
        auto down = floorDiv(-*num, *den);  // ceil(a / b) = -floor(-a / b)
        return down && *down != INT64_MIN ? std::optional(-*down) : std::nullopt;
    }
    return floorDiv(*num, *den);
}

std::optional<std::int64_t> eval(const SymExpr::Node& n, const SymExpr::Bindings& b)
{
    auto arg = [&](std::size_t i) { return eval(*n.kids[i], b); };
    if (n.kind == Kind::Call)
        if (auto r = roundedQuotient(n, b))
            return r;
    switch (n.kind) {
    case Kind::Int: return n.value;
    case Kind::Symbol: {
        auto it = b.find(n.name);
        if (it == b.end())
            return std::nullopt;
        return it->second;
    }
    case Kind::Neg: {
        auto v = arg(0);
        return v && *v != INT64_MIN ? std::optional(-*v) : std::nullopt;
    }
    default: break;
    }
    std::vector<std::int64_t> v;
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
        auto x = arg(i);
        if (!x)
            return std::nullopt;
        v.push_back(*x);
    }
    switch (n.kind) {
    case Kind::Add: return checkedAdd(v[0], v[1]);
    case Kind::Sub: return checkedSub(v[0], v[1]);
    case Kind::Mul: return checkedMul(v[0], v[1]);
    case Kind::FloorDiv:
    case Kind::TrueDiv:  // sizes divide exactly where sympy prints '/'
        return floorDiv(v[0], v[1]);
    case Kind::Mod: return pythonMod(v[0], v[1]);
    case Kind::Pow: {
        if (v[1] < 0)
            return std::nullopt;
        std::optional<std::int64_t> r = 1;
        for (std::int64_t k = 0; k < v[1] && r; ++k) {
            r = checkedMul(*r, v[0]);
            if (r && (*r == 0 || *r == 1) && (v[0] == 0 || v[0] == 1))
                break;  // 0**n and 1**n: no need to loop to n
        }
        return r;
    }
    case Kind::Call: {
        const std::string& f = n.name;
        if ((f == "Max" || f == "Min") && !v.empty()) {
            std::int64_t r = v[0];
            for (auto x : v)
                r = f == "Max" ? std::max(r, x) : std::min(r, x);
            return r;
        }
        if ((f == "floor" || f == "ceiling" || f == "FloorToInt" || f == "CeilToInt" || f == "TruncToInt" ||
             f == "Abs" || f == "Identity") && v.size() == 1) {
            if (f == "Abs" && v[0] == INT64_MIN)
                return std::nullopt;
            return f == "Abs" ? (v[0] < 0 ? -v[0] : v[0]) : v[0];
        }
        if ((f == "FloorDiv" || f == "CleanDiv" || f == "IntTrueDiv") && v.size() == 2)
            return floorDiv(v[0], v[1]);
        if (f == "CeilDiv" && v.size() == 2 && v[0] != INT64_MIN) {
            auto q = floorDiv(-v[0], v[1]);
            return q && *q != INT64_MIN ? std::optional(-*q) : std::nullopt;
        }
        if ((f == "Mod" || f == "PythonMod") && v.size() == 2)
            return pythonMod(v[0], v[1]);
        if (f == "ModularIndexing" && v.size() == 3) {
            auto q = floorDiv(v[0], v[1]);
            return q ? pythonMod(*q, v[2]) : std::nullopt;
        }
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

void collect(const SymExpr::Node& n, std::set<std::string>& out)
{
    if (n.kind == Kind::Symbol)
        out.insert(n.name);
    for (const auto& k : n.kids)
        collect(*k, out);
}

}  // namespace

SymExpr SymExpr::parse(std::string_view text)
{
    SymExpr e;
    e.m_root = Parser(text).run();
    return e;
}

std::optional<std::int64_t> SymExpr::evaluate(const Bindings& bindings) const
{
    return m_root ? eval(*m_root, bindings) : std::nullopt;
}

std::string SymExpr::singleSymbol() const
{
    return m_root && m_root->kind == Kind::Symbol ? m_root->name : std::string();
}

std::vector<std::string> SymExpr::symbols() const
{
    std::set<std::string> s;
    if (m_root)
        collect(*m_root, s);
    return {s.begin(), s.end()};
}

}  // namespace fxray::graph
