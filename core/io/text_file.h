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
// Removes a folder and everything in it (links are removed, not followed); a missing folder is fine.
// Not std::filesystem::remove_all: libtorch.so exports its own copy of that symbol, which the dynamic linker
// may bind a program linked with LibTorch to, and which crashes (seen with torch 2.11's wheel).
void removeTree(const std::string& path);

}  // namespace fxray::io
