#pragma once
// Line bookkeeping shared by the line-oriented IR readers (TorchScript, lazy-tensor text and DOT): their errors
// name 1-based line numbers and quote the line, so each splits the text once and indexes the lines.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fxray::graph::detail {

// The lines of a text, index i being line i + 1: a UTF-8 BOM dropped, "\n" ends a line, a '\r' before it is
// dropped. A text ending in "\n" has an empty last line.
std::vector<std::string_view> splitLines(std::string_view text);

// s without leading and trailing white space.
std::string_view trim(std::string_view s);

// Index of the last line that is not blank (0 when all are); lines must not be empty.
std::size_t lastContentLine(const std::vector<std::string_view>& lines);

// A line as an error message quotes it: its first 200 bytes, control characters but tab shown as '?'.
std::string lineExcerpt(std::string_view line);

}  // namespace fxray::graph::detail
