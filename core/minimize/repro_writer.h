#pragma once
// A standalone Python script that reproduces a minimized failure under plain PyTorch: `python repro.py
// [--device D] [--seed N] [--compile]` builds fresh inputs from the recorded metadata (strides, dtypes, valid
// int ranges), runs the graph's code, checks for the failure, prints what it saw and exits 1 when the failure
// reproduced, 0 when it did not (2 on a problem of the script's own). The graph's metadata must be concrete
// (see concretizeMetadata).
#include "io/graph_source.h"
#include "minimize/failure.h"
#include "replay/api/replay_types.h"

#include <string>
#include <utility>
#include <vector>

namespace fxray::minimize {

struct ReproSpec {
    Signature signature;
    std::string failingNode;   // an output of the graph ("" for diverge / cmd)
    std::string errorPattern;  // error: the regex the message must match ("" = any error)
    std::string device = "cpu";
    std::string compareDevice; // diverge: the other device
    double atol = 1e-4, rtol = 1e-4;  // diverge tolerance
    replay::ReplayOptions inputs;     // seed, float distribution, int range
    // diverge:output_code: the inductor config the graph is compiled under (key, value as a Python literal). The
    // script then compiles the graph with torch.compile (`compile_repro`, also what the minimizer's compile child
    // calls) and compares it with eager.
    std::vector<std::pair<std::string, std::string>> inductorConfig;
};

std::string writeReproScript(const io::LoadedGraph& g, const ReproSpec& spec);

}  // namespace fxray::minimize
