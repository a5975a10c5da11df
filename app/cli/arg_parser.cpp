#include "arg_parser.h"

namespace fxray::cli {

ArgParser::ArgParser(const std::vector<std::string>& args, std::set<std::string> valued, std::set<std::string> flags)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() > 1 && a[0] == '-') {
            std::string name = a;
            std::optional<std::string> inlineValue;
            if (auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
                name = a.substr(0, eq);
                inlineValue = a.substr(eq + 1);
            }
            if (valued.count(name)) {
                if (!inlineValue) {
                    if (i + 1 >= args.size())
                        throw Error("option " + name + " needs a value");
                    inlineValue = args[++i];
                }
                m_values.emplace_back(name, *inlineValue);
            } else if (flags.count(name) && !inlineValue) {
                m_flags.insert(name);
            } else {
                throw Error("unknown option " + a);
            }
        } else {
            m_positionals.push_back(a);
        }
    }
}

std::optional<std::string> ArgParser::value(const std::string& name) const
{
    for (auto it = m_values.rbegin(); it != m_values.rend(); ++it)
        if (it->first == name)
            return it->second;
    return std::nullopt;
}

std::vector<std::string> ArgParser::values(const std::string& name) const
{
    std::vector<std::string> out;
    for (const auto& [k, v] : m_values)
        if (k == name)
            out.push_back(v);
    return out;
}

void ArgParser::expectPositionals(std::size_t n, std::string_view usage) const
{
    if (m_positionals.size() != n)
        throw Error("usage: " + std::string(usage));
}

}  // namespace fxray::cli
