#include "graph/utf8_check.h"

#include "base/error.h"

#include <cstdio>

namespace fxray::graph {
namespace {

// Length of the valid UTF-8 sequence starting at text[i]; 0 when it is not one.
std::size_t sequenceLength(std::string_view text, std::size_t i)
{
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80)
        return 1;
    std::size_t n = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            return 0;
    const auto c1 = static_cast<unsigned char>(text[i + 1]);
    if ((b == 0xE0 && c1 < 0xA0) || (b == 0xED && c1 > 0x9F) || (b == 0xF0 && c1 < 0x90) || (b == 0xF4 && c1 > 0x8F))
        return 0;  // overlong, surrogate, beyond U+10FFFF
    return n;
}

}  // namespace

void requireUtf8(std::string_view text, const std::string& fileName)
{
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequenceLength(text, i);
        if (n == 0) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "%02X", static_cast<unsigned char>(text[i]));
            throw Error(std::string("not UTF-8 text: byte 0x") + byte, SourceLocation{fileName, line, static_cast<int>(i - lineStart) + 1, {}});
        }
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
        i += n;
    }
}

}  // namespace fxray::graph
