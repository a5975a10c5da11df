#include "base/json.h"

#include "base/error.h"
#include "base/utf8.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <system_error>
#include <unordered_map>

namespace fxray::json {

// ---------------------------------------------------------------------------------------------------------
// Object

namespace {

constexpr std::size_t kIndexThreshold = 32;  // below this a linear scan beats hashing

struct StringViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

}  // namespace

struct Object::Index {
    std::unordered_map<std::string, std::size_t, StringViewHash, std::equal_to<>> positions;
};

Object::Object() = default;

Object::Object(std::initializer_list<Member> members)
{
    m_members.reserve(members.size());
    for (const Member& m : members)
        set(m.first, m.second);
}

Object::Object(const Object& other) : m_members(other.m_members)
{
    if (other.m_index)
        rebuildIndex();
}

Object::Object(Object&& other) noexcept = default;

Object& Object::operator=(const Object& other)
{
    if (this != &other) {
        m_members = other.m_members;
        m_index.reset();
        if (other.m_index)
            rebuildIndex();
    }
    return *this;
}

Object& Object::operator=(Object&& other) noexcept = default;
Object::~Object() = default;

void Object::rebuildIndex()
{
    if (!m_index)
        m_index = std::make_unique<Index>();
    m_index->positions.clear();
    m_index->positions.reserve(m_members.size());
    for (std::size_t i = 0; i < m_members.size(); ++i)
        m_index->positions.emplace(m_members[i].first, i);
}

std::ptrdiff_t Object::position(std::string_view key) const
{
    if (m_index) {
        auto it = m_index->positions.find(key);
        return it == m_index->positions.end() ? -1 : static_cast<std::ptrdiff_t>(it->second);
    }
    for (std::size_t i = 0; i < m_members.size(); ++i) {
        if (m_members[i].first == key)
            return static_cast<std::ptrdiff_t>(i);
    }
    return -1;
}

Value& Object::operator[](std::string_view key)
{
    std::ptrdiff_t pos = position(key);
    if (pos >= 0)
        return m_members[static_cast<std::size_t>(pos)].second;
    m_members.emplace_back(std::string(key), Value());
    if (m_index)
        m_index->positions.emplace(m_members.back().first, m_members.size() - 1);
    else if (m_members.size() > kIndexThreshold)
        rebuildIndex();
    return m_members.back().second;
}

Value& Object::set(std::string_view key, Value value)
{
    Value& slot = (*this)[key];
    slot = std::move(value);
    return slot;
}

Value* Object::find(std::string_view key)
{
    std::ptrdiff_t pos = position(key);
    return pos < 0 ? nullptr : &m_members[static_cast<std::size_t>(pos)].second;
}

const Value* Object::find(std::string_view key) const
{
    std::ptrdiff_t pos = position(key);
    return pos < 0 ? nullptr : &m_members[static_cast<std::size_t>(pos)].second;
}

bool Object::erase(std::string_view key)
{
    std::ptrdiff_t pos = position(key);
    if (pos < 0)
        return false;
    m_members.erase(m_members.begin() + pos);
    if (m_index) {
        if (m_members.size() > kIndexThreshold)
            rebuildIndex();
        else
            m_index.reset();
    }
    return true;
}

std::size_t Object::size() const { return m_members.size(); }
bool Object::empty() const { return m_members.empty(); }
Object::iterator Object::begin() { return m_members.begin(); }
Object::iterator Object::end() { return m_members.end(); }
Object::const_iterator Object::begin() const { return m_members.begin(); }
Object::const_iterator Object::end() const { return m_members.end(); }

// ---------------------------------------------------------------------------------------------------------
// Value

std::string_view typeName(Type type)
{
    switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "bool";
    case Type::Int: return "integer";
    case Type::Double: return "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
    }
    return "?";
}

namespace {

const Value& nullValue()
{
    static const Value null;
    return null;
}

[[noreturn]] void throwTypeError(std::string_view expected, Type actual)
{
    throw Error("JSON: expected " + std::string(expected) + ", got " + std::string(typeName(actual)));
}

}  // namespace

