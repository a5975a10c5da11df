#include "io/pickle.h"

#include "base/error.h"
#include "base/utf8.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <unordered_map>

namespace fxray::io {
namespace {

// Opcodes of pickle protocols 0-5 (CPython Lib/pickle.py).
enum Op : unsigned char {
    MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I', BININT = 'J',
    BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P', BINPERSID = 'Q', REDUCE = 'R',
    STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U', UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a',
    BUILD = 'b', GLOBAL = 'c', DICT = 'd', EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h',
    INST = 'i', LONG_BINGET = 'j', LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q',
    LONG_BINPUT = 'r', SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
    PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85, TUPLE2 = 0x86,
    TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b,
    BINBYTES = 'B', SHORT_BINBYTES = 'C',
    SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e, EMPTY_SET = 0x8f, ADDITEMS = 0x90,
    FROZENSET = 0x91, NEWOBJ_EX = 0x92, STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95,
    BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97, READONLY_BUFFER = 0x98,
};

std::string_view opName(unsigned char op)
{
    switch (op) {
    case MARK: return "MARK"; case STOP: return "STOP"; case POP: return "POP"; case POP_MARK: return "POP_MARK";
    case DUP: return "DUP"; case FLOAT: return "FLOAT"; case INT: return "INT"; case BININT: return "BININT";
    case BININT1: return "BININT1"; case LONG: return "LONG"; case BININT2: return "BININT2";
    case NONE: return "NONE"; case PERSID: return "PERSID"; case BINPERSID: return "BINPERSID";
    case REDUCE: return "REDUCE"; case STRING: return "STRING"; case BINSTRING: return "BINSTRING";
    case SHORT_BINSTRING: return "SHORT_BINSTRING"; case UNICODE: return "UNICODE";
    case BINUNICODE: return "BINUNICODE"; case APPEND: return "APPEND"; case BUILD: return "BUILD";
    case GLOBAL: return "GLOBAL"; case DICT: return "DICT"; case EMPTY_DICT: return "EMPTY_DICT";
    case APPENDS: return "APPENDS"; case GET: return "GET"; case BINGET: return "BINGET"; case INST: return "INST";
    case LONG_BINGET: return "LONG_BINGET"; case LIST: return "LIST"; case EMPTY_LIST: return "EMPTY_LIST";
    case OBJ: return "OBJ"; case PUT: return "PUT"; case BINPUT: return "BINPUT";
    case LONG_BINPUT: return "LONG_BINPUT";
    case SETITEM: return "SETITEM"; case TUPLE: return "TUPLE"; case EMPTY_TUPLE: return "EMPTY_TUPLE";
    case SETITEMS: return "SETITEMS"; case BINFLOAT: return "BINFLOAT"; case PROTO: return "PROTO";
    case NEWOBJ: return "NEWOBJ"; case EXT1: return "EXT1"; case EXT2: return "EXT2"; case EXT4: return "EXT4";
    case TUPLE1: return "TUPLE1"; case TUPLE2: return "TUPLE2"; case TUPLE3: return "TUPLE3";
    case NEWTRUE: return "NEWTRUE"; case NEWFALSE: return "NEWFALSE"; case LONG1: return "LONG1";
    case LONG4: return "LONG4"; case BINBYTES: return "BINBYTES"; case SHORT_BINBYTES: return "SHORT_BINBYTES";
    case SHORT_BINUNICODE: return "SHORT_BINUNICODE"; case BINUNICODE8: return "BINUNICODE8";
    case BINBYTES8: return "BINBYTES8"; case EMPTY_SET: return "EMPTY_SET"; case ADDITEMS: return "ADDITEMS";
    case FROZENSET: return "FROZENSET"; case NEWOBJ_EX: return "NEWOBJ_EX"; case STACK_GLOBAL: return "STACK_GLOBAL";
    case MEMOIZE: return "MEMOIZE"; case FRAME: return "FRAME"; case BYTEARRAY8: return "BYTEARRAY8";
    case NEXT_BUFFER: return "NEXT_BUFFER"; case READONLY_BUFFER: return "READONLY_BUFFER";
    default: return {};
    }
}

std::string hexByte(unsigned char c)
{
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("0x") + kHex[c >> 4] + kHex[c & 15];
}

// Text from the file, made safe to print inside an error message.
std::string printable(std::string_view s, std::size_t maxChars = 80)
{
    std::string out;
    for (unsigned char c : s) {
        if (out.size() >= maxChars) {
            out += "...";
            break;
        }
        if (c == '\\' || c == '\'') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else if (c >= 0x80) {
            out += static_cast<char>(c);  // UTF-8 passes through
        } else {
            out += "\\x";
            out += hexByte(c).substr(2);
        }
    }
    return out;
}

// UTF-8 text -> latin-1 bytes; false when the text is not valid UTF-8 or has a code point above U+00FF.
bool utf8ToLatin1(std::string_view in, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < in.size();) {
        const auto c = static_cast<unsigned char>(in[i]);
        if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else if ((c & 0xE0) == 0xC0 && i + 1 < in.size()) {
            const auto c2 = static_cast<unsigned char>(in[i + 1]);
            if ((c2 & 0xC0) != 0x80)
                return false;
            const unsigned cp = ((c & 0x1Fu) << 6) | (c2 & 0x3Fu);
            if (cp < 0x80 || cp > 0xFF)
                return false;
            out += static_cast<char>(cp);
            i += 2;
        } else {
            return false;
        }
    }
    return true;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool isLatin1Encoding(std::string_view e)
{
    return e == "latin1" || e == "latin-1" || e == "latin_1" || e == "iso-8859-1" || e == "iso8859-1" || e == "l1";
}

class Unpickler {
public:
    Unpickler(std::string_view data, const std::string& file, const PickleOptions& options)
        : m_data(data), m_file(file), m_opt(options)
    {
    }

