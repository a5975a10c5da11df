// libFuzzer harness: fxray's restricted unpickler, as the .input reader and as a general pickle (every opcode,
// the global whitelist, memo, limits), then the .input interpretation of whatever unpickled. Anything but
// fxray::Error is a finding; so is any global outside the whitelist getting through (checked by the reader).
#include "base/error.h"
#include "io/input_pickle.h"
#include "io/pickle.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        (void)fxray::io::parsePickle(bytes, "fuzz.pkl", fxray::io::defaultPickleOptions());
    } catch (const fxray::Error&) {
    }
    try {
        (void)fxray::io::parseInputPickle(bytes, "fuzz.input");
    } catch (const fxray::Error&) {
    }
    return 0;
}
