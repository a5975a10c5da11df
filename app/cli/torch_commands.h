#pragma once
// The commands that need LibTorch (replay, worker, compare) live in a shared module, libfxray_cli_torch.so beside the
// fxray executable, loaded only when one of them runs. Loading LibTorch costs ~0.6 s and ~450 MiB before main() does
// anything; `fxray info`, `show`, `dot`, `diff` and `report` on a 20,000-node graph take a fraction of that.
#include "commands.h"

#include <string>
#include <string_view>

namespace fxray::cli {

// Runs command `name` of the module (loading it on first use); prints errors as main() does. Exit code 2 with a
// message naming the module when it cannot be loaded.
int runTorchCommand(std::string_view name, const Args& args);
// Where the module is looked for: beside the executable (a build tree), else <prefix>/lib/fxray/ (installed).
std::string torchModulePath();
// io's TorchScript importer (torch::jit::parseIR): installed as a trampoline that loads the module when a
// TorchScript graph is first read, and only if the module is there.
void installLazyTorchScriptImporter();
// The commands table's entries for replay, worker and compare: runTorchCommand with their names.
int runReplayModule(const Args& args);
int runWorkerModule(const Args& args);
int runCompareModule(const Args& args);

}  // namespace fxray::cli

// The module's entry points (C linkage, looked up with dlsym).
extern "C" {
// `args` is a const fxray::cli::Args*. Returns the exit code.
int fxray_cli_torch_run(const char* name, const void* args);
// `text`, `file`: const std::string*; `out`: fxray::graph::Graph*; `error`: std::string* (set on failure). Returns 0
// on success.
int fxray_cli_torch_import(const void* text, const void* file, void* out, void* error);
}