    Pickle run()
    {
        for (;;) {
            m_opStart = m_pos;
            if (m_pos >= m_data.size()) {
                m_op = 0;
                m_atEnd = true;
                fail("pickle ended without STOP (truncated file?)");
            }
            m_op = static_cast<unsigned char>(m_data[m_pos++]);
            if (m_op == STOP) {
                const PickleId root = pop();
                return Pickle(std::move(m_values), root, m_file, m_proto);
            }
            step();
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        std::string where;
        if (m_atEnd) {
            where = " (at byte " + std::to_string(m_opStart) + ", end of data)";
        } else {
            const std::string_view name = opName(m_op);
            where = " (at byte " + std::to_string(m_opStart) + ", opcode "
                + (name.empty() ? "unknown " + hexByte(m_op) : std::string(name) + " " + hexByte(m_op)) + ")";
        }
        throw Error(what + where, SourceLocation{m_file, 0, 0, {}});
    }

    // ---- reading the byte stream (every read checked against what is left) ----
    std::size_t remaining() const { return m_data.size() - m_pos; }

    std::string_view take(std::uint64_t n)
    {
        if (n > remaining())
            fail("truncated pickle: needs " + std::to_string(n) + " bytes, only " + std::to_string(remaining())
                 + " left");
        const auto out = m_data.substr(m_pos, static_cast<std::size_t>(n));
        m_pos += static_cast<std::size_t>(n);
        return out;
    }

    std::uint64_t readLE(int bytes)
    {
        const auto s = take(static_cast<std::uint64_t>(bytes));
        std::uint64_t v = 0;
        for (int i = bytes - 1; i >= 0; --i)
            v = (v << 8) | static_cast<unsigned char>(s[static_cast<std::size_t>(i)]);
        return v;
    }

    // A length prefix: checked against the bytes that are left before anything is allocated.
    std::string_view takeCounted(int prefixBytes)
    {
        const std::uint64_t n = readLE(prefixBytes);
        if (n > remaining())
            fail("declared length " + std::to_string(n) + " exceeds the " + std::to_string(remaining())
                 + " bytes left in the pickle");
        return take(n);
    }

    std::string_view readLine()
    {
        const auto nl = m_data.find('\n', m_pos);
        if (nl == std::string_view::npos)
            fail("truncated pickle: line argument without newline");
        const auto line = m_data.substr(m_pos, nl - m_pos);
        m_pos = nl + 1;
        return line;
    }

    std::int64_t parseDecimal(std::string_view s)
    {
        std::int64_t v = 0;
        const char* b = s.data();
        const char* e = s.data() + s.size();
        if (b != e && *b == '+')
            ++b;
        const auto [p, ec] = std::from_chars(b, e, v);
        if (ec == std::errc::result_out_of_range)
            fail("integer '" + printable(s) + "' does not fit in 64 bits");
        if (ec != std::errc() || p != e || b == e)
            fail("bad integer '" + printable(s) + "'");
        return v;
    }

    // ---- the value arena and the stack ----
    PickleId add(PickleValue v)
    {
        if (m_values.size() >= m_opt.limits.maxValues)
            fail("pickle has more than " + std::to_string(m_opt.limits.maxValues) + " values");
        if (v.depth > m_opt.limits.maxDepth)
            fail("pickle nesting deeper than " + std::to_string(m_opt.limits.maxDepth) + " levels");
        m_values.push_back(std::move(v));
        return static_cast<PickleId>(m_values.size() - 1);
    }

    PickleId addScalar(PickleKind kind)
    {
        PickleValue v;
        v.kind = kind;
        return add(std::move(v));
    }

    PickleId addInt(std::int64_t i)
    {
        PickleValue v;
        v.kind = PickleKind::Int;
        v.integer = i;
        return add(std::move(v));
    }

    PickleId addText(PickleKind kind, std::string text)
    {
        PickleValue v;
        v.kind = kind;
        v.text = std::move(text);
        return add(std::move(v));
    }

    PickleId addContainer(PickleKind kind, std::vector<PickleId> items)
    {
        PickleValue v;
        v.kind = kind;
        v.depth = 1 + maxDepthOf(items);
        v.items = std::move(items);
        return add(std::move(v));
    }

    std::uint32_t maxDepthOf(const std::vector<PickleId>& ids) const
    {
        std::uint32_t d = 0;
        for (const PickleId id : ids)
            d = std::max(d, m_values[id].depth);
        return d;
    }

    // A value was put inside `container` after it was built: its depth may grow.
    void deepen(PickleId container, PickleId child)
    {
        const std::uint32_t d = m_values[child].depth + 1;
        if (d > m_values[container].depth) {
            if (d > m_opt.limits.maxDepth)
                fail("pickle nesting deeper than " + std::to_string(m_opt.limits.maxDepth) + " levels");
            m_values[container].depth = d;
        }
    }

    std::size_t markBase() const { return m_marks.empty() ? 0 : m_marks.back(); }

    void push(PickleId id)
    {
        if (m_stack.size() >= m_opt.limits.maxStack)
            fail("pickle stack larger than " + std::to_string(m_opt.limits.maxStack) + " entries");
        m_stack.push_back(id);
    }

    // As in Python, values below the last MARK are out of reach until that mark is popped.
    PickleId pop()
    {
        if (m_stack.size() <= markBase())
            fail("pickle stack underflow");
        const PickleId id = m_stack.back();
        m_stack.pop_back();
        return id;
    }

    PickleId top() const
    {
        if (m_stack.size() <= markBase())
            fail("pickle stack underflow");
        return m_stack.back();
    }

    std::vector<PickleId> popMark()
    {
        if (m_marks.empty())
            fail("pickle has no MARK to pop to");
        const std::size_t base = m_marks.back();
        m_marks.pop_back();
        std::vector<PickleId> items(m_stack.begin() + static_cast<std::ptrdiff_t>(base), m_stack.end());
        m_stack.resize(base);
        return items;
    }

    PickleId memoGet(std::uint64_t index)
    {
        const auto it = m_memo.find(index);
        if (it == m_memo.end())
            fail("memo entry " + std::to_string(index) + " is missing");
        return it->second;
    }

    void memoPut(std::uint64_t index)
    {
        const PickleId value = top();
        const auto it = m_memo.find(index);
        if (it != m_memo.end()) {
            it->second = value;
            return;
        }
        if (m_memo.size() >= m_opt.limits.maxMemo)
            fail("pickle memo larger than " + std::to_string(m_opt.limits.maxMemo) + " entries");
        m_memo.emplace(index, value);
    }

    const PickleValue& at(PickleId id) const { return m_values[id]; }

    std::string kindOf(PickleId id) const { return std::string(pickleKindName(at(id).kind)); }

    // ---- opcodes ----
    void pushGlobal(std::string module, std::string name)
    {
        if (m_proto < 3) {
            // Python 2 names, mapped as Python 3's unpickler does with fix_imports (_compat_pickle).
            if (module == "__builtin__") {
                module = "builtins";
                if (name == "unicode" || name == "basestring")
                    name = "str";
                else if (name == "long")
                    name = "int";
                else if (name == "xrange")
                    name = "range";
            } else if (module == "copy_reg") {
                module = "copyreg";
            }
        }
        const std::string qualified = module + "." + name;
        if (!m_opt.allowedGlobals.contains(qualified) &&
            std::none_of(m_opt.allowedGlobalPrefixes.begin(), m_opt.allowedGlobalPrefixes.end(),
                         [&](const std::string& prefix) { return qualified.starts_with(prefix); }))
            fail("pickle global '" + printable(qualified) + "' is not allowed");
        PickleValue v;
        v.kind = PickleKind::Global;
        v.text = std::move(module);
        v.name = std::move(name);
        push(add(std::move(v)));
    }

    void pushTuple(std::size_t n)
    {
        std::vector<PickleId> items(n);
        for (std::size_t i = n; i > 0; --i)
            items[i - 1] = pop();
        push(addContainer(PickleKind::Tuple, std::move(items)));
    }

    void appendItems(const std::vector<PickleId>& items)
    {
        const PickleId target = top();
        const PickleKind k = at(target).kind;
        const bool isSet = m_op == ADDITEMS;
        if (isSet ? (k != PickleKind::Set && k != PickleKind::Call)
                  : (k != PickleKind::List && k != PickleKind::Call))
            fail(std::string("cannot ") + (isSet ? "add items to" : "append to") + " a " + kindOf(target));
        for (const PickleId item : items) {
            deepen(target, item);
            m_values[target].items.push_back(item);
        }
    }

    void setItems(const std::vector<PickleId>& kv)
    {
        if (kv.size() % 2 != 0)
            fail("odd number of values for dict items");
        const PickleId target = top();
        const PickleKind k = at(target).kind;
        if (k != PickleKind::Dict && k != PickleKind::Call)
            fail("cannot set items on a " + kindOf(target));
        for (std::size_t i = 0; i < kv.size(); i += 2) {
            deepen(target, kv[i]);
            deepen(target, kv[i + 1]);
            m_values[target].entries.emplace_back(kv[i], kv[i + 1]);
        }
    }

    void pushCall(PickleId callee, PickleId args, PickleId kwargs)
    {
        if (at(args).kind != PickleKind::Tuple)
            fail("call arguments must be a tuple, found a " + kindOf(args));
        if (kwargs != kNoPickleValue && at(kwargs).kind != PickleKind::Dict)
            fail("NEWOBJ_EX keyword arguments must be a dict, found a " + kindOf(kwargs));
        if (kwargs == kNoPickleValue) {
            if (const auto folded = fold(callee, args); folded != kNoPickleValue) {
                push(folded);
                return;
            }
        }
        PickleValue v;
        v.kind = PickleKind::Call;
        v.callee = callee;
        v.args = args;
        v.kwargs = kwargs;
        v.depth = 1 + std::max({at(callee).depth, at(args).depth,
                                kwargs == kNoPickleValue ? 0u : at(kwargs).depth});
        push(add(std::move(v)));
    }

    // Pure constructors that older protocols use to spell plain values (see pickle.h).
    PickleId fold(PickleId callee, PickleId args)
    {
        const PickleValue& c = at(callee);
        if (c.kind != PickleKind::Global)
            return kNoPickleValue;
        const std::vector<PickleId> a = at(args).items;
        auto isKind = [&](std::size_t i, PickleKind k) { return a.size() > i && at(a[i]).kind == k; };
        if (c.text == "_codecs" && c.name == "encode") {
            if (a.size() == 2 && isKind(0, PickleKind::String) && isKind(1, PickleKind::String)
                && isLatin1Encoding(at(a[1]).text)) {
                std::string bytes;
                if (!utf8ToLatin1(at(a[0]).text, bytes))
                    fail("_codecs.encode: text is not latin-1");
                return addText(PickleKind::Bytes, std::move(bytes));
            }
            return kNoPickleValue;
        }
        if (c.text != "builtins")
            return kNoPickleValue;
        if (c.name == "bytes" || c.name == "bytearray") {
            if (a.empty())
                return addText(PickleKind::Bytes, {});
            if (a.size() == 1 && isKind(0, PickleKind::Bytes))
                return addText(PickleKind::Bytes, at(a[0]).text);
            if (a.size() == 2 && isKind(0, PickleKind::String) && isKind(1, PickleKind::String)
                && isLatin1Encoding(at(a[1]).text)) {
                std::string bytes;
                if (!utf8ToLatin1(at(a[0]).text, bytes))
                    fail(c.name + ": text is not latin-1");
                return addText(PickleKind::Bytes, std::move(bytes));
            }
            return kNoPickleValue;
        }
        if (c.name == "set" || c.name == "frozenset") {
            if (a.empty())
                return addContainer(PickleKind::Set, {});
            if (a.size() == 1
                && (isKind(0, PickleKind::List) || isKind(0, PickleKind::Tuple) || isKind(0, PickleKind::Set)))
                return addContainer(PickleKind::Set, at(a[0]).items);
        }
        return kNoPickleValue;
    }

    // STRING: a Python 2 str literal as repr() wrote it.
    std::string decodeQuoted(std::string_view line)
    {
        if (line.size() < 2 || (line.front() != '\'' && line.front() != '"') || line.back() != line.front())
            fail("STRING argument is not quoted");
        const std::string_view s = line.substr(1, line.size() - 2);
        std::string out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] != '\\' || i + 1 == s.size()) {
                out += s[i];
                continue;
            }
            const char e = s[++i];
            switch (e) {
            case '\n': break;
            case '\\': out += '\\'; break;
            case '\'': out += '\''; break;
            case '"': out += '"'; break;
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'v': out += '\v'; break;
            case 'x': {
                if (i + 2 >= s.size() || hexValue(s[i + 1]) < 0 || hexValue(s[i + 2]) < 0)
                    fail("bad \\x escape in STRING");
                out += static_cast<char>(hexValue(s[i + 1]) * 16 + hexValue(s[i + 2]));
                i += 2;
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    int v = e - '0';
                    for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
                        v = v * 8 + (s[++i] - '0');
                    out += static_cast<char>(v & 0xFF);
                } else {
                    out += '\\';
                    out += e;
                }
            }
        }
        return out;
    }

