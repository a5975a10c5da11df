#pragma once
// Reading and writing a text file whole, with the errors fxray reports for files (missing, a directory, too
// large, not writable).
#include <cstddef>
#include <string>
#include <string_view>

namespace fxray::io {

// Throws fxray::Error naming the file. maxBytes guards against loading something absurd by mistake.
std::string readTextFile(const std::string& path, std::size_t maxBytes = std::size_t(1) << 31);
// Replaces the file's contents with `text` (bytes as given). Throws fxray::Error naming the file.
void writeTextFile(const std::string& path, std::string_view text);

}  // namespace fxray::io
