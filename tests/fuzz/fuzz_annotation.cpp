// libFuzzer harness: the annotation parser ("f32[s0, 64][64, 1]cuda:0", "Sym(s0 + 1)") and the size-expression
// evaluator behind it (Max/Min/FloorDiv/ModularIndexing/..., checked arithmetic, depth and length limits), fed
// both the annotation text and, separately, the raw bytes as an expression. Anything but fxray::Error is a finding.
#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/sym_expr.h"
#include "graph/tensor_meta.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const fxray::graph::SymExpr::Bindings bindings{{"s0", 3}, {"s1", -7}, {"s77", 1LL << 40}, {"u0", 0}};
    try {
        const auto meta = fxray::graph::parseAnnotation(text, {"fuzz", 1, 1, "n"});
        (void)fxray::graph::formatAnnotation(meta);
        if (meta.isTensor())
            for (const auto& d : meta.tensor.sizes)
                if (!d.isConstant())
                    (void)fxray::graph::SymExpr::parse(d.expr).evaluate(bindings);
    } catch (const fxray::Error&) {
    }
    try {
        const auto e = fxray::graph::SymExpr::parse(text);
        (void)e.evaluate(bindings);
        (void)e.symbols();
    } catch (const fxray::Error&) {
    }
    return 0;
}
