#pragma once
// The CLI's table of subcommands. Each lives in command_<name>.cpp and returns the process exit code.
// Errors from core arrive as fxray::Error and are printed by main.cpp (exit code 2).
#include <string>
#include <string_view>
#include <vector>

namespace fxray::cli {

using Args = std::vector<std::string>;

struct Command {
    std::string_view name;
    std::string_view summary;
    std::string_view usage;
    int (*run)(const Args& args);
};

const std::vector<Command>& commands();

int runInfo(const Args& args);
int runDot(const Args& args);
int runShow(const Args& args);
int runDiff(const Args& args);
#ifdef FXRAY_HAVE_REPLAY
int runReplay(const Args& args);
int runWorker(const Args& args);
int runCompare(const Args& args);
#endif
int runMinimize(const Args& args);
int runReport(const Args& args);

}  // namespace fxray::cli
