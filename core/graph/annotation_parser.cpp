// Parser for print_readable's value annotations: "f32[32, 64][64, 1]cuda:0", "i64[]", "Sym(s0 + 1)".
#include "base/error.h"
#include "graph/fx_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace fxray::graph {
namespace {

[[noreturn]] void fail(const std::string& msg, std::string_view text, const SourceLocation& where)
{
    throw Error(msg + " in annotation \"" + std::string(text) + "\"", where);
}

// A sympy-printed expression: identifiers, integers, + - * / % ** , and parentheses. Kept as text.
bool validExpr(std::string_view e)
{
    int depth = 0;
    if (e.empty())
        return false;
    for (char c : e) {
        if (c == '(') {
            ++depth;
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
    if (ec == std::errc() && ptr == d.data() + d.size()) {
        if (v < 0)
            fail("negative size/stride entry '" + std::string(d) + "'", whole, where);
        return SymDim::constant(v);
    }
    if (!validExpr(d))
        fail("bad size/stride entry '" + std::string(d) + "'", whole, where);
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

}  // namespace

ValueMeta parseAnnotation(std::string_view text, const SourceLocation& where)
{
    ValueMeta meta;
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
