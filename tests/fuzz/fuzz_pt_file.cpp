// libFuzzer harness: the zip reader (central directory, ZIP64, local headers, CRC) and the torch.save reader on
// top of it (data.pkl through the restricted unpickler, storages, tensor rebuilds, sizes vs storage bytes).
// Anything but fxray::Error is a finding.
#include "base/error.h"
#include "io/pt_file.h"
#include "io/zip_reader.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        auto zip = std::make_shared<const fxray::io::ZipReader>(std::string(reinterpret_cast<const char*>(data), size), "fuzz.pt");
        for (const auto& e : zip->entries()) {
            try {
                (void)zip->crcMatches(e);
            } catch (const fxray::Error&) {
            }
        }
        (void)fxray::io::readPtFile(zip);
    } catch (const fxray::Error&) {
    }
    return 0;
}
