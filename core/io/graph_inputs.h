#pragma once
// How each input of a loaded graph can be made for a replay on generated inputs, decided from the graph alone: from
// its recorded metadata (a tensor, a SymInt, ...), as a list that getitems unpack (compiled autograd's `inputs`,
// `sizes`, `hooks`), as an opaque value (a Python object the graph only passes along: dynamo's BackwardState), or not
// at all (no metadata and a use that needs one). The engine builds its inputs by this rule
// (replay/inputs/input_factory.cpp) and a distributed job reads it before anything runs, to skip on every rank a
// graph with collectives that some rank cannot start (worker/rank_job_check.h). Plain C++: no LibTorch.
#include "io/graph_source.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::io {

struct InputForm {
    enum class Kind {
        Meta,     // built from its recorded metadata
        List,     // a list read by `x[k]` getitems; each element from its getitem's metadata (None where unread,
                  // unannotated and unused, or a Python object: compiled autograd's hooks and packed_data)
        Opaque,   // a Python object passed along untouched (why says which object and who uses it)
        None,     // never read (compiled autograd's unused list inputs)
        Generator,  // a torch.Generator: the rng_state= of higher_order.graphsafe_run_with_rng_state (AOTAutograd's
                    // fwd_rng_state_<k> / bwd_rng_state_<k> under activation checkpointing on CUDA)
        Missing,  // no metadata and a use that needs it: the replay cannot start (why says so, naming the input)
    };
    Kind kind = Kind::Meta;
    std::string why;       // Opaque: "dynamo's BackwardState: only passed to ..."; Missing: the error text
    int missingNode = -1;  // Missing: the node whose metadata is absent (the placeholder, or a list's getitem)
};

// Whether every use of the placeholder is as the rng_state= generator of higher_order.graphsafe_run_with_rng_state.
bool isGeneratorInput(const graph::Graph& g, int placeholder, const std::vector<std::vector<int>>& users);

// One per placeholder, in placeholder order.
std::vector<InputForm> inputForms(const LoadedGraph& lg);

// An input with no metadata that the graph only passes along: no node reads it (an AOT forward's BackwardState
// primal), or every user of the placeholder is the output, a `bw_state=` argument, or one of dynamo's own helpers
// that take the BackwardState (`torch__dynamo_*`: `_register_hook_trampoline`, `trace_wrapped`'s `self_invoke`).
// Returns what the value is and who uses it; nullopt when some use needs a real value.
std::optional<std::string> opaqueInput(const graph::Graph& g, int placeholder, const std::vector<std::vector<int>>& users);

// The first input that cannot be built (Kind::Missing): its error text, naming the input; nullopt when every input
// can be. The distributed job's static skip reads this.
std::optional<std::string> unbuildableInput(const LoadedGraph& lg);

}  // namespace fxray::io
