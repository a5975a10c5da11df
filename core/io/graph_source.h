#pragma once
// Finding graphs on disk and loading them: seed dump folders (functorch graph_dumper_aot layout) at any depth,
// TORCH_TRACE logs (one file or a directory of them), TORCH_COMPILE_DEBUG run directories, single .py files,
// TorchScript IR text and lazy-tensor IR dumps (ir_source.h).
// Every graph gets a stable address usable on the command line: "<path>" for a dump folder or .py file,
// "<log path>#<selector>" for a graph inside a trace log (see trace_address.h).
#include "graph/graph.h"
#include "graph/module_scopes.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fxray::io {

enum class SourceFormat {
    SeedDump, TraceLog, CompileDebug, PythonFile,
    TorchScript,  // TorchScript IR text (torch.jit graphs, the lazy-tensor TorchScript backend): ir_source.h
    LazyIr,       // lazy-tensor IR text dump ("IR { %0 = ... }")
    LazyDot,      // lazy-tensor IR DOT dump
};

enum class GraphKind {
    Forward, Backward, Joint, Inference,   // AOTAutograd graphs
    Dynamo,                                // dynamo_output_graph (torch-level calls, not replayable as is)
    PreGrad, PostGrad,                     // inductor's before/after pre-grad and post-grad passes
    Runnable,                              // fx_graph_runnable repro scripts
    CompiledAutograd,
    Unknown,
};
std::string_view graphKindName(GraphKind k);      // "forward", "backward", ...
std::string_view sourceFormatName(SourceFormat f);  // "seed", "trace", "compile-debug", "python", "torchscript", "ltc-ir", "ltc-dot"

// Where a graph inside a TORCH_TRACE log came from.
struct TraceOrigin {
    int rank = -1;            // -1: single-rank log without rank in its name
    int frameId = -1;
    int frameCompileId = -1;
    int attempt = 0;
    int compiledAutogradId = -1;  // compiled_autograd_graph records: no frame, identified by this ("[!0]")
    std::string record;       // "aot_forward_graph", or the artifact name ("inductor_post_grad_graph")
    int ordinal = 0;          // n-th record with this (rank, frame, compile, attempt, record)
    int line = 0;             // line of the record's header in the log
    std::string compileId() const;  // "[0/0]", "[0/0_1]" with attempt, "[r1:0/0]" with rank, "[!0]" compiled autograd,
                                    // "[-]" no frame (torch.export's exported_program)
};

struct GraphEntry {
    std::string address;     // stable, usable on the command line
    std::string path;        // dump folder, log file or .py file holding the graph
    std::string group;       // what it belongs to: model name (seed), compile id (trace), run (debug dir)
    std::string title;       // short name: "mlp_forward_0", "aot_forward_graph", "model__0_forward_1.0"
    SourceFormat format = SourceFormat::SeedDump;
    GraphKind kind = GraphKind::Unknown;
    int index = -1;          // seed layout graph index (forward_0 -> 0)
    std::optional<TraceOrigin> trace;
};

// Where an input's metadata came from, in precedence order (first wins; see input_merge.h).
enum class MetaSource { InputPickle, Annotation, LoadArgs, None };
std::string_view metaSourceName(MetaSource s);

struct InputSpec {
    std::string name;  // placeholder name
    std::optional<graph::ValueMeta> meta;
    MetaSource source = MetaSource::None;
};

struct LoadedGraph {
    GraphEntry entry;
    graph::Graph graph;
    std::vector<InputSpec> inputs;       // one per placeholder, placeholder order
    std::vector<std::string> warnings;   // e.g. metadata sources disagreeing, readable vs module.py mismatch
    std::string savedInputsPath;         // seed layout <name>.pt (real example inputs), empty if none
    std::string stateDictPath;           // seed layout state_dict.pt, empty if none
    std::string expectedOutputsPath;     // seed layout <name>.expected.pt (eager outputs on the saved inputs), if any
    // seed layout <name>.rng.pt: the generators' states ({"cpu": uint8 tensor, "cuda:N": ...}) just before the eager
    // run that wrote <name>.expected.pt, so that a saved-input replay draws the random values eager drew.
    std::string rngStatePath;
    // Each node's module and phase: the seed layout's node_meta.json (tools/capture), else derived from parameter
    // names (a trace's AOT graphs through the same compile's Dynamo graph). A broken sidecar is a warning.
    graph::ModuleScopes modules;
    // Trace logs: the values the run's size symbols had (io/symbol_hints.h), for the compile this graph belongs to.
    std::map<std::string, std::int64_t, std::less<>> symbolHints;
};

struct Discovery {
    std::vector<GraphEntry> graphs;
    std::vector<std::string> errors;     // files that could not be read while looking (formatted fxray::Error)
};

// Throws fxray::Error when the path does not exist or holds no graph at all.
Discovery discover(const std::string& path);

struct TraceLog;  // io/trace_log.h
// The index of a TORCH_TRACE log (readTraceLog without payloads), the one discovery and loading use: made once and
// kept while the file is unchanged (size, modification time). Throws fxray::Error when the file cannot be read.
std::shared_ptr<const TraceLog> traceLogIndex(const std::string& path);

// Loads one discovered graph. Throws fxray::Error (naming file and line) when it cannot be parsed.
LoadedGraph loadGraph(const GraphEntry& entry);
// Resolves an address (as printed by `fxray info`) or any path holding exactly one graph, and loads it.
LoadedGraph loadAddress(const std::string& address);
// The address of a backward graph's forward graph, whose outputs are its saved activations: the seed dump's
// sibling folder <name>_forward_<i>, or the trace's aot_forward_graph of the same compile; for a compile's second
// post-grad or runnable graph (".1": inductor's backward), its first. nullopt for other graphs, or for a seed dump
// whose forward folder is not there (a trace's partner is checked when loaded).
std::optional<std::string> forwardPartnerAddress(const GraphEntry& e);

}  // namespace fxray::io
