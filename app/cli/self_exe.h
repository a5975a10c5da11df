#pragma once
// The running fxray executable's path (to start `fxray worker` children next to it).
#include <string>

namespace fxray::cli {

std::string selfExe();

}  // namespace fxray::cli
