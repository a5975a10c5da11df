#pragma once
// The graphs one torch.compile compile logged to a TORCH_TRACE log, as the stages a compile goes through:
// dynamo's graph, AOTAutograd's forward (or inference, or only the joint) graph, fx_graph_runnable (inductor's
// input, opt-in) and inductor's post-grad forward graph. Stage compare (replay/stage_compare.h) replays them on
// the same inputs. Plain C++.
#include "graph/stage_mapping.h"
#include "io/graph_source.h"

#include <string>
#include <vector>

namespace fxray::io {

struct CompileStage {
    std::string name;       // "dynamo", "aot_forward", "aot_inference", "aot_joint", "runnable", "post_grad"
    graph::StageRole role = graph::StageRole::Downstream;
    GraphEntry entry;
};

struct CompileStages {
    std::string address;    // "<log>#<frame>/<compile>" (rank and attempt as the log has them)
    std::string logPath;
    std::string compileId;  // "[0/0]"
    std::vector<CompileStage> stages;  // pipeline order
    int aotStage = -1;      // the stage whose inputs are generated and fed to every stage; -1: the compile has none
};

// Whether `address` has the form "<path>#[r<rank>:]<frame>/<compile>[_<attempt>]" (no record name).
bool isCompileAddress(const std::string& address);
// The stages of the compile an address names. Without an attempt in the address, each record's last attempt.
// Throws fxray::Error for an address of another form, a missing log, or a compile that logged no graph.
CompileStages compileStages(const std::string& address, bool withRunnable = false);
// The addresses of every compile that logged a graph, in every TORCH_TRACE log under `path` (a log or a folder),
// in log order. Files that could not be read land in `errors`.
std::vector<std::string> compileAddresses(const std::string& path, std::vector<std::string>& errors);
// The compile address of a trace graph's address ("<log>#0/0/aot_forward_graph" -> "<log>#0/0"); "" for others.
std::string compileAddressOf(const GraphEntry& entry);

}  // namespace fxray::io
