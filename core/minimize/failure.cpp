#include "minimize/failure.h"

#include "base/error.h"

#include <regex>

namespace fxray::minimize {
namespace {

bool startsWithKind(std::string_view s)
{
    for (std::string_view k : {"mismatch", "error", "nan", "diverge", "cmd"})
        if (s.substr(0, k.size()) == k && (s.size() == k.size() || s[k.size()] == ':' || s[k.size()] == ','))
            return true;
    return false;
}

}  // namespace

std::vector<FailureSpec> parseFailureSpecs(const std::string& text)
{
    std::vector<FailureSpec> out;
    std::string_view rest = text;
    while (!rest.empty()) {
        // A spec ends at a ',' that starts another spec; a pattern may hold commas of its own.
        std::size_t end = std::string_view::npos;
        for (std::size_t p = rest.find(','); p != std::string_view::npos; p = rest.find(',', p + 1)) {
            if (startsWithKind(rest.substr(p + 1))) {
                end = p;
                break;
            }
        }
        std::string_view one = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        const std::size_t colon = one.find(':');
        const std::string kind(one.substr(0, colon));
        const std::string pattern = colon == std::string_view::npos ? std::string() : std::string(one.substr(colon + 1));
        FailureSpec s{FailureSpec::Kind::Mismatch, pattern};
        if (kind == "mismatch" && pattern.empty())
            s.kind = FailureSpec::Kind::Mismatch;
        else if (kind == "error")
            s.kind = FailureSpec::Kind::Error;
        else if (kind == "nan" && pattern.empty())
            s.kind = FailureSpec::Kind::Nan;
        else if (kind == "diverge" && pattern == "output_code")
            s.kind = FailureSpec::Kind::OutputCode;
        else if (kind == "diverge" && pattern == "post_grad")
            s.kind = FailureSpec::Kind::PostGrad;
        else if (kind == "diverge")
            s.kind = FailureSpec::Kind::Diverge, s.pattern = pattern.empty() ? "cpu" : pattern;
        else if (kind == "cmd" && !pattern.empty())
            s.kind = FailureSpec::Kind::Command;
        else
            throw Error("--until: '" + std::string(one) +
                        "' is not one of mismatch, error[:REGEX], nan, diverge[:DEVICE], diverge:output_code, diverge:post_grad, cmd:COMMAND");
        if (s.kind == FailureSpec::Kind::Error && !s.pattern.empty()) {
            try {
                std::regex check(s.pattern);
            } catch (const std::regex_error& e) {
                throw Error("--until error:" + s.pattern + ": not a regular expression (" + e.what() + ")");
            }
        }
        out.push_back(std::move(s));
    }
    if (out.empty())
        throw Error("--until: say which failure to keep (mismatch, error[:REGEX], nan, diverge[:DEVICE], cmd:COMMAND)");
    return out;
}

std::string describe(const FailureSpec& s)
{
    switch (s.kind) {
    case FailureSpec::Kind::Mismatch: return "mismatch";
    case FailureSpec::Kind::Error: return s.pattern.empty() ? "error" : "error:" + s.pattern;
    case FailureSpec::Kind::Nan: return "nan";
    case FailureSpec::Kind::Diverge: return "diverge:" + s.pattern;
    case FailureSpec::Kind::Command: return "cmd:" + s.pattern;
    case FailureSpec::Kind::OutputCode: return "diverge:output_code";
    case FailureSpec::Kind::PostGrad: return "diverge:post_grad";
    }
    return "?";
}

std::string Signature::str() const
{
    std::string s = kind;
    if (!op.empty())
        s += " at " + op;
    if (!messageClass.empty())
        s += ": " + messageClass;
    return s;
}

std::string messageClass(const std::string& message)
{
    std::string first = message.substr(0, message.find('\n'));
    if (auto p = first.find("Exception raised from"); p != std::string::npos)
        first.erase(p);
    std::string out;
    bool inDigits = false;
    char quote = 0;
    for (char c : first) {
        if (quote) {
            if (c == quote) {
                out += "'…'";
                quote = 0;
            }
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            continue;
        }
        const bool digit = c >= '0' && c <= '9';
        if (digit && !inDigits)
            out += '#';
        inDigits = digit;
        if (!digit)
            out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '.'))
        out.pop_back();
    if (out.size() > 200)
        out.resize(200);
    return out;
}

std::vector<Signature> failuresIn(const replay::ReplayReport& r, const std::vector<FailureSpec>& specs)
{
    auto wants = [&](FailureSpec::Kind k) {
        for (const auto& s : specs)
            if (s.kind == k)
                return true;
        return false;
    };
    std::vector<Signature> out;
    for (const replay::NodeResult& n : r.nodes) {
        if (wants(FailureSpec::Kind::Mismatch))
            for (const replay::Mismatch& m : n.mismatches)
                out.push_back({"mismatch:" + std::string(replay::mismatchKindName(m.kind)), n.target, "", n.name,
                               std::string(replay::mismatchKindName(m.kind)) + " of output " + std::to_string(m.output) +
                                   ": recorded " + m.expected + ", got " + m.actual});
        if (n.status == replay::NodeStatus::Error && !n.error.empty()) {
            for (const auto& s : specs) {
                if (s.kind != FailureSpec::Kind::Error)
                    continue;
                if (!s.pattern.empty() && !std::regex_search(n.error, std::regex(s.pattern)))
                    continue;
                out.push_back({"error", n.target, messageClass(n.error), n.name, n.error});
                break;
            }
        }
        if (n.nanOrigin && wants(FailureSpec::Kind::Nan)) {
            std::int64_t nans = 0, infs = 0;
            for (const auto& s : n.outputs)
                nans += s.nanCount, infs += s.infCount;
            out.push_back({nans > 0 ? "nan" : "inf", n.target, "", n.name,
                           std::to_string(nans) + " NaN, " + std::to_string(infs) + " Inf from finite inputs"});
        }
    }
    if (wants(FailureSpec::Kind::Diverge))
        for (const replay::OutputComparison& c : r.comparisons)
            if (!c.ok) {
                out.push_back({"diverge", "", "", "output", "output " + std::to_string(c.output) + " vs " + r.reference +
                                                                ": max abs " + std::to_string(c.maxAbs) + " " + c.note});
                break;
            }
    return out;
}

}  // namespace fxray::minimize
