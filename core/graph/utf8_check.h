#pragma once
// Refusing text that is not UTF-8 before reading it: graphs read from other formats are printed as FX code,
// which is UTF-8 by definition, so a stray byte must be an error at its place in the original file.
#include <string>
#include <string_view>

namespace fxray::graph {

// Throws fxray::Error at fileName:line:column of the first byte that does not start or continue a valid UTF-8
// sequence (overlong forms and surrogates refused too).
void requireUtf8(std::string_view text, const std::string& fileName);

}  // namespace fxray::graph
