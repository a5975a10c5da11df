#pragma once
// Minimal option parsing shared by the subcommands: positionals, --flag, --opt value / --opt=value, -o value.
#include "base/error.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fxray::cli {

class ArgParser {
public:
    // `valued` lists options that take a value (e.g. {"-o", "--device"}); `flags` those that don't.
    ArgParser(const std::vector<std::string>& args, std::set<std::string> valued, std::set<std::string> flags);

    bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;  // the last one given
    std::vector<std::string> values(const std::string& name) const;   // every one given, in order
    const std::vector<std::string>& positionals() const { return m_positionals; }
    // Throws fxray::Error("<usage>") unless exactly n positionals were given.
    void expectPositionals(std::size_t n, std::string_view usage) const;

private:
    std::set<std::string> m_flags;
    std::vector<std::pair<std::string, std::string>> m_values;
    std::vector<std::string> m_positionals;
};

}  // namespace fxray::cli