bool Value::asBool() const
{
    if (const bool* b = std::get_if<bool>(&m_data))
        return *b;
    throwTypeError("bool", type());
}

std::int64_t Value::asInt() const
{
    if (const std::int64_t* i = std::get_if<std::int64_t>(&m_data))
        return *i;
    if (const double* d = std::get_if<double>(&m_data)) {
        // 2^63 is exactly representable; anything below it that is integral converts exactly.
        if (std::isfinite(*d) && std::trunc(*d) == *d && *d >= -9223372036854775808.0 && *d < 9223372036854775808.0)
            return static_cast<std::int64_t>(*d);
        throw Error("JSON: number is not an integer in int64 range");
    }
    throwTypeError("integer", type());
}

double Value::asDouble() const
{
    if (const double* d = std::get_if<double>(&m_data))
        return *d;
    if (const std::int64_t* i = std::get_if<std::int64_t>(&m_data))
        return static_cast<double>(*i);
    throwTypeError("number", type());
}

const std::string& Value::asString() const
{
    if (const std::string* s = std::get_if<std::string>(&m_data))
        return *s;
    throwTypeError("string", type());
}

const Array& Value::asArray() const
{
    if (const Array* a = std::get_if<Array>(&m_data))
        return *a;
    throwTypeError("array", type());
}

Array& Value::asArray()
{
    if (Array* a = std::get_if<Array>(&m_data))
        return *a;
    throwTypeError("array", type());
}

const Object& Value::asObject() const
{
    if (const Object* o = std::get_if<Object>(&m_data))
        return *o;
    throwTypeError("object", type());
}

Object& Value::asObject()
{
    if (Object* o = std::get_if<Object>(&m_data))
        return *o;
    throwTypeError("object", type());
}

const Value* Value::find(std::string_view key) const
{
    const Object* o = std::get_if<Object>(&m_data);
    return o ? o->find(key) : nullptr;
}

const Value& Value::operator[](std::string_view key) const
{
    const Value* v = find(key);
    return v ? *v : nullValue();
}

const Value& Value::operator[](std::size_t index) const
{
    const Array* a = std::get_if<Array>(&m_data);
    return a && index < a->size() ? (*a)[index] : nullValue();
}

Value& Value::operator[](std::string_view key)
{
    if (isNull())
        m_data = Object();
    return asObject()[key];
}

Value& Value::operator[](std::size_t index)
{
    Array& a = asArray();
    if (index >= a.size())
        throw Error("JSON: array index " + std::to_string(index) + " out of range (size " + std::to_string(a.size()) + ")");
    return a[index];
}

void Value::push_back(Value v)
{
    if (isNull())
        m_data = Array();
    asArray().push_back(std::move(v));
}

std::size_t Value::size() const
{
    if (const Array* a = std::get_if<Array>(&m_data))
        return a->size();
    if (const Object* o = std::get_if<Object>(&m_data))
        return o->size();
    return 0;
}

std::string Value::stringOr(std::string_view key, std::string_view fallback) const
{
    const Value* v = find(key);
    return v && v->isString() ? v->asString() : std::string(fallback);
}

std::int64_t Value::intOr(std::string_view key, std::int64_t fallback) const
{
    const Value* v = find(key);
    return v && v->isInt() ? v->asInt() : fallback;
}

std::string Value::dump(Style style) const { return write(*this, style); }

bool operator==(const Value& a, const Value& b)
{
    if (a.isNumber() && b.isNumber()) {
        if (a.isInt() && b.isInt())
            return a.asInt() == b.asInt();
        return a.asDouble() == b.asDouble();
    }
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case Type::Null: return true;
    case Type::Bool: return a.asBool() == b.asBool();
    case Type::String: return a.asString() == b.asString();
    case Type::Array: return a.asArray() == b.asArray();
    case Type::Object: {
        const Object& x = a.asObject();
        const Object& y = b.asObject();
        if (x.size() != y.size())
            return false;
        for (const auto& [key, value] : x) {
            const Value* other = y.find(key);
            if (!other || !(*other == value))
                return false;
        }
        return true;
    }
    case Type::Int:
    case Type::Double: break;  // handled above
    }
    return false;
}

