#pragma once
// What this fxray was built from and against, for `fxray --version`: recorded when it was configured and built
// (cmake/FxrayBuildInfo.cmake writes build_info.cpp), so the executable says which LibTorch and CUDA its replay
// module needs without loading that module.
#include <string_view>

namespace fxray::cli {

struct BuildInfo {
    std::string_view version;       // project(fxray VERSION ...)
    std::string_view commit;        // git describe --always --dirty, or "unknown" (no .git: an sdist)
    std::string_view torchVersion;  // torch.__version__ of the environment built against; empty: no LibTorch
    std::string_view torchCuda;     // torch.version.cuda; empty: a CPU build of torch
    std::string_view torchGit;      // torch.version.git_version
    std::string_view cudaToolkit;   // the CUDA toolkit found at configure time; empty: none
    std::string_view python;        // the Python whose torch it is (output_code stage's default Python)
    std::string_view compiler;
    std::string_view buildType;
    bool gui;
    bool graphviz;
    bool guiRequested;  // FXRAY_GUI: false when the GUI was switched off, not missing
};

const BuildInfo& buildInfo();

// `fxray --version`'s text.
void printVersion();

}  // namespace fxray::cli
