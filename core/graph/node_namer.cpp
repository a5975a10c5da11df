#include "graph/node_namer.h"

#include <cctype>

namespace fxray::graph {
namespace {

// Names the FX parser treats as keywords or literals, and the module-level names printed code uses.
bool reserved(const std::string& s)
{
    static const std::unordered_set<std::string> kReserved = {
        "if", "elif", "else", "for", "while", "with", "try", "except", "finally", "pass", "del", "import", "from",
        "raise", "assert", "global", "nonlocal", "lambda", "yield", "def", "class", "break", "continue", "async",
        "await", "return", "in", "is", "not", "and", "or", "as", "True", "False", "None", "inf", "nan", "device",
        "slice", "self", "torch", "operator", "math", "pytree", "fx_pytree", "NoneType", "output"};
    return kReserved.count(s) > 0;
}

}  // namespace

bool NodeNamer::isAnonymous(std::string_view name)
{
    if (name.empty())
        return true;
    for (char c : name)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    return true;
}

std::string NodeNamer::unique(std::string_view wanted)
{
    std::string base;
    base.reserve(wanted.size() + 1);
    for (char c : wanted)
        base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
        base.insert(0, "v");
    if (!reserved(base) && m_used.insert(base).second)
        return base;
    int& next = m_next[base];
    for (;;) {
        std::string candidate = base + "_" + std::to_string(++next);
        if (m_used.insert(candidate).second)
            return candidate;
    }
}

std::optional<std::string> withoutFxSuffix(std::string_view name)
{
    const std::size_t cut = name.find_last_of('_');
    if (cut == std::string_view::npos || cut + 1 == name.size() ||
        name.find_first_not_of("0123456789", cut + 1) != std::string_view::npos)
        return std::nullopt;
    return std::string(name.substr(0, cut));
}

}  // namespace fxray::graph
