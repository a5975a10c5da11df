#pragma once
// Reading a text file whole, with the errors fxray reports for files (missing, a directory, too large).
#include <cstddef>
#include <string>

namespace fxray::io {

// Throws fxray::Error naming the file. maxBytes guards against loading something absurd by mistake.
std::string readTextFile(const std::string& path, std::size_t maxBytes = std::size_t(1) << 31);

}  // namespace fxray::io
