#include "io/symbol_hints.h"

#include <exception>
#include <functional>

namespace fxray::io {
namespace {

// Calls f(symbol, source, value) for each create_symbol record of compile (frame, compile) with an integer value.
void forEachHint(const TraceLog& log, int frame, int compile,
                 const std::function<void(const std::string&, const std::string&, std::int64_t)>& f)
{
    for (const TraceRecord& r : log.records) {
        if (r.kind != "create_symbol" || r.frameId != frame || r.frameCompileId != compile)
            continue;
        const json::Value* body = r.header.find("create_symbol");
        const json::Value* sym = body ? body->find("symbol") : nullptr;
        const json::Value* val = body ? body->find("val") : nullptr;
        const json::Value* src = body ? body->find("source") : nullptr;
        if (!sym || !sym->isString() || !val || !val->isString())
            continue;
        std::size_t used = 0;
        std::int64_t v = 0;
        try {
            v = std::stoll(val->asString(), &used);
        } catch (const std::exception&) {
            continue;  // not an integer (a float symbol, a damaged value): no hint
        }
        if (used != val->asString().size())
            continue;
        f(sym->asString(), src && src->isString() ? src->asString() : std::string(), v);
    }
}

}  // namespace

std::map<std::string, std::int64_t, std::less<>> symbolHints(const TraceLog& log, int frame, int compile)
{
    std::map<std::string, std::int64_t, std::less<>> out;
    forEachHint(log, frame, compile, [&](const std::string& sym, const std::string&, std::int64_t v) { out.emplace(sym, v); });
    return out;
}

std::optional<std::int64_t> sourceHint(const TraceLog& log, int frame, int compile, const std::string& source)
{
    std::optional<std::int64_t> out;
    forEachHint(log, frame, compile, [&](const std::string&, const std::string& src, std::int64_t v) {
        if (!out && src == source)
            out = v;
    });
    return out;
}

}  // namespace fxray::io