    // UNICODE: raw-unicode-escape (latin-1 bytes plus \uXXXX / \UXXXXXXXX after an odd run of backslashes).
    std::string decodeRawUnicodeEscape(std::string_view s)
    {
        std::string out;
        for (std::size_t i = 0; i < s.size();) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c != '\\') {
                appendUtf8(out, c);
                ++i;
                continue;
            }
            std::size_t run = 0;
            while (i < s.size() && s[i] == '\\') {
                ++run;
                ++i;
            }
            const bool escape = (run % 2 == 1) && i < s.size() && (s[i] == 'u' || s[i] == 'U');
            out.append(escape ? run - 1 : run, '\\');
            if (!escape)
                continue;
            const std::size_t digits = s[i] == 'u' ? 4 : 8;
            ++i;
            if (i + digits > s.size())
                fail("truncated \\u escape in UNICODE");
            std::uint32_t cp = 0;
            for (std::size_t k = 0; k < digits; ++k) {
                const int h = hexValue(s[i + k]);
                if (h < 0)
                    fail("bad \\u escape in UNICODE");
                cp = cp * 16 + static_cast<std::uint32_t>(h);
            }
            if (cp > 0x10FFFF)
                fail("code point out of range in UNICODE");
            appendUtf8(out, cp);
            i += digits;
        }
        return out;
    }

    PickleId addLong(std::string_view bytes)
    {
        // Little-endian two's complement of any length; accepted when it fits in int64.
        const std::size_t n = bytes.size();
        if (n == 0)
            return addInt(0);
        const bool negative = (static_cast<unsigned char>(bytes[n - 1]) & 0x80) != 0;
        const unsigned char fill = negative ? 0xFF : 0x00;
        for (std::size_t i = 8; i < n; ++i)
            if (static_cast<unsigned char>(bytes[i]) != fill)
                fail("integer does not fit in 64 bits");
        std::uint64_t v = negative ? ~std::uint64_t{0} : 0;
        for (std::size_t i = std::min<std::size_t>(n, 8); i > 0; --i)
            v = (v << 8) | static_cast<unsigned char>(bytes[i - 1]);
        if (n < 8 && negative)
            v |= ~std::uint64_t{0} << (8 * n);
        const auto signedValue = static_cast<std::int64_t>(v);
        if (n >= 8 && (signedValue < 0) != negative)
            fail("integer does not fit in 64 bits");
        return addInt(signedValue);
    }

    // One opcode: each family of opcodes has its handler, which says whether the opcode was one of its own.
    void step()
    {
        if (stackOp() || scalarOp() || textOp() || containerOp() || memoOp() || objectOp())
            return;
        switch (m_op) {
        case INST:
        case OBJ: fail("protocol 0/1 class instances are not supported");
        case EXT1:
        case EXT2:
        case EXT4: fail("pickle extension registry codes are not supported");
        default: fail("not a pickle opcode");
        }
    }

    // PROTO, FRAME and the stack's own opcodes.
    bool stackOp()
    {
        switch (m_op) {
        case PROTO: {
            const auto p = static_cast<int>(readLE(1));
            if (p > 5)
                fail("unsupported pickle protocol " + std::to_string(p));
            m_proto = p;
            return true;
        }
        case FRAME: {
            const std::uint64_t n = readLE(8);
            if (n > remaining())
                fail("truncated pickle: frame of " + std::to_string(n) + " bytes exceeds the "
                     + std::to_string(remaining()) + " bytes left");
            return true;
        }
        case MARK:
            if (m_marks.size() >= m_opt.limits.maxDepth)
                fail("pickle nesting deeper than " + std::to_string(m_opt.limits.maxDepth) + " levels");
            m_marks.push_back(m_stack.size());
            return true;
        case POP:
            if (m_stack.size() > markBase())
                m_stack.pop_back();
            else if (!m_marks.empty())
                m_marks.pop_back();  // Python pops the mark when nothing is above it
            else
                fail("pickle stack underflow");
            return true;
        case POP_MARK: popMark(); return true;
        case DUP: push(top()); return true;
        default: return false;
        }
    }

    // None, bools, ints and floats, binary and as text.
    bool scalarOp()
    {
        switch (m_op) {
        case NONE: push(addScalar(PickleKind::None)); return true;
        case NEWTRUE:
        case NEWFALSE: pushBool(m_op == NEWTRUE); return true;
        case INT: {
            const auto line = readLine();
            if (line == "00" || line == "01")
                pushBool(line == "01");
            else
                push(addInt(parseDecimal(line)));
            return true;
        }
        case LONG: {
            auto line = readLine();
            if (!line.empty() && line.back() == 'L')
                line.remove_suffix(1);
            push(addInt(parseDecimal(line)));
            return true;
        }
        case BININT: push(addInt(static_cast<std::int32_t>(static_cast<std::uint32_t>(readLE(4))))); return true;
        case BININT1: push(addInt(static_cast<std::int64_t>(readLE(1)))); return true;
        case BININT2: push(addInt(static_cast<std::int64_t>(readLE(2)))); return true;
        case LONG1: push(addLong(takeCounted(1))); return true;
        case LONG4: push(addLong(takeSigned4("LONG4"))); return true;
        case BINFLOAT: pushFloat(readBigEndianDouble()); return true;
        case FLOAT: pushFloat(parseFloatLine(readLine())); return true;
        default: return false;
        }
    }

    // Strings (unicode, and Python 2 str) and bytes.
    bool textOp()
    {
        switch (m_op) {
        case BINUNICODE: push(addText(PickleKind::String, std::string(takeCounted(4)))); return true;
        case SHORT_BINUNICODE: push(addText(PickleKind::String, std::string(takeCounted(1)))); return true;
        case BINUNICODE8: push(addText(PickleKind::String, std::string(takeCounted(8)))); return true;
        case UNICODE: push(addText(PickleKind::String, decodeRawUnicodeEscape(readLine()))); return true;
        // Python 2 str: Python 3 decodes it to str (torch.load uses utf-8); the bytes are kept as they are.
        case BINSTRING: push(addText(PickleKind::String, std::string(takeSigned4("BINSTRING")))); return true;
        case SHORT_BINSTRING: push(addText(PickleKind::String, std::string(takeCounted(1)))); return true;
        case STRING: push(addText(PickleKind::String, decodeQuoted(readLine()))); return true;
        case BINBYTES: push(addText(PickleKind::Bytes, std::string(takeCounted(4)))); return true;
        case SHORT_BINBYTES: push(addText(PickleKind::Bytes, std::string(takeCounted(1)))); return true;
        case BINBYTES8:
        case BYTEARRAY8: push(addText(PickleKind::Bytes, std::string(takeCounted(8)))); return true;
        case NEXT_BUFFER:
        case READONLY_BUFFER: fail("out-of-band buffers (pickle protocol 5) are not supported");
        default: return false;
        }
    }

    // Lists, tuples, dicts and sets: made empty or from the values above a MARK, and filled.
    bool containerOp()
    {
        switch (m_op) {
        case EMPTY_LIST: push(addContainer(PickleKind::List, {})); return true;
        case EMPTY_TUPLE: push(addContainer(PickleKind::Tuple, {})); return true;
        case EMPTY_DICT: push(addContainer(PickleKind::Dict, {})); return true;
        case EMPTY_SET: push(addContainer(PickleKind::Set, {})); return true;
        case LIST: push(addContainer(PickleKind::List, popMark())); return true;
        case TUPLE: push(addContainer(PickleKind::Tuple, popMark())); return true;
        case FROZENSET: push(addContainer(PickleKind::Set, popMark())); return true;
        case TUPLE1: pushTuple(1); return true;
        case TUPLE2: pushTuple(2); return true;
        case TUPLE3: pushTuple(3); return true;
        case DICT: {
            const auto kv = popMark();
            push(addContainer(PickleKind::Dict, {}));
            setItems(kv);
            return true;
        }
        case APPEND: {
            const PickleId item = pop();
            appendItems({item});
            return true;
        }
        case APPENDS:
        case ADDITEMS: appendItems(popMark()); return true;
        case SETITEM: {
            const PickleId value = pop();
            const PickleId key = pop();
            setItems({key, value});
            return true;
        }
        case SETITEMS: setItems(popMark()); return true;
        default: return false;
        }
    }

    // The memo: PUT / MEMOIZE remember the top of the stack, GET pushes it again.
    bool memoOp()
    {
        switch (m_op) {
        case PUT: memoPut(readMemoIndexLine()); return true;
        case BINPUT: memoPut(readLE(1)); return true;
        case LONG_BINPUT: memoPut(readLE(4)); return true;
        case MEMOIZE: memoPut(m_memo.size()); return true;
        case GET: push(memoGet(readMemoIndexLine())); return true;
        case BINGET: push(memoGet(readLE(1))); return true;
        case LONG_BINGET: push(memoGet(readLE(4))); return true;
        default: return false;
        }
    }

    // Globals, calls (kept as data, never made), BUILD state and persistent ids.
    bool objectOp()
    {
        switch (m_op) {
        case GLOBAL: {
            std::string module(readLine());
            std::string name(readLine());
            pushGlobal(std::move(module), std::move(name));
            return true;
        }
        case STACK_GLOBAL: {
            const PickleId name = pop();
            const PickleId module = pop();
            if (at(module).kind != PickleKind::String || at(name).kind != PickleKind::String)
                fail("STACK_GLOBAL needs two strings, found a " + kindOf(module) + " and a " + kindOf(name));
            pushGlobal(at(module).text, at(name).text);
            return true;
        }
        case REDUCE:
        case NEWOBJ: {
            const PickleId args = pop();
            const PickleId callee = pop();
            pushCall(callee, args, kNoPickleValue);
            return true;
        }
        case NEWOBJ_EX: {
            const PickleId kwargs = pop();
            const PickleId args = pop();
            const PickleId cls = pop();
            pushCall(cls, args, kwargs);
            return true;
        }
        case BUILD: build(pop()); return true;
        case PERSID: pushPersistentId(addText(PickleKind::String, std::string(readLine())), 2); return true;
        case BINPERSID: {
            const PickleId pid = pop();
            pushPersistentId(pid, at(pid).depth + 1);
            return true;
        }
        default: return false;
        }
    }

    // ---- the opcodes' steps ----
    void pushBool(bool b)
    {
        PickleValue v;
        v.kind = PickleKind::Bool;
        v.boolean = b;
        push(add(std::move(v)));
    }

    void pushFloat(double x)
    {
        PickleValue v;
        v.kind = PickleKind::Float;
        v.real = x;
        push(add(std::move(v)));
    }

    double readBigEndianDouble()  // BINFLOAT: IEEE 754, big-endian
    {
        std::uint64_t bits = 0;
        for (char ch : take(8))
            bits = (bits << 8) | static_cast<unsigned char>(ch);
        double x = 0;
        std::memcpy(&x, &bits, sizeof bits);
        return x;
    }

    double parseFloatLine(std::string_view line)  // FLOAT: repr() text
    {
        double x = 0;
        const char* b = line.data();
        const char* e = line.data() + line.size();
        if (b != e && *b == '+')
            ++b;
        const auto [p, ec] = std::from_chars(b, e, x);
        if (ec != std::errc() || p != e)
            fail("bad float '" + printable(line) + "'");
        return x;
    }

    // LONG4 and BINSTRING: a signed 4-byte length, then that many bytes.
    std::string_view takeSigned4(const char* what)
    {
        const auto n = static_cast<std::int32_t>(static_cast<std::uint32_t>(readLE(4)));
        if (n < 0)
            fail(std::string("negative ") + what + " length");
        if (static_cast<std::uint64_t>(n) > remaining())
            fail("declared length " + std::to_string(n) + " exceeds the " + std::to_string(remaining())
                 + " bytes left in the pickle");
        return take(static_cast<std::uint64_t>(n));
    }

    std::uint64_t readMemoIndexLine()  // PUT / GET: a decimal index on its own line
    {
        const auto index = parseDecimal(readLine());
        if (index < 0)
            fail("negative memo index");
        return static_cast<std::uint64_t>(index);
    }

    // BUILD: the state for the object on the top of the stack (its __setstate__ argument).
    void build(PickleId state)
    {
        const PickleId target = top();
        if (at(target).kind != PickleKind::Call)
            fail("BUILD on a " + kindOf(target) + " (only objects made by REDUCE/NEWOBJ take state)");
        if (at(target).state != kNoPickleValue)
            fail("BUILD applied twice to the same object");
        deepen(target, state);
        m_values[target].state = state;
    }

    void pushPersistentId(PickleId pid, std::uint32_t depth)
    {
        PickleValue v;
        v.kind = PickleKind::PersistentId;
        v.args = pid;
        v.depth = depth;
        push(add(std::move(v)));
    }

    std::string_view m_data;
    std::size_t m_pos = 0;
    std::size_t m_opStart = 0;
    unsigned char m_op = 0;
    bool m_atEnd = false;
    int m_proto = 0;
    const std::string& m_file;
    const PickleOptions& m_opt;
    std::vector<PickleValue> m_values;
    std::vector<PickleId> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<std::uint64_t, PickleId> m_memo;
};

}  // namespace

