#pragma once
// Where each node of a graph comes from in the model: its module path ("layers.0.self_attn.q_proj") and phase
// (forward / backward). Read from the capture's node_meta.json sidecar when there is one (tools/capture writes
// nn_module_stack, the forward twin's stack for backward nodes, stack traces), else derived from what the graph
// itself carries: Dynamo's lifted parameter names (`l_self_modules_layers_modules_0_..._parameters_weight_`),
// AOT placeholders' `PlainAOTInput(idx=i)` / `ParamAOTInput(target=...)` comments, and which nodes read which
// parameters. The render module turns this into a scope tree (render/scope_tree.h).
#include "graph/graph.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxray::graph {

enum class Phase { Unknown, Forward, Backward };

struct NodeOrigin {
    std::string module;      // dotted module path; empty: the model itself, or not known
    std::string moduleType;  // its class ("Qwen2Attention"), when the sidecar says
    Phase phase = Phase::Unknown;
    int stackTrace = -1;     // index into ModuleScopes::stackTraces
};

struct ModuleScopes {
    // Repeats: no names at all, scopes found as repeated structure in program order (graph/repeat_scopes.h).
    enum class Source { None, Sidecar, Derived, Repeats };
    Source source = Source::None;
    std::vector<NodeOrigin> nodes;         // per node (empty when nothing is known)
    std::vector<std::string> stackTraces;  // full traces, stored once (sidecar)
    // Backward nodes carry their forward twin's module (sidecar: fwd_nn_module_stack). When false, backward nodes'
    // modules come from the parameters they read, and the scope tree puts them under a separate "backward" scope.
    bool backwardTwins = false;
    // Repeats: each backward copy's module path and its forward twin's (the copy whose saved values it reads).
    std::vector<std::pair<std::string, std::string>> twins;
    // Repeats: what a scope's copies run, by path ("forward(), rotate_half()"): shown where a module's class would be.
    std::map<std::string, std::string> scopeTypes;
    bool hasModules() const;
    std::string describe() const;  // "node_meta.json (nn_module_stack)" / "parameter names" / "none"
};

// Parses node_meta.json (format "fxray-node-meta", version 1; see tools/capture/fxray_capture.py) for `g`. Nodes
// are matched by name; names the graph does not have are ignored. Throws fxray::Error naming `path` when the text
// is not such a file.
ModuleScopes parseNodeMeta(const Graph& g, std::string_view text, const std::string& path);

// Derives module paths from parameter names (see the header comment). `dynamoInputs`: the placeholder names of the
// Dynamo graph an AOT graph was made from (its `PlainAOTInput(idx=i)` is input i there), when known.
ModuleScopes deriveModuleScopes(const Graph& g, const std::vector<std::string>& dynamoInputs = {});

// Per node: Forward / Backward for a joint graph (backward from the first node that reads a tangent; placeholders
// by whether they are tangents), all Unknown otherwise.
std::vector<Phase> jointPhases(const Graph& g);

// "l_self_modules_layers_modules_0_modules_fc_parameters_weight_" -> "layers.0.fc.weight"; nullopt for other names.
std::optional<std::string> parameterPath(std::string_view dynamoName);
// Dynamo's module key ("L['self'].layers[0]._modules['fc']") as a dotted path ("layers.0.fc").
std::string modulePath(std::string_view key);
// A module path as the levels a user navigates: a list index stays with its list ("model.layers.0.mlp" ->
// ["model", "layers.0", "mlp"]).
std::vector<std::string> moduleComponents(std::string_view path);

}  // namespace fxray::graph
