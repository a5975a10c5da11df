#include "graph/py_tokenizer.h"

#include "base/error.h"

#include <cctype>

namespace fxray::graph::detail {
namespace {

constexpr int kMaxBracketDepth = 256;

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string lineText(std::string_view text, std::size_t pos)
{
    std::size_t b = text.rfind('\n', pos == 0 ? 0 : pos - 1);
    b = (b == std::string_view::npos || pos == 0) ? 0 : b + 1;
    std::size_t e = text.find('\n', pos);
    return std::string(text.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

class Tokenizer {
public:
    Tokenizer(std::string_view text, const std::string& fileName, int firstLine)
        : m_text(text), m_file(fileName), m_lineOffset(firstLine - 1) {}

    std::vector<LogicalLine> run()
    {
        std::vector<LogicalLine> lines;
        LogicalLine current;
        int depth = 0;
        std::vector<char> brackets;
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos];
            if (c == '\n' || c == '\r') {
                if (c == '\r' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n')
                    ++m_pos;
                advanceLine();
                if (depth == 0 && !current.tokens.empty()) {
                    lines.push_back(std::move(current));
                    current = LogicalLine{};
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
                current.tokens.reserve(32);
                current.indent = column() - 1;
                current.line = lineNo();
            }
            if (c == '#') {
                std::size_t e = m_text.find_first_of("\r\n", m_pos);
                if (e == std::string_view::npos)
                    e = m_text.size();
                std::string_view body = m_text.substr(m_pos + 1, e - m_pos - 1);
                while (!body.empty() && (body.front() == ' ' || body.front() == '\t'))
                    body.remove_prefix(1);
                while (!body.empty() && (body.back() == ' ' || body.back() == '\t'))
                    body.remove_suffix(1);
                current.tokens.push_back({Token::Kind::Comment, std::string(body), lineNo(), column()});
                m_pos = e;
                continue;
            }
            if (isIdentStart(c)) {
                std::size_t s = m_pos;
                while (m_pos < m_text.size() && isIdentChar(m_text[m_pos]))
                    ++m_pos;
                // String prefixes: r'..', b'..', f'..', rb'..'
                if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"') && m_pos - s <= 2) {
                    std::string prefix(m_text.substr(s, m_pos - s));
                    bool allPrefix = true;
                    for (char p : prefix)
                        allPrefix = allPrefix && std::string_view("rRbBuUfF").find(p) != std::string_view::npos;
                    if (allPrefix) {
                        int col = static_cast<int>(s - m_lineStart) + 1;
                        bool raw = prefix.find_first_of("rR") != std::string::npos;
                        current.tokens.push_back({Token::Kind::String, readString(raw), lineNo(), col});
                        continue;
                    }
                }
                current.tokens.push_back({Token::Kind::Name, std::string(m_text.substr(s, m_pos - s)), lineNo(),
                                          static_cast<int>(s - m_lineStart) + 1});
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c)) ||
                (c == '.' && m_pos + 1 < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
                std::size_t s = m_pos;
                while (m_pos < m_text.size()) {
                    char d = m_text[m_pos];
                    if (isIdentChar(d) || d == '.') {
                        ++m_pos;
                    } else if ((d == '+' || d == '-') && (m_text[m_pos - 1] == 'e' || m_text[m_pos - 1] == 'E') &&
                               !(m_pos - s >= 2 && (m_text[s + 1] == 'x' || m_text[s + 1] == 'X'))) {
                        ++m_pos;
                    } else {
                        break;
                    }
                }
                current.tokens.push_back({Token::Kind::Number, std::string(m_text.substr(s, m_pos - s)), lineNo(),
                                          static_cast<int>(s - m_lineStart) + 1});
                continue;
            }
            if (c == '\'' || c == '"') {
                int col = column();
                current.tokens.push_back({Token::Kind::String, readString(false), lineNo(), col});
                continue;
            }
            // Operators, longest first; dispatch on length so the common one-character case costs one lookup.
            static constexpr std::string_view kOps3[] = {"**=", "//=", ">>=", "<<=", "..."};
            static constexpr std::string_view kOps2[] = {"->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>",
                                                         "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ":="};
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
            bool matched = !op.empty();
            if (matched) {
                if (op == "(" || op == "[" || op == "{") {
                    // Generated code nests a few levels; the limit keeps the recursive parser's stack bounded.
                    if (++depth > kMaxBracketDepth)
                        fail("brackets nested deeper than " + std::to_string(kMaxBracketDepth));
                    brackets.push_back(op[0]);
                } else if (op == ")" || op == "]" || op == "}") {
                    char open = op == ")" ? '(' : op == "]" ? '[' : '{';
                    if (brackets.empty() || brackets.back() != open)
                        fail("unbalanced '" + std::string(op) + "'");
                    brackets.pop_back();
                    --depth;
                }
                current.tokens.push_back({Token::Kind::Op, std::string(op), lineNo(), column()});
                m_pos += op.size();
            }
            if (!matched)
                fail(std::string("unexpected character '") + c + "'");
        }
        if (depth != 0)
            fail("unclosed '" + std::string(1, brackets.back()) + "' at end of text");
        if (!current.tokens.empty())
            lines.push_back(std::move(current));
        return lines;
    }

private:
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
                fail("unterminated string");
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
};

}  // namespace

std::vector<LogicalLine> tokenizePython(std::string_view text, const std::string& fileName, int firstLine)
{
    return Tokenizer(text, fileName, firstLine).run();
}

}  // namespace fxray::graph::detail
