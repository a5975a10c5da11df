#include "graph/torchscript_parser.h"

#include "graph/text_lines.h"
#include "graph/torchscript_type.h"
#include "graph/utf8_check.h"

#include <cctype>
#include <charconv>

namespace fxray::graph {
namespace {

constexpr int kMaxListDepth = 16;  // prim::Constant lists nest a level or two; deeper is damage, refused

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool isKindChar(char c) { return isNameChar(c) || c == ':'; }

using detail::trim;

std::string unquote(std::string_view s)
{
    std::string out;
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        char c = s[i];
        if (c == '\\' && i + 2 < s.size()) {
            c = s[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        out += c;
    }
    return out;
}

class Reader {
public:
    Reader(std::string_view text, std::string fileName) : m_file(std::move(fileName)), m_lines(detail::splitLines(text))
    {
        m_ts.fileName = m_file;
    }

    TsGraph read()
    {
        std::size_t li = 0;
        while (li < m_lines.size() && (trim(m_lines[li]).empty() || trim(m_lines[li]).starts_with("#")))
            ++li;
        if (li == m_lines.size())
            fail(0, 0, "empty file: no TorchScript graph");
        header(li);
        bool returned = false;
        for (; li < m_lines.size(); ++li) {
            const std::string_view t = trim(m_lines[li]);
            if (t.empty() || t.starts_with("#"))
                continue;
            const int line = static_cast<int>(li) + 1;
            m_line = li;
            if (returned)
                fail(line, column(t), "text after the return statement");
            if (t.starts_with("block") || t.starts_with("->")) {
                const int owner = m_ts.statements.empty() ? line : m_ts.statements.back().line;
                const std::string kind = m_ts.statements.empty() ? "a statement" : m_ts.statements.back().kind;
                m_line = owner > 0 ? static_cast<std::size_t>(owner - 1) : li;
                fail(owner, 0, kind + " has nested blocks (control flow from torch.jit.script): fxray reads "
                                      "straight-line TorchScript graphs (torch.jit.trace, the lazy-tensor backend)");
            }
            if (t.starts_with("return") && (t.size() == 6 || !isNameChar(t[6]))) {
                returnStatement(t, line);
                returned = true;
                continue;
            }
            m_ts.statements.push_back(statement(t, line));
        }
        if (!returned) {
            m_line = lastContentLine();
            fail(static_cast<int>(m_line) + 1, 0, "the graph ends without a return statement (truncated text?)");
        }
        return std::move(m_ts);
    }

private:
    [[noreturn]] void fail(int line, int col, const std::string& msg) const
    {
        const std::string excerpt = m_line < m_lines.size() ? detail::lineExcerpt(m_lines[m_line]) : std::string();
        throw Error(msg, SourceLocation{m_file, line, col, {}}, excerpt);
    }

    std::size_t lastContentLine() const { return detail::lastContentLine(m_lines); }

    int column(std::string_view at) const
    {
        return m_line < m_lines.size() ? static_cast<int>(at.data() - m_lines[m_line].data()) + 1 : 0;
    }

    // "graph(%a : T,\n      %b : T):" — advances li past the header.
    void header(std::size_t& li)
    {
        m_line = li;
        std::string_view t = trim(m_lines[li]);
        if (!t.starts_with("graph("))
            fail(static_cast<int>(li) + 1, column(t), "not TorchScript IR: expected 'graph(' to start the text");
        std::size_t pos = static_cast<std::size_t>(t.data() - m_lines[li].data()) + 6;
        for (;;) {
            std::string_view line = m_lines[li];
            while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos])))
                ++pos;
            if (pos >= line.size()) {
                if (++li >= m_lines.size()) {
                    m_line = lastContentLine();
                    fail(static_cast<int>(m_line) + 1, 0, "graph header is not closed with '):' (truncated text?)");
                }
                m_line = li;
                pos = 0;
                continue;
            }
            const int lineNo = static_cast<int>(li) + 1;
            if (line[pos] == ')')
                break;
            if (line[pos] != '%')
                fail(lineNo, static_cast<int>(pos) + 1, "expected a graph input '%name : type'");
            std::string_view rest = line.substr(pos + 1);
            m_ts.inputs.push_back(typedValue(rest, lineNo, ",)"));
            rest = trim(rest);
            pos = static_cast<std::size_t>(rest.data() - line.data());
            if (rest.starts_with(","))
                ++pos;
            else if (!rest.starts_with(")"))
                fail(lineNo, column(rest), "expected ',' or ')' after a graph input");
        }
        std::string_view rest = trim(m_lines[li].substr(pos + 1));
        if (!rest.starts_with(":"))
            fail(static_cast<int>(li) + 1, column(rest), "expected ':' after the graph inputs");
        rest = trim(rest.substr(1));
        if (!rest.empty() && !rest.starts_with("#"))
            fail(static_cast<int>(li) + 1, column(rest), "unexpected text after the graph header");
        ++li;
    }

    // "name : type" after a '%' (a graph input or a statement's output); advances s to the first top-level
    // character of `stops` after the type.
    TsValue typedValue(std::string_view& s, int line, std::string_view stops) const
    {
        TsValue v;
        v.line = line;
        v.name = name(s, line);
        s = trim(s);
        if (!s.starts_with(":"))
            fail(line, column(s), "expected ':' and a type after %" + v.name);
        s.remove_prefix(1);
        v.type = std::string(typeText(s, line, stops));
        return v;
    }

    // A value name after '%'; advances s.
    std::string name(std::string_view& s, int line) const
    {
        std::size_t n = 0;
        while (n < s.size() && isNameChar(s[n]))
            ++n;
        if (n == 0)
            fail(line, column(s), "expected a value name after '%'");
        std::string out(s.substr(0, n));
        s.remove_prefix(n);
        return out;
    }

    // Text up to the first top-level character of `stops` (brackets and quotes nest); advances s to it.
    std::string_view typeText(std::string_view& s, int line, std::string_view stops) const
    {
        int depth = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (depth == 0 && stops.find(c) != std::string_view::npos) {
                std::string_view type = trim(s.substr(0, i));
                if (type.empty())
                    fail(line, column(s), "expected a type");
                s.remove_prefix(i);
                return type;
            }
            if (c == '(' || c == '[' || c == '{')
                ++depth;
            else if ((c == ')' || c == ']' || c == '}') && --depth < 0)
                fail(line, column(s.substr(i)), std::string("unbalanced '") + c + "' in a type");
        }
        fail(line, column(s), depth > 0 ? "unclosed bracket in a type" : "a type runs to the end of the line");
    }

    // Index of the bracket closing s[0] ('[' or '('), skipping quoted strings; npos when unclosed.
    static std::size_t matching(std::string_view s)
    {
        int depth = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '"' || c == '\'') {
                for (++i; i < s.size() && s[i] != c; ++i)
                    if (s[i] == '\\')
                        ++i;
                if (i >= s.size())
                    return std::string_view::npos;
            } else if (c == '(' || c == '[' || c == '{') {
                ++depth;
            } else if (c == ')' || c == ']' || c == '}') {
                if (--depth == 0)
                    return i;
            }
        }
        return std::string_view::npos;
    }

    // Top-level comma-separated parts (quotes and brackets nest).
    static std::vector<std::string_view> split(std::string_view s)
    {
        std::vector<std::string_view> parts;
        int depth = 0;
        std::size_t start = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '"' || c == '\'') {
                for (++i; i < s.size() && s[i] != c; ++i)
                    if (s[i] == '\\')
                        ++i;
            } else if (c == '(' || c == '[' || c == '{') {
                ++depth;
            } else if (c == ')' || c == ']' || c == '}') {
                --depth;
            } else if (c == ',' && depth == 0) {
                parts.push_back(trim(s.substr(start, i - start)));
                start = i + 1;
            }
        }
        if (!trim(s.substr(std::min(start, s.size()))).empty() || !parts.empty())
            parts.push_back(trim(s.substr(std::min(start, s.size()))));
        return parts;
    }

    // "(%a, %b)" -> names; advances s past ')'.
    std::vector<std::string> valueList(std::string_view& s, int line) const
    {
        std::vector<std::string> out;
        if (!s.starts_with("("))
            fail(line, column(s), "expected '(' and the inputs");
        const std::size_t close = matching(s);
        if (close == std::string_view::npos)
            fail(line, column(s), "unclosed '(' (truncated line?)");
        for (std::string_view part : split(s.substr(1, close - 1))) {
            if (!part.starts_with("%"))
                fail(line, column(part), "expected a value '%name'");
            part.remove_prefix(1);
            out.push_back(name(part, line));
            if (!trim(part).empty())
                fail(line, column(part), "unexpected text after a value name");
        }
        s.remove_prefix(close + 1);
        return out;
    }

    void returnStatement(std::string_view t, int line)
    {
        m_ts.returnLine = line;
        std::string_view rest = trim(t.substr(6));
        if (rest.starts_with("%")) {  // "return %x"
            rest.remove_prefix(1);
            m_ts.returns.push_back(name(rest, line));
        } else {
            m_ts.returns = valueList(rest, line);
        }
        rest = trim(rest);
        if (!rest.empty() && !rest.starts_with("#"))
            fail(line, column(rest), "unexpected text after the return values");
    }

    Arg literal(std::string_view v, int line, int depth) const
    {
        v = trim(v);
        if (v.empty())
            fail(line, column(v), "empty constant value");
        if (v.front() == '"' || v.front() == '\'')
            return Arg::ofString(unquote(v));
        if (v.front() == '[' || v.front() == '(') {
            if (depth >= kMaxListDepth)
                fail(line, column(v), "constant nested deeper than " + std::to_string(kMaxListDepth) + " lists");
            if (matching(v) != v.size() - 1)
                fail(line, column(v), "unbalanced brackets in a constant");
            std::vector<Arg> items;
            for (std::string_view item : split(v.substr(1, v.size() - 2)))
                items.push_back(literal(item, line, depth + 1));
            return Arg::ofList(std::move(items), v.front() == '[' ? Arg::Kind::List : Arg::Kind::Tuple);
        }
        if (v == "None")
            return Arg::none();
        if (v == "True" || v == "False")
            return Arg::ofBool(v == "True");
        std::int64_t i = 0;
        auto [ip, iec] = std::from_chars(v.data(), v.data() + v.size(), i);
        if (iec == std::errc() && ip == v.data() + v.size())
            return Arg::ofInt(i);
        if (iec == std::errc::result_out_of_range && ip == v.data() + v.size())
            fail(line, column(v), "integer constant out of int64 range: " + std::string(v.substr(0, 40)));
        return Arg::ofFloat(number(v, line));
    }

    double number(std::string_view v, int line) const
    {
        double f = 0;
        auto [fp, fec] = std::from_chars(v.data(), v.data() + v.size(), f);
        if (fec != std::errc() || fp != v.data() + v.size())
            fail(line, column(v), "unsupported constant value '" + std::string(v.substr(0, 60)) + "'");
        return f;
    }

    void constant(TsStatement& s, std::string_view value, int line) const
    {
        if (s.outputs.size() != 1)
            fail(line, 0, "prim::Constant with " + std::to_string(s.outputs.size()) + " outputs");
        const std::string& type = s.outputs[0].type;
        const std::size_t paren = type.find('(');
        if (type == "Tensor" || (paren != std::string::npos && paren > 0 && dtypeFromScalarTypeName(std::string_view(type).substr(0, paren)))) {
            s.tensorConstant = true;  // "<Tensor>" or the values printed: kept as a get_attr, not as text
            return;
        }
        if (value.empty()) {
            s.constant = Arg::none();
            return;
        }
        value = trim(value);
        if (type == "bool") {
            if (value != "0" && value != "1" && value != "True" && value != "False")
                fail(line, column(value), "bad bool constant '" + std::string(value.substr(0, 40)) + "'");
            s.constant = Arg::ofBool(value == "1" || value == "True");
        } else if (type == "float") {
            s.constant = Arg::ofFloat(number(value, line));
        } else if (type == "Device") {
            Arg d;
            d.kind = Arg::Kind::Device;
            std::string text = value.starts_with("\"") ? unquote(value) : std::string(value);
            const std::size_t colon = text.find(':');
            d.device.type = text.substr(0, colon);
            if (d.device.type.empty())
                fail(line, column(value), "bad device constant");
            if (colon != std::string::npos) {
                int index = -1;
                auto [p, ec] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), index);
                if (ec != std::errc() || p != text.data() + text.size() || index < 0)
                    fail(line, column(value), "bad device index in '" + text.substr(0, 40) + "'");
                d.device.index = index;
            }
            s.constant = d;
        } else {
            s.constant = literal(value, line, 0);
        }
    }

    TsStatement statement(std::string_view t, int line)
    {
        TsStatement s;
        s.line = line;
        std::string_view rest = t;
        while (rest.starts_with("%")) {
            rest.remove_prefix(1);
            s.outputs.push_back(typedValue(rest, line, ",="));
            if (rest.starts_with(",")) {
                rest = trim(rest.substr(1));
                if (!rest.starts_with("%"))
                    fail(line, column(rest), "expected another output '%name : type' after ','");
            }
        }
        if (!rest.starts_with("="))
            fail(line, column(rest), "expected '%name : type = op(...)' or 'return (...)'");
        rest = trim(rest.substr(1));
        std::size_t n = 0;
        while (n < rest.size() && isKindChar(rest[n]))
            ++n;
        s.kind = std::string(rest.substr(0, n));
        if (s.kind.find("::") == std::string::npos)
            fail(line, column(rest), "expected an operator 'ns::op'");
        rest.remove_prefix(n);
        std::string_view constantValue;
        if (rest.starts_with("[")) {
            const std::size_t close = matching(rest);
            if (close == std::string_view::npos)
                fail(line, column(rest), "unclosed '[' of the attributes (truncated line?)");
            for (std::string_view a : split(rest.substr(1, close - 1))) {
                const std::size_t eq = a.find('=');
                if (eq == std::string_view::npos || eq == 0)
                    fail(line, column(a), "expected an attribute 'name=value'");
                const std::string key(trim(a.substr(0, eq)));
                const std::string_view value = trim(a.substr(eq + 1));
                if (s.kind == "prim::Constant" && key == "value")
                    constantValue = value;
                else
                    s.attributes.emplace_back(key, value.starts_with("\"") && value.size() >= 2 ? unquote(value)
                                                                                                : std::string(value));
            }
            rest.remove_prefix(close + 1);
        }
        s.inputs = valueList(rest, line);
        if (s.kind == "prim::Constant")
            constant(s, constantValue, line);
        rest = trim(rest);
        if (rest.starts_with(", scope:")) {  // module scope of traced graphs: the stack comment says more
            const std::size_t hash = rest.find(" #");
            rest = hash == std::string_view::npos ? std::string_view() : trim(rest.substr(hash));
        }
        if (rest.starts_with("#"))
            s.comment = std::string(trim(rest.substr(1)));
        else if (!rest.empty())
            fail(line, column(rest), "unexpected text after the inputs");
        return s;
    }

    std::string m_file;
    std::vector<std::string_view> m_lines;
    std::size_t m_line = 0;  // index of the line being read (for the excerpt)
    TsGraph m_ts;
};

}  // namespace

TsGraph readTorchScript(std::string_view text, const std::string& fileName)
{
    requireUtf8(text, fileName);
    return Reader(text, fileName).read();
}

Graph parseTorchScript(std::string_view text, const std::string& fileName)
{
    return buildTorchScriptGraph(readTorchScript(text, fileName));
}

}  // namespace fxray::graph
