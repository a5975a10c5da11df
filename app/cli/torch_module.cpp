// The LibTorch module's side (torch_commands.h): the commands that replay, behind two C entry points.
#include "base/error.h"
#include "commands.h"
#include "io/torchscript_importer.h"
#include "replay/schemas/torchscript_import.h"
#include "torch_commands.h"

#include <exception>
#include <iostream>
#include <string>

namespace {

// This module carries its own copy of io: it reads TorchScript through LibTorch as the executable used to.
void installImporter()
{
    static const bool once = [] {
        fxray::io::setTorchScriptImporter(fxray::replay::importTorchScript);
        return true;
    }();
    (void)once;
}

}  // namespace

extern "C" int fxray_cli_torch_run(const char* name, const void* args)
{
    installImporter();
    const auto& a = *static_cast<const fxray::cli::Args*>(args);
    const std::string command = name;
    try {
        if (command == "replay")
            return fxray::cli::runReplay(a);
        if (command == "worker")
            return fxray::cli::runWorker(a);
        if (command == "compare")
            return fxray::cli::runCompare(a);
    } catch (const fxray::Error& e) {
        std::cerr << "fxray " << command << ": error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "fxray " << command << ": internal error: " << e.what() << "\n";
        return 2;
    }
    std::cerr << "fxray: unknown command '" << command << "' (see fxray --help)\n";
    return 2;
}

extern "C" int fxray_cli_torch_import(const void* text, const void* file, void* out, void* error)
{
    installImporter();
    try {
        *static_cast<fxray::graph::Graph*>(out) =
            fxray::replay::importTorchScript(*static_cast<const std::string*>(text), *static_cast<const std::string*>(file));
        return 0;
    } catch (const std::exception& e) {
        *static_cast<std::string*>(error) = e.what();
        return 1;
    }
}
