// The executable's side of the LibTorch module (torch_commands.h): dlopen on first use, trampolines for the commands.
#include "torch_commands.h"

#include "base/error.h"
#include "io/torchscript_importer.h"
#include "self_exe.h"

#include <dlfcn.h>

#include <filesystem>
#include <iostream>
#include <string>

namespace fxray::cli {

namespace {

constexpr const char* kModuleName = "libfxray_cli_torch.so";

// Beside the executable in a build tree; <prefix>/lib/fxray/ once installed (bin/ holds programs only).
std::string modulePath()
{
    const std::filesystem::path dir = std::filesystem::path(selfExe()).parent_path();
    const std::filesystem::path installed = dir / ".." / "lib" / "fxray" / kModuleName;
    std::error_code ec;
    if (!std::filesystem::exists(dir / kModuleName, ec) && std::filesystem::exists(installed, ec))
        return installed.lexically_normal().string();
    return (dir / kModuleName).string();
}

// The loaded module, or null with `error` set.
void* module(std::string& error)
{
    static void* handle = nullptr;
    static std::string loadError;
    static bool tried = false;
    if (!tried) {
        tried = true;
        // RTLD_GLOBAL: cuDNN dlopens its own sub-libraries (engines, heuristics) when the first convolution runs, and
        // they bind to symbols of libcudnn_graph & co., which LibTorch's dependencies bring in; loaded into a local
        // scope those stay hidden and the first CUDA convolution segfaulted (H100, cuDNN 9.19: "undefined symbol:
        // InitializeInjectionCaskEnhanced"). Python's `import torch` loads them globally too.
        handle = dlopen(modulePath().c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (!handle) {
            const char* why = dlerror();
            loadError = "cannot load " + modulePath() + " (LibTorch commands): " + (why ? why : "unknown reason");
        }
    }
    error = loadError;
    return handle;
}

template <class F>
F* entry(const char* symbol, std::string& error)
{
    void* handle = module(error);
    if (!handle)
        return nullptr;
    void* f = dlsym(handle, symbol);
    if (!f)
        error = std::string("the LibTorch module has no ") + symbol;
    return reinterpret_cast<F*>(f);
}

}  // namespace

std::string torchModulePath()
{
    return modulePath();
}

int runTorchCommand(std::string_view name, const Args& args)
{
    std::string error;
    auto* run = entry<int(const char*, const void*)>("fxray_cli_torch_run", error);
    if (!run) {
        std::cerr << "fxray " << name << ": error: " << error << "\n";
        return 2;
    }
    return run(std::string(name).c_str(), &args);
}

void installLazyTorchScriptImporter()
{
    std::error_code ec;
    if (!std::filesystem::exists(modulePath(), ec))
        return;
    io::setTorchScriptImporter([](const std::string& text, const std::string& fileName) {
        std::string error;
        auto* import = entry<int(const void*, const void*, void*, void*)>("fxray_cli_torch_import", error);
        if (!import)
            throw Error(error, fileLocation(fileName));
        graph::Graph g;
        if (import(&text, &fileName, &g, &error) != 0)
            throw Error(error);
        return g;
    });
}

int runReplayModule(const Args& args)
{
    return runTorchCommand("replay", args);
}

int runWorkerModule(const Args& args)
{
    return runTorchCommand("worker", args);
}

int runCompareModule(const Args& args)
{
    return runTorchCommand("compare", args);
}

}  // namespace fxray::cli
