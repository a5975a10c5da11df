#include "io/text_file.h"

#include "base/error.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ftw.h>

namespace fxray::io {

std::string readTextFile(const std::string& path, std::size_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw Error("no such file", fileLocation(path));
    if (!fs::is_regular_file(path, ec))
        throw Error("not a regular file", fileLocation(path));
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw Error("cannot read: " + ec.message(), fileLocation(path));
    if (size > maxBytes)
        throw Error("file too large (" + std::to_string(size) + " bytes)", fileLocation(path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error("cannot open for reading", fileLocation(path));
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size)
        throw Error("short read", fileLocation(path));
    return text;
}

void writeTextFile(const std::string& path, std::string_view text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error("cannot open for writing", fileLocation(path));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush())
        throw Error("cannot write", fileLocation(path));
}

}  // namespace fxray::io

namespace fxray::io {
namespace {

extern "C" int removeEntry(const char* path, const struct stat*, int, struct FTW*)
{
    return ::remove(path);
}

}  // namespace

void removeTree(const std::string& path)
{
    ::nftw(path.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace fxray::io
