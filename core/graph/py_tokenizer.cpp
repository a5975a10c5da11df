#include "graph/py_tokenizer.h"

#include "base/error.h"
#include "base/utf8.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <optional>

namespace fxray::graph::detail {
namespace {

constexpr int kMaxBracketDepth = 256;

std::string hexByte(unsigned char b)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("\\x") + kHex[b >> 4] + kHex[b & 15];
}

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The physical line holding pos (a lone "\r" ends a line too, as for python), made printable.
std::string lineText(std::string_view text, std::size_t pos)
{
    pos = std::min(pos, text.size());
    std::size_t b = pos == 0 ? std::string_view::npos : text.find_last_of("\r\n", pos - 1);
    b = b == std::string_view::npos ? 0 : b + 1;
    std::size_t e = text.find_first_of("\r\n", pos);
    return printableText(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

class Tokenizer {
public:
    Tokenizer(std::string_view text, const std::string& fileName, int firstLine)
        : m_text(text), m_file(fileName), m_lineOffset(firstLine - 1) {}

    std::vector<LogicalLine> run()
    {
        // Notepad saves UTF-8 with a BOM, and python accepts it: skip it, so columns and indents start after it.
        if (m_text.starts_with("\xEF\xBB\xBF"))
            m_pos = m_lineStart = 3;
        checkUtf8();
        std::vector<LogicalLine> lines;
        LogicalLine current;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n' || c == '\r') {
                if (c == '\r' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n')
                    ++m_pos;
                advanceLine();
                if (m_brackets.empty() && !current.tokens.empty()) {
                    endLogicalLine(current);
                    lines.push_back(finished(current));
                }
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\f') {
                ++m_pos;
                continue;
            }
            if (c == '\\' && m_pos + 1 < m_text.size() && (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
                ++m_pos;  // explicit line continuation: the newline is consumed as whitespace
                if (m_text[m_pos] == '\r' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n')
                    ++m_pos;
                advanceLine();
                continue;
            }
            if (current.tokens.empty()) {
                current.indent = column() - 1;
                current.line = lineNo();
                m_logicalStart = m_pos;
                if (c != '#')  // comment-only lines take no part in python's indentation
                    checkIndent();
            }
            current.tokens.push_back(readToken(c));
        }
        if (!m_brackets.empty()) {
            // Point at the bracket left open, not at the end: that is the statement the text stops inside.
            const Open& o = m_brackets.back();
            throw Error("unclosed '" + std::string(1, o.bracket) + "': the text ends inside it (truncated?)",
                        SourceLocation{m_file, o.line, o.column, {}}, lineText(m_text, o.pos));
        }
        if (!current.tokens.empty()) {
            endLogicalLine(current);
            lines.push_back(finished(current));
        }
        if (m_blockOpener)
            throw Error("expected an indented block after line " + std::to_string(m_blockOpener->line) +
                            ", but the text ends (truncated?)",
                        SourceLocation{m_file, m_blockOpener->line, m_blockOpener->column, {}},
                        lineText(m_text, m_blockOpener->pos));
        return lines;
    }

private:
    // The token that starts at m_pos with `c` (not white space or a newline); m_pos moves past it.
    Token readToken(char c)
    {
        if (c == '#')
            return readComment();
        if (isIdentStart(c))
            return readNameOrPrefixedString();
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && m_pos + 1 < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1]))))
            return readNumber();
        if (c == '\'' || c == '"') {
            const int col = column();
            return {Token::Kind::String, readString(false), lineNo(), col};
        }
        return readOperator(c);
    }

    Token readComment()
    {
        std::size_t e = m_text.find_first_of("\r\n", m_pos);
        if (e == std::string_view::npos)
            e = m_text.size();
        std::string_view body = m_text.substr(m_pos + 1, e - m_pos - 1);
        while (!body.empty() && (body.front() == ' ' || body.front() == '\t'))
            body.remove_prefix(1);
        while (!body.empty() && (body.back() == ' ' || body.back() == '\t'))
            body.remove_suffix(1);
        Token t{Token::Kind::Comment, std::string(body), lineNo(), column()};
        m_pos = e;
        return t;
    }

    // A name, or a string with a prefix: r'..', b'..', f'..', rb'..'
    Token readNameOrPrefixedString()
    {
        const std::size_t s = m_pos;
        while (m_pos < m_text.size() && isIdentChar(m_text[m_pos]))
            ++m_pos;
        if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"') && m_pos - s <= 2) {
            const std::string prefix(m_text.substr(s, m_pos - s));
            bool allPrefix = true;
            for (char p : prefix)
                allPrefix = allPrefix && std::string_view("rRbBuUfF").find(p) != std::string_view::npos;
            if (allPrefix) {
                const int col = static_cast<int>(s - m_lineStart) + 1;
                const bool raw = prefix.find_first_of("rR") != std::string::npos;
                return {Token::Kind::String, readString(raw), lineNo(), col};
            }
        }
        return {Token::Kind::Name, std::string(m_text.substr(s, m_pos - s)), lineNo(), static_cast<int>(s - m_lineStart) + 1};
    }

    Token readNumber()
    {
        const std::size_t s = m_pos;
        while (m_pos < m_text.size()) {
            const char d = m_text[m_pos];
            if (isIdentChar(d) || d == '.') {
                ++m_pos;
            } else if ((d == '+' || d == '-') && (m_text[m_pos - 1] == 'e' || m_text[m_pos - 1] == 'E') &&
                       !(m_pos - s >= 2 && (m_text[s + 1] == 'x' || m_text[s + 1] == 'X'))) {
                ++m_pos;
            } else {
                break;
            }
        }
        return {Token::Kind::Number, std::string(m_text.substr(s, m_pos - s)), lineNo(), static_cast<int>(s - m_lineStart) + 1};
    }

    // Operators, longest first; dispatch on length so the common one-character case costs one lookup. Brackets
    // are matched here.
    Token readOperator(char c)
    {
        static constexpr std::string_view kOps3[] = {"**=", "//=", ">>=", "<<=", "..."};
        static constexpr std::string_view kOps2[] = {"->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>",
                                                     "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
                                                     ":="};
        static constexpr std::string_view kOps1 = "()[]{},:;.=+-*/%<>~&|^@";
        std::string_view op;
        for (std::string_view o : kOps3)
            if (op.empty() && m_text.compare(m_pos, 3, o) == 0)
                op = o;
        for (std::string_view o : kOps2)
            if (op.empty() && m_text[m_pos] == o[0] && m_text.compare(m_pos, 2, o) == 0)
                op = o;
        if (op.empty() && kOps1.find(c) != std::string_view::npos)
            op = m_text.substr(m_pos, 1);
        if (op.empty())
            failUnexpectedCharacter();
        if (op == "(" || op == "[" || op == "{") {
            // Generated code nests a few levels; the limit keeps the recursive parser's stack bounded.
            if (m_brackets.size() + 1 > static_cast<std::size_t>(kMaxBracketDepth))
                fail("brackets nested deeper than " + std::to_string(kMaxBracketDepth));
            m_brackets.push_back({op[0], lineNo(), column(), m_pos});
        } else if (op == ")" || op == "]" || op == "}") {
            const char open = op == ")" ? '(' : op == "]" ? '[' : '{';
            if (m_brackets.empty() || m_brackets.back().bracket != open)
                fail("unbalanced '" + std::string(op) + "'");
            m_brackets.pop_back();
        }
        Token t{Token::Kind::Op, std::string(op), lineNo(), column()};
        m_pos += op.size();
        return t;
    }

    // The line read so far, its tokens moved into a vector of their exact size; `current` keeps its capacity for the
    // next line. (Growing each line's own vector left ~1.5 KB per line reserved: hundreds of MiB for 100k nodes.)
    static LogicalLine finished(LogicalLine& current)
    {
        LogicalLine out;
        out.indent = current.indent;
        out.line = current.line;
        out.tokens.reserve(current.tokens.size());
        std::move(current.tokens.begin(), current.tokens.end(), std::back_inserter(out.tokens));
        current.tokens.clear();
        return out;
    }

    struct Indent {
        int column;     // with tab stops of 8, as python measures
        int altColumn;  // with tab stops of 1: python's check that tabs and spaces are not mixed ambiguously
    };
    struct Place {
        int line, column;
        std::size_t pos;
    };

    // Python's indentation rules (its tokenizer's indent stack), checked at the first token of each logical
    // line: fxray reads blocks by indentation, so a file python would refuse must not load as something else.
    // The first statement sets the base level (a snippet cut from a larger file may start indented).
    void checkIndent()
    {
        Indent now{0, 0};
        for (std::size_t k = m_lineStart; k < m_pos; ++k) {
            const char w = m_text[k];
            if (w == ' ') {
                ++now.column;
                ++now.altColumn;
            } else if (w == '\t') {
                now.column = (now.column / 8 + 1) * 8;
                ++now.altColumn;
            } else if (w == '\f') {
                now = {0, 0};
            }
        }
        const auto tabError = [&] { fail("inconsistent use of tabs and spaces in indentation"); };
        if (m_indents.empty()) {
            m_indents.push_back(now);
        } else if (m_blockOpener) {
            const Indent top = m_indents.back();
            if (now.column <= top.column)
                fail("expected an indented block after line " + std::to_string(m_blockOpener->line));
            if (now.altColumn <= top.altColumn)
                tabError();
            m_indents.push_back(now);
        } else if (now.column > m_indents.back().column) {
            fail("unexpected indent");
        } else {
            while (m_indents.size() > 1 && now.column < m_indents.back().column)
                m_indents.pop_back();
            if (now.column != m_indents.back().column)
                fail("unindent does not match any outer indentation level");
            if (now.altColumn != m_indents.back().altColumn)
                tabError();
        }
        m_blockOpener.reset();
    }

    // A logical line whose last token (comments aside) is ':' opens a block: the next one must be indented.
    void endLogicalLine(const LogicalLine& l)
    {
        for (auto it = l.tokens.rbegin(); it != l.tokens.rend(); ++it) {
            if (it->kind == Token::Kind::Comment)
                continue;
            if (it->is(":"))
                m_blockOpener = Place{l.line, l.tokens.front().column, m_logicalStart};
            return;
        }
    }

    // Python reads source as UTF-8 and so does fxray: a Latin-1 or cp1252 file is refused at its first bad
    // byte rather than letting stray bytes into node names, comments and messages.
    void checkUtf8()
    {
        std::size_t bad = m_pos;
        while (bad < m_text.size()) {
            const std::size_t n = utf8SequenceLength(m_text, bad);
            if (n == 0)
                break;
            bad += n;
        }
        if (bad >= m_text.size())
            return;
        int line = 1;
        std::size_t lineStart = m_pos;
        for (std::size_t k = m_pos; k < bad; ++k) {
            if (m_text[k] == '\n' || (m_text[k] == '\r' && (k + 1 >= m_text.size() || m_text[k + 1] != '\n'))) {
                ++line;
                lineStart = k + 1;
            }
        }
        throw Error("not UTF-8 text: byte 0x" + hexByte(static_cast<unsigned char>(m_text[bad])).substr(2) +
                        " (python reads FX code as UTF-8; was the file re-encoded, e.g. as Latin-1?)",
                    SourceLocation{m_file, line + m_lineOffset, static_cast<int>(bad - lineStart) + 1, {}},
                    lineText(m_text, bad));
    }

    [[noreturn]] void failUnexpectedCharacter() const
    {
        const auto b = static_cast<unsigned char>(m_text[m_pos]);
        if (b < 0x80) {
            const std::string shown = b < 0x20 || b == 0x7F ? hexByte(b) : std::string(1, static_cast<char>(b));
            fail("unexpected character '" + shown + "'");
        }
        // Valid UTF-8 (checked up front): name the whole character, not its first byte.
        const std::size_t n = utf8SequenceLength(m_text, m_pos);
        unsigned codePoint = b & (0xFF >> (n + 1));
        for (std::size_t k = 1; k < n; ++k)
            codePoint = codePoint << 6 | (static_cast<unsigned char>(m_text[m_pos + k]) & 0x3F);
        char hex[16];
        std::snprintf(hex, sizeof hex, "U+%04X", codePoint);
        fail("unexpected character '" + std::string(m_text.substr(m_pos, n)) + "' (" + hex +
             "): outside strings and comments FX code is ASCII");
    }

    int lineNo() const { return m_line + m_lineOffset; }
    int column() const { return static_cast<int>(m_pos - m_lineStart) + 1; }
    void advanceLine()
    {
        ++m_pos;
        ++m_line;
        m_lineStart = m_pos;
    }

    [[noreturn]] void fail(const std::string& msg) const
    {
        throw Error(msg, SourceLocation{m_file, lineNo(), column(), {}}, lineText(m_text, m_pos));
    }

    std::string readString(bool raw)
    {
        const char quote = m_text[m_pos];
        const bool triple = m_text.substr(m_pos, 3) == std::string(3, quote);
        const std::size_t startPos = m_pos;
        m_pos += triple ? 3 : 1;
        std::string out;
        while (true) {
            if (m_pos >= m_text.size()) {
                m_pos = startPos;
                fail("unterminated string: the text ends inside it (truncated?)");
            }
            char c = m_text[m_pos];
            if (triple && m_text.substr(m_pos, 3) == std::string(3, quote)) {
                m_pos += 3;
                return out;
            }
            if (!triple && c == quote) {
                ++m_pos;
                return out;
            }
            if (c == '\n') {
                if (!triple) {
                    m_pos = startPos;
                    fail("unterminated string");
                }
                out += c;
                advanceLine();
                continue;
            }
            if (c == '\\' && !raw && m_pos + 1 < m_text.size()) {
                char e = m_text[m_pos + 1];
                m_pos += 2;
                switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case '0': out += '\0'; break;
                case '\\': out += '\\'; break;
                case '\'': out += '\''; break;
                case '"': out += '"'; break;
                case '\n': ++m_line; m_lineStart = m_pos; break;
                case 'x': {
                    int v = 0;
                    for (int k = 0; k < 2; ++k) {
                        char h = m_pos < m_text.size() ? m_text[m_pos] : '\0';
                        if (!std::isxdigit(static_cast<unsigned char>(h)))
                            fail("bad \\x escape in string");
                        v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
                        ++m_pos;
                    }
                    out += static_cast<char>(v);
                    break;
                }
                default: out += '\\'; out += e; break;
                }
                continue;
            }
            if (c == '\\' && raw && m_pos + 1 < m_text.size()) {
                out += c;
                out += m_text[m_pos + 1];
                m_pos += 2;
                continue;
            }
            out += c;
            ++m_pos;
        }
    }

    std::string_view m_text;
    const std::string& m_file;
    int m_lineOffset;
    std::size_t m_pos = 0;
    std::size_t m_lineStart = 0;
    int m_line = 1;
    std::size_t m_logicalStart = 0;  // offset of the current logical line's first token
    std::vector<Indent> m_indents;
    std::optional<Place> m_blockOpener;  // the last logical line ended with ':'
    struct Open {
        char bracket;
        int line, column;
        std::size_t pos;
    };
    std::vector<Open> m_brackets;  // open now, innermost last
};

}  // namespace

std::vector<LogicalLine> tokenizePython(std::string_view text, const std::string& fileName, int firstLine)
{
    return Tokenizer(text, fileName, firstLine).run();
}

std::string printableText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t k = 0; k < text.size();) {
        const auto b = static_cast<unsigned char>(text[k]);
        const std::size_t n = utf8SequenceLength(text, k);
        if (n == 0 || (b < 0x20 && b != '\t') || b == 0x7F) {
            out += hexByte(b);
            ++k;
        } else {
            out.append(text.substr(k, n));
            k += n;
        }
    }
    return out;
}

}  // namespace fxray::graph::detail
