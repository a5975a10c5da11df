// Parser for print_readable's value annotations: "f32[32, 64][64, 1]cuda:0", "i64[]", "Sym(s0 + 1)".
#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/py_tokenizer.h"
#include "graph/sym_expr.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace fxray::graph {
namespace {

// Text quoted in a message, cut to a readable length (an annotation may be kilobytes of parentheses).
std::string quoted(std::string_view text)
{
    constexpr std::size_t kMax = 120;
    return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "...";
}

[[noreturn]] void fail(const std::string& msg, std::string_view text, const SourceLocation& where)
{
    // The annotation is a decoded string literal: "\x00" in the file is a NUL here.
    throw Error(detail::printableText(msg + " in annotation \"" + quoted(text) + "\""), where);
}

int parenDepth(std::string_view e)
{
    int depth = 0, most = 0;
    for (char c : e) {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        most = std::max(most, depth);
    }
    return most;
}

// A sympy-printed expression: identifiers, integers, + - * / % ** , and parentheses. Kept as text, parsed
// (SymExpr) when replay binds symbols; nesting is bounded here already, so that a file SymExpr would refuse
// is refused at load, with its line and node.
bool validExpr(std::string_view e)
{
    int depth = 0;
    if (e.empty())
        return false;
    for (char c : e) {
        if (c == '(') {
            if (++depth > kMaxSymExprDepth)
                return false;
        } else if (c == ')') {
            if (--depth < 0)
                return false;
        } else if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view(" _+-*/%,.").find(c) != std::string_view::npos))
            return false;
    }
    return depth == 0;
}

SymDim parseDim(std::string_view d, std::string_view whole, const SourceLocation& where)
{
    while (!d.empty() && d.front() == ' ')
        d.remove_prefix(1);
    while (!d.empty() && d.back() == ' ')
        d.remove_suffix(1);
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
    if (ec == std::errc::result_out_of_range && ptr == d.data() + d.size())  // all digits: not a symbol
        fail("size/stride entry '" + std::string(d) + "' is out of int64 range", whole, where);
    if (ec == std::errc() && ptr == d.data() + d.size()) {
        if (v < 0)
            fail("negative size/stride entry '" + std::string(d) + "'", whole, where);
        return SymDim::constant(v);
    }
    if (parenDepth(d) > kMaxSymExprDepth)
        fail("size/stride entry nested deeper than " + std::to_string(kMaxSymExprDepth) + " parentheses", whole, where);
    if (!validExpr(d))
        fail("bad size/stride entry '" + quoted(d) + "'", whole, where);
    return SymDim::symbolic(std::string(d));
}

// Parses "[a, b, Max(1, s0)]" starting at pos (which must be '['); advances pos past ']'.
std::vector<SymDim> parseDims(std::string_view t, std::size_t& pos, const SourceLocation& where)
{
    std::vector<SymDim> dims;
    ++pos;  // '['
    int depth = 0;
    std::size_t start = pos;
    for (; pos < t.size(); ++pos) {
        char c = t[pos];
        if (c == '(')
            ++depth;
        else if (c == ')')
            --depth;
        else if ((c == ',' || c == ']') && depth == 0) {
            std::string_view part = t.substr(start, pos - start);
            bool blank = std::all_of(part.begin(), part.end(), [](char x) { return x == ' '; });
            if (!(blank && c == ']' && dims.empty()))
                dims.push_back(parseDim(part, t, where));
            start = pos + 1;
            if (c == ']') {
                ++pos;
                return dims;
            }
        }
    }
    fail("unterminated '['", t, where);
}

// PyTorch keeps numel and every element's offset in int64: constant sizes whose product, or sizes and strides
// whose last element's offset, does not fit describe no tensor that ever existed (and would overflow every
// later computation of its bytes: input generation, storage checks).
void checkAddressable(const TensorMeta& t, std::string_view text, const SourceLocation& where)
{
    std::int64_t numel = 1, lastOffset = 0;
    bool numelOverflow = false, offsetOverflow = false, empty = false;
    for (std::size_t i = 0; i < t.sizes.size(); ++i) {
        if (!t.sizes[i].isConstant())
            return;  // symbolic: known only once symbols are bound
        const std::int64_t n = *t.sizes[i].value;
        empty = empty || n == 0;
        numelOverflow = numelOverflow || __builtin_mul_overflow(numel, n, &numel);
        if (t.strides && n > 0 && (*t.strides)[i].isConstant()) {
            std::int64_t step = 0;
            offsetOverflow = offsetOverflow || __builtin_mul_overflow(n - 1, *(*t.strides)[i].value, &step) ||
                             __builtin_add_overflow(lastOffset, step, &lastOffset);
        }
    }
    if (empty)
        return;  // no elements: nothing is addressed
    if (numelOverflow)
        fail("sizes multiply to more than 2^63 - 1 elements", text, where);
    if (offsetOverflow)
        fail("sizes and strides address elements beyond offset 2^63 - 1", text, where);
}

}  // namespace

