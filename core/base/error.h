#pragma once
// fxray's one error type. Expected failures (bad file, unknown construct, unsupported op) are thrown as
// fxray::Error inside core and caught at module edges (CLI main, GUI jobs), where the message is shown.
// A failing graph is a result (a report), never an Error.
#include <stdexcept>
#include <string>

namespace fxray {

// Where an error points: any part may be empty/zero when unknown.
struct SourceLocation {
    std::string file;
    int line = 0;    // 1-based, 0 = unknown
    int column = 0;  // 1-based, 0 = unknown
    std::string node;  // FX node name, when the error is about one node
};

// A location in a file (line 0 = the whole file).
inline SourceLocation fileLocation(std::string file, int line = 0, int column = 0)
{
    return SourceLocation{std::move(file), line, column, {}};
}

class Error : public std::runtime_error {
public:
    Error(std::string message, SourceLocation where = {}, std::string excerpt = {});

    const std::string& message() const { return m_message; }
    const SourceLocation& where() const { return m_where; }
    // The offending source text (one line), shown under the message.
    const std::string& excerpt() const { return m_excerpt; }

private:
    std::string m_message;
    SourceLocation m_where;
    std::string m_excerpt;
};

// "file:line:col: node 'x': message\n    excerpt" — the format every front end prints.
std::string formatError(const std::string& message, const SourceLocation& where, const std::string& excerpt);

}  // namespace fxray
