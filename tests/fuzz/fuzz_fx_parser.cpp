// libFuzzer harness: the FX-code parser (and through it the tokenizer, annotation and load_args parsers), then the
// printers and the structural hash on whatever parsed. Anything but fxray::Error is a finding.
#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"
#include "graph/sym_expr.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        auto m = fxray::graph::parseFxModule(text, {"fuzz.py", 1});
        (void)fxray::graph::structuralHash(m.graph);
        (void)fxray::graph::topologicalOrder(m.graph);
        const std::string again = fxray::graph::printReadable(m.graph);
        (void)fxray::graph::parseFxModule(again, {"reprinted.py", 1});
        for (const auto& n : m.graph.nodes)
            if (n.meta && n.meta->isTensor())
                for (const auto& d : n.meta->tensor.sizes)
                    if (!d.isConstant())
                        (void)fxray::graph::SymExpr::parse(d.expr).evaluate({{"s0", 3}});
    } catch (const fxray::Error&) {
    }
    return 0;
}
