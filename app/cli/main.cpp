// fxray command line: `fxray <command> [args]`. Exit codes: 0 success, 1 a negative result (e.g. graphs differ,
// replay failed), 2 an error (bad input, bad usage) with its message on stderr.
#include "base/error.h"
#include "build_info.h"
#include "commands.h"
#ifdef FXRAY_HAVE_REPLAY
#include "torch_commands.h"
#endif

#include <exception>
#include <iostream>

namespace {

void printHelp()
{
    std::cout << "fxray: look at, replay, minimize and diff torch.compile graphs\n\nusage: fxray <command> [args]\n"
                 "       fxray --version   (fxray's version and commit, the LibTorch and CUDA it was built with)\n\n";
    for (const auto& c : fxray::cli::commands())
        std::cout << "  " << c.name << std::string(10 - c.name.size(), ' ') << c.summary << "\n      " << c.usage
                  << "\n";
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        printHelp();
        return argc < 2 ? 2 : 0;
    }
    if (std::string_view(argv[1]) == "--version" || std::string_view(argv[1]) == "version") {
        fxray::cli::printVersion();
        return 0;
    }
#ifdef FXRAY_HAVE_REPLAY
    // TorchScript graphs load through LibTorch's parseIR where it is built (operator overloads for replay); LibTorch
    // itself is loaded only when one is read, or a command replays (torch_commands.h).
    fxray::cli::installLazyTorchScriptImporter();
#endif
    const std::string name = argv[1];
    const fxray::cli::Args args(argv + 2, argv + argc);
    for (const auto& c : fxray::cli::commands()) {
        if (c.name != name)
            continue;
        try {
            return c.run(args);
        } catch (const fxray::Error& e) {
            std::cerr << "fxray " << name << ": error: " << e.what() << "\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "fxray " << name << ": internal error: " << e.what() << "\n";
            return 2;
        }
    }
    std::cerr << "fxray: unknown command '" << name << "' (see fxray --help)\n";
    return 2;
}
