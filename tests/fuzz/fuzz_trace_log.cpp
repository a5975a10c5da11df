// libFuzzer harness: the TORCH_TRACE reader (record headers as JSON, payload lines, MD5 checks, CRLF) and the
// graph records found in it, each payload then through the FX-code parser as `fxray` would load it.
// Anything but fxray::Error is a finding.
#include "base/error.h"
#include "graph/fx_parser.h"
#include "io/trace_log.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto log = fxray::io::parseTraceLog(text, "fuzz.log");
        for (const auto& g : fxray::io::graphRecords(log)) {
            const auto& rec = log.records[g.index];
            try {
                (void)fxray::graph::parseFxModule(rec.payload, {"fuzz.log", rec.payloadLine});
            } catch (const fxray::Error&) {
            }
        }
    } catch (const fxray::Error&) {
    }
    return 0;
}
