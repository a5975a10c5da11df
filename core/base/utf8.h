#pragma once
// UTF-8, written and checked in one place: the JSON reader and writer, the unpickler's string opcodes, the FX
// code tokenizer and the text-format parsers all mean the same thing by "valid UTF-8" (RFC 3629: no overlong
// forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fxray {

// Appends code point `cp` to `out` in 1 to 4 bytes. It does not refuse anything: a surrogate is written as its
// 3-byte form (as CESU-8 would), so callers check what they were given first (a JSON \u escape pairs its
// surrogates, the unpickler refuses code points above U+10FFFF).
void appendUtf8(std::string& out, std::uint32_t cp);

// The length of the valid UTF-8 sequence at text[pos] (1 for ASCII, 2 to 4 otherwise), or 0 where the bytes
// there are not UTF-8: a stray continuation byte, a sequence cut short by the end of `text`, an overlong form, a
// surrogate, a code point above U+10FFFF. `pos` must be inside `text`.
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

}  // namespace fxray
