// `fxray --version`: fxray's version and commit, and the LibTorch / CUDA / Qt it was built with, from build_info
// (recorded at build time), so it answers without loading LibTorch (and when the LibTorch module cannot load).
#include "build_info.h"
#ifdef FXRAY_HAVE_REPLAY
#include "torch_commands.h"
#endif

#include <filesystem>
#include <iostream>

namespace fxray::cli {

namespace {

std::string orNone(std::string_view s, std::string_view none)
{
    return std::string(s.empty() ? none : s);
}

}  // namespace

void printVersion()
{
    const BuildInfo& b = buildInfo();
    std::cout << "fxray " << b.version << " (commit " << b.commit << ", " << b.buildType << ", " << b.compiler << ")\n";
    if (b.torchVersion.empty()) {
        std::cout << "LibTorch: none (built without it: replay, compare and worker are not available)\n";
    } else {
        std::cout << "LibTorch: " << b.torchVersion << " (torch git " << b.torchGit.substr(0, 12) << "), CUDA "
                  << orNone(b.torchCuda, "none (a CPU build of torch)") << "; CUDA toolkit at build time: "
                  << orNone(b.cudaToolkit, "none") << "\n";
        std::cout << "  from: " << b.python << "\n";
#ifdef FXRAY_HAVE_REPLAY
        const std::string module = torchModulePath();
        std::error_code ec;
        std::cout << "  replay module: " << module
                  << (std::filesystem::exists(module, ec) ? "" : " (missing: replay, compare and worker will fail)")
                  << "\n";
#endif
    }
    std::cout << "GUI: "
              << (b.gui              ? "fxray-gui (Qt6)"
                  : !b.guiRequested ? "not built: configured with -DFXRAY_GUI=OFF"
                                    : "not built: Qt6's development files were not found when fxray was built "
                                      "(Debian/Ubuntu: apt install qt6-base-dev qt6-svg-dev libgl1-mesa-dev; then build or pip install again)")
              << "\n";
    std::cout << "Graphviz: " << (b.graphviz ? "yes" : "no (fxray dot writes .dot only)") << "\n";
}

}  // namespace fxray::cli
