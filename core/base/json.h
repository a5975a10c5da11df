#pragma once
// A small JSON value with a strict parser and a writer. Used for every --json output of the CLI and for
// TORCH_TRACE record headers. Objects keep insertion order (output reads in the order it was built, and
// trace headers keep their first key, which names the record). Integers are kept exactly as int64 next to
// doubles, because ids, sizes and byte counts must not lose digits through a double.
//
//   json::Value out = json::Object{};
//   out["graph"] = "mlp_forward_0";
//   out["nodes"] = 42;
//   out["errors"].push_back(json::Object{{"node", "mm"}, {"message", "stride mismatch"}});
//   std::string text = out.dump(json::Style::Pretty);
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace fxray::json {

enum class Type { Null, Bool, Int, Double, String, Array, Object };
std::string_view typeName(Type type);  // "null", "bool", "integer", "number", "string", "array", "object"

class Value;
using Array = std::vector<Value>;

// Insertion-ordered map of string keys to values. Lookup is linear while small; a hash index is built once
// an object grows past a few dozen members so that building large objects key by key stays linear.
class Object {
public:
    using Member = std::pair<std::string, Value>;
    using iterator = std::vector<Member>::iterator;
    using const_iterator = std::vector<Member>::const_iterator;

    Object();
    Object(std::initializer_list<Member> members);  // later duplicates overwrite earlier ones
    Object(const Object& other);
    Object(Object&& other) noexcept;
    Object& operator=(const Object& other);
    Object& operator=(Object&& other) noexcept;
    ~Object();

    // The member named key; inserted as null at the end when absent.
    Value& operator[](std::string_view key);
    // Insert or overwrite; an overwritten member keeps its position (as Python's dict does).
    Value& set(std::string_view key, Value value);
    Value* find(std::string_view key);
    const Value* find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    bool erase(std::string_view key);

    std::size_t size() const;
    bool empty() const;
    iterator begin();
    iterator end();
    const_iterator begin() const;
    const_iterator end() const;
    const std::vector<Member>& members() const { return m_members; }

private:
    struct Index;
    std::ptrdiff_t position(std::string_view key) const;
    void rebuildIndex();

    std::vector<Member> m_members;
    std::unique_ptr<Index> m_index;  // null while the object is small
};

enum class Style {
    Compact,  // no whitespace at all: {"a":1,"b":[1,2]}
    Pretty,   // two-space indent, one member/element per line, "key": value; empty containers as {} and []
};

class Value {
public:
    Value() noexcept = default;
    Value(std::nullptr_t) noexcept {}
    Value(bool b) : m_data(b) {}
    // Every integer type lands in int64; unsigned values above INT64_MAX become doubles (lossy, and rare).
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    Value(T v)
    {
        if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
            if (v > static_cast<T>(INT64_MAX)) {
                m_data = static_cast<double>(v);
                return;
            }
        }
        m_data = static_cast<std::int64_t>(v);
    }
    Value(double d) : m_data(d) {}
    Value(const char* s) : m_data(std::string(s)) {}
    Value(std::string s) : m_data(std::move(s)) {}
    Value(std::string_view s) : m_data(std::string(s)) {}
    Value(Array a) : m_data(std::move(a)) {}
    Value(Object o) : m_data(std::move(o)) {}
    // Any other pointer would silently become a bool.
    template <class T>
    Value(const T*) = delete;

    Type type() const { return static_cast<Type>(m_data.index()); }
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isInt() const { return type() == Type::Int; }
    bool isDouble() const { return type() == Type::Double; }
    bool isNumber() const { return isInt() || isDouble(); }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }

    // Checked accessors: throw fxray::Error naming the expected and the actual type.
    bool asBool() const;
    std::int64_t asInt() const;  // an integer, or a double with an integral value inside int64's range
    double asDouble() const;     // any number
    const std::string& asString() const;
    const Array& asArray() const;
    Array& asArray();
    const Object& asObject() const;
    Object& asObject();

    // Reading lookups never throw: a missing key, an index out of range or a non-container gives null,
    // so optional fields chain: header["artifact"]["name"].
    const Value& operator[](std::string_view key) const;
    const Value& operator[](std::size_t index) const;
    const Value* find(std::string_view key) const;
    // Writing lookups: null turns into an object (array for push_back); other types throw fxray::Error.
    Value& operator[](std::string_view key);
    Value& operator[](std::size_t index);  // throws when out of range
    void push_back(Value v);

    std::size_t size() const;  // elements or members; 0 for scalars
    bool empty() const { return size() == 0; }

    // Optional-field helpers for readers: fallback when absent or of another type.
    std::string stringOr(std::string_view key, std::string_view fallback) const;
    std::int64_t intOr(std::string_view key, std::int64_t fallback) const;

    std::string dump(Style style = Style::Compact) const;

    // Deep equality; numbers compare by value (1 == 1.0), objects ignore member order.
    friend bool operator==(const Value& a, const Value& b);

private:
    std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> m_data;
};

struct ParseOptions {
    int maxDepth = 512;      // nesting of arrays/objects; deeper input is an error, never a stack overflow
    std::string sourceName;  // file named in errors, when known
};

// Strict RFC 8259: one value, optional surrounding whitespace, nothing else. No comments, trailing commas,
// NaN/Infinity, leading zeros or control characters in strings. Strings must be valid UTF-8 (passed through
// as is); \uXXXX escapes decode to UTF-8, surrogate pairs combined, lone surrogates rejected. Integer
// literals that fit int64 become Type::Int, other numbers Type::Double. Duplicate keys: the last wins.
// Errors throw fxray::Error whose message ends with "at byte <offset>" (0-based) and whose location has the
// 1-based line and column.
Value parse(std::string_view text, const ParseOptions& options = {});

// Integers print exactly; doubles print the shortest text that reads back to the same double, with ".0"
// added to integral values so they stay doubles; NaN and infinities print as null. Strings are escaped
// minimally (", \, control characters); invalid UTF-8 bytes are written as U+FFFD so output is always valid.
std::string write(const Value& value, Style style = Style::Compact);
void writeTo(std::string& out, const Value& value, Style style = Style::Compact);
// A JSON string literal, quotes included.
void writeString(std::string& out, std::string_view s);

}  // namespace fxray::json
