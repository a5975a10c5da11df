#include "graph/utf8_check.h"

#include "base/error.h"
#include "base/utf8.h"

#include <cstdio>

namespace fxray::graph {

void requireUtf8(std::string_view text, const std::string& fileName)
{
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8SequenceLength(text, i);
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