// "Cls(<tensor>[, detail])": a tensor subclass around a tensor annotation (nullopt when text is not one).
static std::optional<ValueMeta> parseSubclass(std::string_view text, const SourceLocation& where)
{
    const std::size_t open = text.find('(');
    if (open == std::string_view::npos || open == 0 || text.back() != ')' || text.rfind("Sym(", 0) == 0 ||
        !std::isupper(static_cast<unsigned char>(text[0])) ||
        !std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
        return std::nullopt;
    const std::string_view inner = text.substr(open + 1, text.size() - open - 2);
    // The tensor ends at the first ", " outside brackets; the rest is the subclass's own text.
    int depth = 0;
    std::size_t split = std::string_view::npos;
    for (std::size_t i = 0; i < inner.size() && split == std::string_view::npos; ++i) {
        depth += inner[i] == '[' || inner[i] == '(' ? 1 : inner[i] == ']' || inner[i] == ')' ? -1 : 0;
        if (depth == 0 && inner[i] == ',')
            split = i;
    }
    ValueMeta meta = parseAnnotation(inner.substr(0, split), where);
    if (!meta.isTensor() || !meta.tensor.subclass.empty())
        fail("a tensor subclass wraps one tensor annotation", text, where);
    meta.tensor.subclass = std::string(text.substr(0, open));
    if (split != std::string_view::npos) {
        std::string_view detail = inner.substr(split + 1);
        while (!detail.empty() && detail.front() == ' ')
            detail.remove_prefix(1);
        meta.tensor.subclassDetail = std::string(detail);
    }
    return meta;
}

ValueMeta parseAnnotation(std::string_view text, const SourceLocation& where)
{
    ValueMeta meta;
    // A Python number without a hint: how an input record's builtins.int / builtins.float prints (formatAnnotation).
    if (text == "int" || text == "float") {
        meta.kind = text == "int" ? ValueMeta::Kind::Int : ValueMeta::Kind::Float;
        return meta;
    }
    if (auto subclass = parseSubclass(text, where))
        return std::move(*subclass);
    if (text.rfind("Sym(", 0) == 0 && text.size() > 5 && text.back() == ')') {
        std::string_view inner = text.substr(4, text.size() - 5);
        if (!validExpr(inner) && inner.find_first_of("<>=!") == std::string_view::npos)
            fail("bad symbolic expression", text, where);
        bool isBool = inner.find_first_of("<>=!") != std::string_view::npos || inner.rfind("Eq(", 0) == 0 ||
                      inner.rfind("Ne(", 0) == 0 || inner == "True" || inner == "False";
        meta.kind = isBool ? ValueMeta::Kind::SymBool : ValueMeta::Kind::SymInt;
        meta.symExpr = std::string(inner);
        return meta;
    }
    std::size_t bracket = text.find('[');
    if (bracket == std::string_view::npos || bracket == 0)
        fail("expected <dtype>[sizes]", text, where);
    std::string_view abbrev = text.substr(0, bracket);
    auto dtype = dtypeFromAbbrev(abbrev);
    if (!dtype)
        fail("unknown dtype '" + std::string(abbrev) + "'", text, where);
    meta.kind = ValueMeta::Kind::Tensor;
    meta.tensor.dtype = *dtype;
    std::size_t pos = bracket;
    meta.tensor.sizes = parseDims(text, pos, where);
    if (pos < text.size() && text[pos] == '[') {
        meta.tensor.strides = parseDims(text, pos, where);
        if (meta.tensor.strides->size() != meta.tensor.sizes.size())
            fail("stride has " + std::to_string(meta.tensor.strides->size()) + " entries but size has " +
                     std::to_string(meta.tensor.sizes.size()),
                 text, where);
    }
    checkAddressable(meta.tensor, text, where);
    if (pos < text.size()) {
        std::string_view dev = text.substr(pos);
        Device d;
        std::size_t colon = dev.find(':');
        d.type = std::string(dev.substr(0, colon));
        if (d.type.empty() || !std::all_of(d.type.begin(), d.type.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }))
            fail("bad device '" + std::string(dev) + "'", text, where);
        if (colon != std::string_view::npos) {
            std::string_view idx = dev.substr(colon + 1);
            int v = 0;
            auto [ptr, ec] = std::from_chars(idx.data(), idx.data() + idx.size(), v);
            if (ec != std::errc() || ptr != idx.data() + idx.size() || v < 0)
                fail("bad device index '" + std::string(idx) + "'", text, where);
            d.index = v;
        }
        meta.tensor.device = d;
    }
    return meta;
}

}  // namespace fxray::graph
