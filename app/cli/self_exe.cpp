#include "self_exe.h"

#include <filesystem>

namespace fxray::cli {

std::string selfExe()
{
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("fxray") : p.string();
}

}  // namespace fxray::cli