namespace {

// ---------------------------------------------------------------------------------------------------------
// Parser

class Parser {
public:
    Parser(std::string_view text, const ParseOptions& options)
        : m_begin(text.data()), m_p(text.data()), m_end(text.data() + text.size()), m_options(options)
    {
    }

    Value parseDocument()
    {
        skipWhitespace();
        Value v = parseValue(0);
        skipWhitespace();
        if (m_p != m_end)
            fail("unexpected content after the JSON value", m_p);
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what, const char* at) const
    {
        const std::size_t offset = static_cast<std::size_t>(at - m_begin);
        int line = 1;
        const char* lineStart = m_begin;
        for (const char* q = m_begin; q < at; ++q) {
            if (*q == '\n') {
                ++line;
                lineStart = q + 1;
            }
        }
        const int column = static_cast<int>(at - lineStart) + 1;
        throw Error("invalid JSON: " + what + " at byte " + std::to_string(offset),
                    SourceLocation{m_options.sourceName, line, column, {}});
    }

    static std::string describe(const char* p, const char* end)
    {
        if (p >= end)
            return "end of input";
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c >= 0x21 && c < 0x7F)
            return std::string("'") + static_cast<char>(c) + "'";
        char buf[16];
        std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
        return buf;
    }

    void skipWhitespace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool consumeLiteral(std::string_view word)
    {
        if (static_cast<std::size_t>(m_end - m_p) >= word.size() && std::memcmp(m_p, word.data(), word.size()) == 0) {
            m_p += word.size();
            return true;
        }
        return false;
    }

    Value parseValue(int depth)
    {
        if (m_p >= m_end)
            fail("unexpected end of input, expected a value", m_p);
        switch (*m_p) {
        case '{': return parseObject(depth + 1);
        case '[': return parseArray(depth + 1);
        case '"': {
            std::string s;
            parseString(s);
            return Value(std::move(s));
        }
        case 't':
            if (consumeLiteral("true"))
                return Value(true);
            break;
        case 'f':
            if (consumeLiteral("false"))
                return Value(false);
            break;
        case 'n':
            if (consumeLiteral("null"))
                return Value();
            break;
        default:
            if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9'))
                return parseNumber();
            break;
        }
        fail("unexpected " + describe(m_p, m_end) + ", expected a value", m_p);
    }

    void checkDepth(int depth, const char* at) const
    {
        if (depth > m_options.maxDepth)
            fail("nesting deeper than " + std::to_string(m_options.maxDepth), at);
    }

