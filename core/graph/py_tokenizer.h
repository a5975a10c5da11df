#pragma once
// A tokenizer for the subset of Python that FX code generation and torch's repro scripts emit.
// Produces logical lines (physical lines joined inside brackets), keeping comments as tokens so the parser
// can attach stack-trace comments and placeholder comments to nodes.
#include <string>
#include <string_view>
#include <vector>

namespace fxray::graph::detail {

struct Token {
    enum class Kind { Name, Number, String, Op, Comment };
    Kind kind;
    std::string text;  // Name/Number/Op: as written; String: decoded value; Comment: text after '#', trimmed
    int line;          // 1-based physical line (relative to the text)
    int column;        // 1-based
    // Hot in the parser: compare lengths first, single characters directly.
    bool is(std::string_view op) const
    {
        return kind == Kind::Op && text.size() == op.size() && (op.size() == 1 ? text[0] == op[0] : text == op);
    }
    bool isName(std::string_view n) const { return kind == Kind::Name && text == n; }
};

struct LogicalLine {
    int indent = 0;           // column of the first token, 0-based
    int line = 0;             // physical line of the first token
    std::vector<Token> tokens;  // comments inside brackets and a trailing comment stay in the stream
    bool commentOnly() const { return tokens.size() == 1 && tokens[0].kind == Token::Kind::Comment; }
};

// Throws fxray::Error (file:line:column) on text that is not UTF-8, an unterminated string, a stray character,
// an unbalanced bracket, or indentation python would refuse (unexpected indent, a dedent to no outer level,
// a block opener with no indented block, tabs and spaces mixed ambiguously). A UTF-8 BOM is skipped.
std::vector<LogicalLine> tokenizePython(std::string_view text, const std::string& fileName, int firstLine);

// The text with control characters and bytes that are not UTF-8 written as \xNN: messages quote file text,
// and a NUL would cut them short (std::runtime_error keeps a C string), invalid UTF-8 would garble them.
std::string printableText(std::string_view text);

}  // namespace fxray::graph::detail