std::string pythonFloatRepr(double x)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".en") == std::string::npos)  // "3" -> "3.0"; keeps "1e+300", "inf", "nan"
        s += ".0";
    return s;
}

namespace {

void describeInto(const Pickle& p, PickleId id, int depth, std::size_t maxChars, std::string& out)
{
    if (out.size() > maxChars)
        return;
    if (id >= p.size()) {
        out += "<?>";
        return;
    }
    const PickleValue& v = p[id];
    if (depth > 6) {
        out += "...";
        return;
    }
    auto list = [&](const std::vector<PickleId>& items, const char* open, const char* close, bool tuple) {
        out += open;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += ", ";
            if (out.size() > maxChars) {
                out += "...";
                break;
            }
            describeInto(p, items[i], depth + 1, maxChars, out);
        }
        if (tuple && items.size() == 1)
            out += ",";
        out += close;
    };
    switch (v.kind) {
    case PickleKind::None: out += "None"; break;
    case PickleKind::Bool: out += v.boolean ? "True" : "False"; break;
    case PickleKind::Int: out += std::to_string(v.integer); break;
    case PickleKind::Float: out += pythonFloatRepr(v.real); break;
    case PickleKind::String: out += "'" + printable(v.text, 40) + "'"; break;
    case PickleKind::Bytes: out += "b'" + printable(v.text, 40) + "'"; break;
    case PickleKind::List: list(v.items, "[", "]", false); break;
    case PickleKind::Tuple: list(v.items, "(", ")", true); break;
    case PickleKind::Set: list(v.items, "{", "}", false); break;
    case PickleKind::Dict:
        out += "{";
        for (std::size_t i = 0; i < v.entries.size(); ++i) {
            if (i)
                out += ", ";
            if (out.size() > maxChars) {
                out += "...";
                break;
            }
            describeInto(p, v.entries[i].first, depth + 1, maxChars, out);
            out += ": ";
            describeInto(p, v.entries[i].second, depth + 1, maxChars, out);
        }
        out += "}";
        break;
    case PickleKind::Global: out += printable(v.qualifiedName()); break;
    case PickleKind::Call:
        describeInto(p, v.callee, depth + 1, maxChars, out);
        if (v.args < p.size() && p[v.args].kind == PickleKind::Tuple)
            list(p[v.args].items, "(", ")", false);
        else
            out += "(...)";
        break;
    case PickleKind::PersistentId:
        out += "persistent_id(";
        describeInto(p, v.args, depth + 1, maxChars, out);
        out += ")";
        break;
    }
}

}  // namespace

