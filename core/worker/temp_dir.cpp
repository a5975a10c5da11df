#include "worker/temp_dir.h"

#include "base/error.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ftw.h>

namespace fxray::worker {

TempDir::TempDir(const std::string& prefix)
{
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
        throw Error("cannot create a temporary folder (" + pattern + ")");
    path = pattern;
}

// POSIX, not std::filesystem::remove_all: LibTorch's libtorch.so exports its own copy of that symbol, which the
// dynamic linker may bind here and which crashes.
TempDir::~TempDir()
{
    nftw(path.c_str(), [](const char* p, const struct stat*, int, struct FTW*) { return ::remove(p); }, 8, FTW_DEPTH | FTW_PHYS);
}

}  // namespace fxray::worker
