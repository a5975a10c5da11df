#include "replay/inputs/input_symbols.h"

#include "base/error.h"

namespace fxray::replay::detail {

bool isIntLike(const graph::ValueMeta& m)
{
    return m.kind == graph::ValueMeta::Kind::Int || m.kind == graph::ValueMeta::Kind::SymInt;
}

InputSymbols::InputSymbols(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report)
    : m_bindings(options.symbolValues.begin(), options.symbolValues.end())
{
    const graph::Graph& g = lg.graph;
    const auto placeholders = g.placeholders();
    // Symbols bound from SymInt inputs' hints (the .input pickle's value for a placeholder annotated Sym(s0)).
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const auto& spec = lg.inputs[k];
        const graph::Node& n = g.nodes[static_cast<std::size_t>(placeholders[k])];
        if (spec.meta && isIntLike(*spec.meta) && !spec.meta->symExpr.empty() && n.meta && isIntLike(*n.meta)) {
            auto hint = graph::SymExpr::parse(spec.meta->symExpr).evaluate({});
            std::string sym = graph::SymExpr::parse(n.meta->symExpr).singleSymbol();
            if (hint && !sym.empty() && !options.symbolValues.count(sym))
                m_bindings[sym] = *hint;
        }
    }
    // Then the values the run had, as the trace log recorded them (create_symbol).
    for (const auto& [sym, value] : lg.symbolHints)
        m_bindings.emplace(sym, value);
    // Symbols still free after the hints take the default.
    for (const auto& spec : lg.inputs) {
        if (!spec.meta)
            continue;
        if (spec.meta->isTensor()) {
            for (const auto& d : spec.meta->tensor.sizes)
                if (!d.isConstant())
                    assume(d.expr, options, report);
        } else if (isIntLike(*spec.meta) && !spec.meta->symExpr.empty()) {
            assume(spec.meta->symExpr, options, report);
        }
    }
    report.symbols.insert(m_bindings.begin(), m_bindings.end());
}

void InputSymbols::assume(const std::string& expr, const ReplayOptions& options, ReplayReport& report)
{
    for (const std::string& sym : graph::SymExpr::parse(expr).symbols()) {
        if (!m_bindings.count(sym)) {
            m_bindings[sym] = options.symbolDefault;
            report.notes.push_back(sym + " = " + std::to_string(options.symbolDefault) + ": no hint recorded for it");
        }
    }
}

std::int64_t InputSymbols::resolve(const graph::SymDim& d, const std::string& input) const
{
    if (d.isConstant())
        return *d.value;
    auto v = graph::SymExpr::parse(d.expr).evaluate(m_bindings);
    if (!v)
        throw Error("size '" + d.expr + "' of input '" + input + "' cannot be evaluated");
    return *v;
}

}  // namespace fxray::replay::detail