std::string_view pickleKindName(PickleKind k)
{
    switch (k) {
    case PickleKind::None: return "None";
    case PickleKind::Bool: return "bool";
    case PickleKind::Int: return "int";
    case PickleKind::Float: return "float";
    case PickleKind::String: return "str";
    case PickleKind::Bytes: return "bytes";
    case PickleKind::List: return "list";
    case PickleKind::Tuple: return "tuple";
    case PickleKind::Dict: return "dict";
    case PickleKind::Set: return "set";
    case PickleKind::Global: return "global";
    case PickleKind::Call: return "object";
    case PickleKind::PersistentId: return "persistent id";
    }
    return "?";
}

const std::unordered_set<std::string>& defaultAllowedGlobals()
{
    static const std::unordered_set<std::string> kAllowed = [] {
        std::unordered_set<std::string> s;
        // Every torch.dtype attribute of torch 2.11 (canonical names and aliases).
        for (const char* d : {"bfloat16", "bit", "bits16", "bits1x8", "bits2x4", "bits4x2", "bits8", "bool",
                              "cdouble", "cfloat", "chalf", "complex128", "complex32", "complex64", "double",
                              "float", "float16", "float32", "float4_e2m1fn_x2", "float64", "float8_e4m3fn",
                              "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "half",
                              "int", "int1", "int16", "int2", "int3", "int32", "int4", "int5", "int6", "int64",
                              "int7", "int8", "long", "qint32", "qint8", "quint2x4", "quint4x2", "quint8",
                              "short", "uint1", "uint16", "uint2", "uint3", "uint32", "uint4", "uint5", "uint6",
                              "uint64", "uint7", "uint8"})
            s.insert(std::string("torch.") + d);
        for (const char* n : {"Size", "device", "dtype", "layout", "memory_format", "Tensor", "SymInt", "SymFloat",
                              "SymBool", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr",
                              "sparse_bsc", "_mkldnn", "jagged", "contiguous_format", "channels_last",
                              "channels_last_3d", "preserve_format", "legacy_contiguous_format"})
            s.insert(std::string("torch.") + n);
        for (const char* st : {"Double", "Float", "Half", "Long", "Int", "Short", "Char", "Byte", "Bool",
                               "BFloat16", "ComplexDouble", "ComplexFloat", "QUInt8", "QInt8", "QInt32",
                               "QUInt4x2", "QUInt2x4", "Untyped", "Typed"})
            s.insert(std::string("torch.") + st + "Storage");
        for (const char* n : {"torch.storage.UntypedStorage", "torch.storage.TypedStorage",
                              "torch._utils._rebuild_tensor_v2", "torch._utils._rebuild_tensor_v3",
                              "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state",
                              "torch._tensor._rebuild_from_type_v2", "torch._subclasses.fake_tensor.FakeTensor",
                              "torch.nn.parameter.Parameter", "collections.OrderedDict", "_codecs.encode",
                              "torch._C.Generator"})
            s.insert(n);
        for (const char* b : {"int", "float", "bool", "str", "bytes", "bytearray", "set", "frozenset", "slice",
                              "tuple", "list", "dict", "complex"})
            s.insert(std::string("builtins.") + b);
        return s;
    }();
    return kAllowed;
}

