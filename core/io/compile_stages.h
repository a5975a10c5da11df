#pragma once
// The graphs one torch.compile compile logged to a TORCH_TRACE log, as the stages a compile goes through:
// dynamo's graph, AOTAutograd's forward (or inference, or only the joint) graph, fx_graph_runnable (inductor's
// input, opt-in) and inductor's post-grad forward graph. Stage compare (replay/api/stage_compare.h) replays them on
// the same inputs. Plain C++.
#include "graph/stage_mapping.h"
#include "io/compile_report.h"
#include "io/graph_source.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::io {

struct CompileStage {
    std::string name;       // "dynamo", "aot_forward", "aot_inference", "aot_joint", "runnable", "post_grad"
    graph::StageRole role = graph::StageRole::Downstream;
    GraphEntry entry;
};

// The last stage: inductor's generated (Python wrapper) code for the compile's forward / inference graph, its
// `inductor_output_code` record (or an output_code.py given by hand). It is run, not replayed: in a Python child
// (tools/runtime/run_output_code.py), on the inputs and with the placeholders and outputs of the post-grad graph.
struct OutputCode {
    std::string text;
    std::string origin;       // "<log>:<line>" of the record, or the file
    int firstLine = 1;        // line of the log (or file) holding the code's first line
    std::string postGradText; // the post-grad graph's readable text (the kernels are held against its nodes)
};

struct CompileStages {
    std::string address;    // "<log>#<frame>/<compile>" (rank and attempt as the log has them)
    std::string logPath;
    std::string compileId;  // "[0/0]"
    int frameId = -1;
    int frameCompileId = -1;
    std::vector<CompileStage> stages;  // pipeline order
    int aotStage = -1;      // the stage whose inputs are generated and fed to every stage; -1: the compile has none
    std::optional<OutputCode> outputCode;  // none when the log has no inductor_output_code for this compile
};

// Whether `address` has the form "<path>#[r<rank>:]<frame>/<compile>[_<attempt>]" (no record name).
bool isCompileAddress(const std::string& address);
// The stages of the compile an address names. Without an attempt in the address, each record's last attempt.
// Throws fxray::Error for an address of another form, a missing log, or a compile that logged no graph.
CompileStages compileStages(const std::string& address, bool withRunnable = false);
// The compile's output code from its log (the first inductor_output_code record of the attempt: the forward's),
// with the post-grad graph's text; nullopt when there is none. Throws fxray::Error when the log cannot be read.
std::optional<OutputCode> outputCodeOf(const CompileStages& cs);
// An output_code.py given by hand (a TORCH_COMPILE_DEBUG folder's), with the post-grad graph of `cs`.
OutputCode outputCodeFile(const CompileStages& cs, const std::string& path);

// How torch's own compile of `cs` failed (its compilation_metrics' fail_type/fail_reason: a backend exception that
// made dynamo graph-break and run the frame eagerly), nullopt when it did not. Reads the whole log's report: for
// compiles that logged no AOT graph, not for every compare.
std::optional<CompileFailure> torchFailureOf(const CompileStages& cs);

// The addresses of every compile that logged a graph, in every TORCH_TRACE log under `path` (a log or a folder),
// in log order. Files that could not be read land in `errors`.
std::vector<std::string> compileAddresses(const std::string& path, std::vector<std::string>& errors);
// The compile address of a trace graph's address ("<log>#0/0/aot_forward_graph" -> "<log>#0/0"); "" for others.
std::string compileAddressOf(const GraphEntry& entry);

}  // namespace fxray::io
