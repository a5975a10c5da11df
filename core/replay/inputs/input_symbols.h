#pragma once
// Internal to core/replay: the values of size symbols for generated inputs. A symbol takes the caller's value
// (options.symbolValues) first, then a hint recorded for a SymInt input, then the value a trace log's create_symbol
// recorded for it (io/symbol_hints.h), then options.symbolDefault (each such
// assumption noted in the report), so that every size that uses it is consistent.
#include "graph/sym_expr.h"
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <cstdint>
#include <string>

namespace fxray::replay::detail {

class InputSymbols {
public:
    InputSymbols(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report);

    // The value of a recorded size, stride or offset; throws fxray::Error naming `input` when it cannot be evaluated.
    std::int64_t resolve(const graph::SymDim& d, const std::string& input) const;
    const graph::SymExpr::Bindings& bindings() const { return m_bindings; }

private:
    void assume(const std::string& expr, const ReplayOptions& options, ReplayReport& report);
    graph::SymExpr::Bindings m_bindings;
};

bool isIntLike(const graph::ValueMeta& m);

}  // namespace fxray::replay::detail