    Value parseObject(int depth)
    {
        checkDepth(depth, m_p);
        ++m_p;  // '{'
        Object obj;
        skipWhitespace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            return Value(std::move(obj));
        }
        std::string key;
        for (;;) {
            if (m_p >= m_end || *m_p != '"')
                fail("unexpected " + describe(m_p, m_end) + ", expected a string key", m_p);
            key.clear();
            parseString(key);
            skipWhitespace();
            if (m_p >= m_end || *m_p != ':')
                fail("unexpected " + describe(m_p, m_end) + ", expected ':'", m_p);
            ++m_p;
            skipWhitespace();
            obj.set(key, parseValue(depth));
            skipWhitespace();
            if (m_p < m_end && *m_p == ',') {
                ++m_p;
                skipWhitespace();
                continue;
            }
            if (m_p < m_end && *m_p == '}') {
                ++m_p;
                return Value(std::move(obj));
            }
            fail("unexpected " + describe(m_p, m_end) + ", expected ',' or '}'", m_p);
        }
    }

    Value parseArray(int depth)
    {
        checkDepth(depth, m_p);
        ++m_p;  // '['
        Array arr;
        skipWhitespace();
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
            return Value(std::move(arr));
        }
        for (;;) {
            arr.push_back(parseValue(depth));
            skipWhitespace();
            if (m_p < m_end && *m_p == ',') {
                ++m_p;
                skipWhitespace();
                continue;
            }
            if (m_p < m_end && *m_p == ']') {
                ++m_p;
                return Value(std::move(arr));
            }
            fail("unexpected " + describe(m_p, m_end) + ", expected ',' or ']'", m_p);
        }
    }

    std::uint32_t parseHex4(const char* escapeStart)
    {
        if (m_end - m_p < 4)
            fail("truncated \\u escape", escapeStart);
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_p[i];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                fail("invalid hex digit in \\u escape", m_p + i);
        }
        m_p += 4;
        return v;
    }

    void parseString(std::string& out)
    {
        const char* open = m_p;
        ++m_p;  // '"'
        for (;;) {
            // Copy the run of plain ASCII in one go.
            const char* run = m_p;
            while (m_p < m_end) {
                const unsigned char c = static_cast<unsigned char>(*m_p);
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                    break;
                ++m_p;
            }
            out.append(run, static_cast<std::size_t>(m_p - run));
            if (m_p >= m_end)
                fail("unterminated string", open);
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                ++m_p;
                return;
            }
            if (c < 0x20)
                fail("control character " + describe(m_p, m_end) + " in string (must be escaped)", m_p);
            if (c >= 0x80) {
                const std::size_t n = utf8SequenceLength(std::string_view(m_p, static_cast<std::size_t>(m_end - m_p)), 0);
                if (n == 0)
                    fail("invalid UTF-8 in string", m_p);
                out.append(m_p, n);
                m_p += n;
                continue;
            }
            // Backslash escape.
            const char* escape = m_p;
            ++m_p;
            if (m_p >= m_end)
                fail("unterminated string", open);
            switch (*m_p++) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = parseHex4(escape);
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    fail("lone low surrogate in \\u escape", escape);
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                        fail("high surrogate not followed by a low surrogate", escape);
                    const char* second = m_p;
                    m_p += 2;
                    const std::uint32_t low = parseHex4(second);
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail("high surrogate not followed by a low surrogate", second);
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default: fail("invalid escape " + describe(m_p - 1, m_end) + " in string", escape);
            }
        }
    }

    Value parseNumber()
    {
        const char* start = m_p;
        const char* p = m_p;
        if (*p == '-')
            ++p;
        if (p >= m_end || *p < '0' || *p > '9')
            fail("expected a digit", p);
        const char* intStart = p;
        if (*p == '0') {
            ++p;
            if (p < m_end && *p >= '0' && *p <= '9')
                fail("leading zero in number", intStart);
        } else {
            while (p < m_end && *p >= '0' && *p <= '9')
                ++p;
        }
        const char* intEnd = p;
        bool integral = true;
        const char* fracStart = nullptr;
        if (p < m_end && *p == '.') {
            integral = false;
            ++p;
            fracStart = p;
            if (p >= m_end || *p < '0' || *p > '9')
                fail("expected a digit after '.'", p);
            while (p < m_end && *p >= '0' && *p <= '9')
                ++p;
        }
        const char* fracEnd = p;
        long long exponent = 0;
        if (p < m_end && (*p == 'e' || *p == 'E')) {
            integral = false;
            ++p;
            bool negative = false;
            if (p < m_end && (*p == '+' || *p == '-'))
                negative = *p++ == '-';
            if (p >= m_end || *p < '0' || *p > '9')
                fail("expected a digit in exponent", p);
            while (p < m_end && *p >= '0' && *p <= '9') {
                if (exponent < 1000000)
                    exponent = exponent * 10 + (*p - '0');
                ++p;
            }
            if (negative)
                exponent = -exponent;
        }
        m_p = p;

        if (integral) {
            std::int64_t i = 0;
            auto [ptr, ec] = std::from_chars(start, p, i);
            if (ec == std::errc() && ptr == p)
                return Value(i);
            // Too large for int64: fall through to double.
        }
        double d = 0;
        auto [ptr, ec] = std::from_chars(start, p, d);
        if (ec == std::errc::result_out_of_range) {
            // from_chars reports both overflow and underflow; underflow is a legitimate (signed) zero.
            long long magnitude = exponent;
            const bool intIsZero = intEnd - intStart == 1 && *intStart == '0';
            if (!intIsZero) {
                magnitude += intEnd - intStart;
            } else if (fracStart) {
                const char* q = fracStart;
                while (q < fracEnd && *q == '0')
                    ++q;
                magnitude -= q - fracStart;
            }
            if (magnitude > 0)
                fail("number out of range for a double", start);
            return Value(*start == '-' ? -0.0 : 0.0);
        }
        if (ec != std::errc() || ptr != p)
            fail("invalid number", start);
        return Value(d);
    }

    const char* m_begin;
    const char* m_p;
    const char* m_end;
    const ParseOptions& m_options;
};

