#pragma once
// Writing a minimize run's results, the same for the CLI and the GUI:
//   <dir>/minimized_<kind>_0/   the minimized graph in the seed layout (fxray loads and replays it)
//   <dir>/repro.py              standalone PyTorch script (repro_writer.h), state_dict.pt beside it if needed
//   <dir>/minimize.json         what was asked, the signature, the steps, figures, the final replay report
#include "base/json.h"
#include "minimize/minimizer.h"
#include "minimize/repro_writer.h"

#include <functional>
#include <string>

namespace fxray::minimize {

// The repro settings for this run's failure (error regex, diverge device and tolerance, inputs).
ReproSpec reproSpecFor(const MinimizeOptions& options, const Signature& signature, const std::string& failingNode,
                       const replay::ReplayReport* finalReport);

// The run as JSON (minimize.json's content without the paths).
json::Value summaryJson(const io::LoadedGraph& original, const MinimizeOptions& options, const MinimizeResult& res,
                        const std::string& until, int workerStarts);

// What MinimizeOptions::exportForCommand should be for a cmd: oracle: writes each candidate's repro.py into
// `scratchDir` (created on first use) and returns its path. `options` must outlive the function.
std::function<std::string(const io::LoadedGraph&, const Signature&)> candidateReproWriter(const MinimizeOptions& options,
                                                                                          const std::string& scratchDir);

struct ExportedResult {
    std::string dump;   // the seed-layout folder
    std::string repro;  // repro.py
    std::string summary;  // minimize.json
};
// Throws fxray::Error when a file cannot be written. `summary` gets "dump", "repro" and "final_report" added.
ExportedResult exportResult(const MinimizeResult& res, const MinimizeOptions& options, const std::string& dir,
                            json::Value& summary);

}  // namespace fxray::minimize
