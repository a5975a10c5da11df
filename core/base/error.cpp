#include "base/error.h"

namespace fxray {

std::string formatError(const std::string& message, const SourceLocation& where, const std::string& excerpt)
{
    std::string out;
    if (!where.file.empty()) {
        out += where.file;
        if (where.line > 0) {
            out += ':' + std::to_string(where.line);
            if (where.column > 0)
                out += ':' + std::to_string(where.column);
        }
        out += ": ";
    }
    if (!where.node.empty())
        out += "node '" + where.node + "': ";
    out += message;
    if (!excerpt.empty()) {
        out += "\n    ";
        out += excerpt;
    }
    return out;
}

Error::Error(std::string message, SourceLocation where, std::string excerpt)
    : std::runtime_error(formatError(message, where, excerpt))
    , m_message(std::move(message))
    , m_where(std::move(where))
    , m_excerpt(std::move(excerpt))
{
}

}  // namespace fxray