PickleOptions defaultPickleOptions()
{
    PickleOptions o;
    o.allowedGlobals = defaultAllowedGlobals();
    return o;
}

Pickle::Pickle(std::vector<PickleValue> values, PickleId root, std::string fileName, int protocol)
    : m_values(std::move(values)), m_root(root), m_file(std::move(fileName)), m_protocol(protocol)
{
}

std::string Pickle::describe(PickleId id, std::size_t maxChars) const
{
    std::string out;
    describeInto(*this, id, 0, maxChars, out);
    if (out.size() > maxChars + 3) {
        out.resize(maxChars);
        out += "...";
    }
    return out;
}

Pickle parsePickle(std::string_view data, const std::string& fileName, const PickleOptions& options)
{
    return Unpickler(data, fileName, options).run();
}

Pickle parsePickle(std::string_view data, const std::string& fileName)
{
    static const PickleOptions kDefault = defaultPickleOptions();
    return parsePickle(data, fileName, kDefault);
}

Pickle readPickleFile(const std::string& path, const PickleOptions& options)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error("cannot open pickle file", SourceLocation{path, 0, 0, {}});
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        throw Error("cannot read pickle file", SourceLocation{path, 0, 0, {}});
    return parsePickle(data, path, options);
}

Pickle readPickleFile(const std::string& path)
{
    static const PickleOptions kDefault = defaultPickleOptions();
    return readPickleFile(path, kDefault);
}

}  // namespace fxray::io
