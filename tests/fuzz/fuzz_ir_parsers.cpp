// libFuzzer harness: the TorchScript IR text parser and the two lazy-tensor IR dump readers (text, DOT), each fed
// the same bytes; a graph that parses must print as FX code that parses back. Anything but fxray::Error is a finding.
#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/lazy_ir_parser.h"
#include "graph/printer.h"
#include "graph/torchscript_parser.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using Parse = fxray::graph::Graph (*)(std::string_view, const std::string&);
    for (Parse parse : {Parse(&fxray::graph::parseTorchScript), Parse(&fxray::graph::parseLazyIrText),
                        Parse(&fxray::graph::parseLazyIrDot)}) {
        fxray::graph::Graph g;
        try {
            g = parse(text, "fuzz");
        } catch (const fxray::Error&) {
            continue;
        }
        // Names, literals and targets of a parsed graph are FX's: its printed code must read back.
        (void)fxray::graph::parseFxModule(fxray::graph::printReadable(g), {"printed", 1});
    }
    return 0;
}