// ---------------------------------------------------------------------------------------------------------
// Writer

void writeDouble(std::string& out, double d)
{
    if (!std::isfinite(d)) {
        out += "null";  // JSON has no NaN/Infinity; null is what JavaScript's JSON.stringify writes
        return;
    }
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);
    (void)ec;  // 64 bytes always fit the shortest form of a double
    std::string_view text(buf, static_cast<std::size_t>(ptr - buf));
    out += text;
    // Keep integral doubles doubles when read back ("1.0", as Python writes); exponent forms are already so.
    if (text.find_first_of(".e") == std::string_view::npos)
        out += ".0";
}

void writeIndent(std::string& out, int level)
{
    out += '\n';
    out.append(static_cast<std::size_t>(level) * 2, ' ');
}

void writeValue(std::string& out, const Value& v, Style style, int level)
{
    const bool pretty = style == Style::Pretty;
    switch (v.type()) {
    case Type::Null: out += "null"; return;
    case Type::Bool: out += v.asBool() ? "true" : "false"; return;
    case Type::Int: {
        char buf[24];
        auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v.asInt());
        (void)ec;
        out.append(buf, static_cast<std::size_t>(ptr - buf));
        return;
    }
    case Type::Double: writeDouble(out, v.asDouble()); return;
    case Type::String: writeString(out, v.asString()); return;
    case Type::Array: {
        const Array& a = v.asArray();
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (i)
                out += ',';
            if (pretty)
                writeIndent(out, level + 1);
            writeValue(out, a[i], style, level + 1);
        }
        if (pretty && !a.empty())
            writeIndent(out, level);
        out += ']';
        return;
    }
    case Type::Object: {
        const Object& o = v.asObject();
        out += '{';
        bool first = true;
        for (const auto& [key, value] : o) {
            if (!first)
                out += ',';
            first = false;
            if (pretty)
                writeIndent(out, level + 1);
            writeString(out, key);
            out += pretty ? ": " : ":";
            writeValue(out, value, style, level + 1);
        }
        if (pretty && !o.empty())
            writeIndent(out, level);
        out += '}';
        return;
    }
    }
}

}  // namespace

Value parse(std::string_view text, const ParseOptions& options)
{
    return Parser(text, options).parseDocument();
}

void writeString(std::string& out, std::string_view s)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const auto* run = p;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            ++p;
        out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
        if (p >= end)
            break;
        const unsigned char c = *p;
        if (c >= 0x80) {
            const std::size_t n = utf8SequenceLength(s, static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(s.data())));
            if (n == 0) {
                out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not valid UTF-8
                ++p;
            } else {
                out.append(reinterpret_cast<const char*>(p), n);
                p += n;
            }
            continue;
        }
        ++p;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            break;
        }
    }
    out += '"';
}

void writeTo(std::string& out, const Value& value, Style style)
{
    writeValue(out, value, style, 0);
}

std::string write(const Value& value, Style style)
{
    std::string out;
    writeTo(out, value, style);
    return out;
}

}  // namespace fxray::json
