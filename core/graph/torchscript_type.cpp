#include "graph/torchscript_type.h"

#include "graph/fx_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

namespace fxray::graph {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

[[noreturn]] void fail(const std::string& why, std::string_view type, const SourceLocation& where)
{
    std::string shown(type.substr(0, 160));
    throw Error(why + " in type '" + shown + (type.size() > 160 ? "...'" : "'"), where);
}

// Top-level comma-separated parts of `s` (brackets nest; an unbalanced bracket throws).
std::vector<std::string_view> splitTopLevel(std::string_view s, std::string_view whole, const SourceLocation& where)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0)
                fail("unbalanced '" + std::string(1, c) + "'", whole, where);
        } else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (depth != 0)
        fail("unclosed bracket", whole, where);
    parts.push_back(trim(s.substr(start)));
    return parts;
}

std::optional<std::int64_t> parseInt(std::string_view s)
{
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

SymDim dim(std::string_view s, std::string_view whole, const SourceLocation& where)
{
    auto v = parseInt(s);
    if (!v || *v < 0)
        fail("bad size or stride '" + std::string(s.substr(0, 40)) + "'", whole, where);
    return SymDim::constant(*v);
}

std::optional<Device> parseDevice(std::string_view s)
{
    Device d;
    const std::size_t colon = s.find(':');
    d.type = std::string(s.substr(0, colon));
    if (d.type.empty())
        return std::nullopt;
    for (char c : d.type)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return std::nullopt;
    if (colon != std::string_view::npos) {
        auto index = parseInt(s.substr(colon + 1));
        if (!index || *index < 0 || *index > 1 << 20)
            return std::nullopt;
        d.index = static_cast<int>(*index);
    }
    return d;
}

// The meta is printed as an FX annotation: it must be one the annotation parser reads back (device names,
// sizes whose element count and extent fit int64), so it is checked by that parser's rules.
ValueMeta printable(ValueMeta meta, const SourceLocation& where)
{
    (void)parseAnnotation(formatAnnotation(meta), where);
    return meta;
}

}  // namespace

std::optional<DType> dtypeFromScalarTypeName(std::string_view name)
{
    static const std::pair<std::string_view, DType> kNames[] = {
        {"Float", DType::Float32}, {"Double", DType::Float64}, {"Half", DType::Float16},
        {"BFloat16", DType::BFloat16}, {"Long", DType::Int64}, {"Int", DType::Int32}, {"Short", DType::Int16},
        {"Char", DType::Int8}, {"Byte", DType::UInt8}, {"Bool", DType::Bool}, {"UInt16", DType::UInt16},
        {"UInt32", DType::UInt32}, {"UInt64", DType::UInt64}, {"ComplexHalf", DType::ComplexHalf},
        {"ComplexFloat", DType::Complex64}, {"ComplexDouble", DType::Complex128},
        {"Float8_e4m3fn", DType::Float8_e4m3fn}, {"Float8_e5m2", DType::Float8_e5m2},
        {"Float8_e4m3fnuz", DType::Float8_e4m3fnuz}, {"Float8_e5m2fnuz", DType::Float8_e5m2fnuz},
        {"Float8_e8m0fnu", DType::Float8_e8m0fnu}};
    for (const auto& [n, t] : kNames)
        if (n == name)
            return t;
    return std::nullopt;
}

bool isTorchScriptClassType(std::string_view type)
{
    return trim(type).starts_with("__torch__.");
}

std::optional<ValueMeta> torchScriptTypeMeta(std::string_view typeText, const SourceLocation& where)
{
    const std::string_view type = trim(typeText);
    const std::size_t open = type.find('(');
    if (open == std::string_view::npos || open == 0)
        return std::nullopt;  // Tensor, int, int[], Device, NoneType, classes
    auto dtype = dtypeFromScalarTypeName(type.substr(0, open));
    if (!dtype)
        return std::nullopt;  // tuples "(…)", NamedTuple(…), Dict(…), Optional types …
    if (type.back() != ')')
        fail("tensor type does not end with ')'", type, where);
    TensorMeta t;
    t.dtype = *dtype;
    bool unknownSizes = false;
    bool sawKeyword = false;
    for (std::string_view part : splitTopLevel(type.substr(open + 1, type.size() - open - 2), type, where)) {
        if (part.empty()) {
            if (!t.sizes.empty() || sawKeyword)
                fail("empty entry", type, where);
            continue;  // "Float()": a 0-dim tensor
        }
        const std::size_t eq = part.find('=');
        if (eq == std::string_view::npos) {
            if (sawKeyword)
                fail("size after a keyword entry", type, where);
            if (part == "*")
                unknownSizes = true;
            else
                t.sizes.push_back(dim(part, type, where));
            continue;
        }
        sawKeyword = true;
        const std::string_view key = trim(part.substr(0, eq));
        const std::string_view value = trim(part.substr(eq + 1));
        if (key == "strides") {
            if (value.size() < 2 || value.front() != '[' || value.back() != ']')
                fail("strides are not a [list]", type, where);
            std::vector<SymDim> strides;
            const std::string_view inner = trim(value.substr(1, value.size() - 2));
            if (!inner.empty())
                for (std::string_view s : splitTopLevel(inner, type, where)) {
                    if (s == "*")
                        unknownSizes = true;
                    else
                        strides.push_back(dim(s, type, where));
                }
            if (!unknownSizes)
                t.strides = std::move(strides);
        } else if (key == "device") {
            auto d = parseDevice(value);
            if (!d)
                fail("bad device '" + std::string(value.substr(0, 40)) + "'", type, where);
            t.device = *d;
        } else if (key != "requires_grad" && key != "dtype") {
            // Other annotations the printer may add (e.g. "requires_grad=0") carry nothing fxray checks.
            continue;
        }
    }
    if (unknownSizes)
        return std::nullopt;  // a partially known shape checks nothing reliably
    if (t.strides && t.strides->size() != t.sizes.size())
        fail(std::to_string(t.strides->size()) + " strides for " + std::to_string(t.sizes.size()) + " sizes", type,
             where);
    return printable(ValueMeta::ofTensor(std::move(t)), where);
}

ValueMeta lazyShapeMeta(std::string_view shapeText, const SourceLocation& where)
{
    const std::string_view shape = trim(shapeText);
    const std::size_t open = shape.find('[');
    if (open == std::string_view::npos || shape.back() != ']')
        fail("expected a shape like Float[2,3]", shape, where);
    auto dtype = dtypeFromScalarTypeName(shape.substr(0, open));
    if (!dtype)
        fail("unknown scalar type '" + std::string(shape.substr(0, std::min<std::size_t>(open, 40))) + "'", shape,
             where);
    TensorMeta t;
    t.dtype = *dtype;
    const std::string_view inner = trim(shape.substr(open + 1, shape.size() - open - 2));
    if (!inner.empty())
        for (std::string_view s : splitTopLevel(inner, shape, where))
            t.sizes.push_back(dim(s, shape, where));
    return printable(ValueMeta::ofTensor(std::move(t)), where);
}

}  // namespace fxray::graph
