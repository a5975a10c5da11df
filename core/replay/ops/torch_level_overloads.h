#pragma once
// Internal to core/replay (includes LibTorch). Resolves a torch-level call — an aten name with Python's
// arguments — to one overload of aten::<name> the way TorchScript resolves builtins: every overload the
// dispatcher knows is a candidate, positional and keyword arguments bind to its formals (Python's `input` is the
// schema's `self`; varargs sizes pack into the int[] formal), each bound argument must fit its formal's type,
// and the candidate needing the fewest conversions wins: tensor operands pick Tensor overloads, numbers Scalar
// ones.
#include "graph/graph.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxray::replay::detail {

// What is known of a node's value before the replay runs: from its recorded annotation, or from what the node
// was planned to return. Unknown fits any formal (the kernel decides at run time).
enum class ValueKind { Unknown, Tensor, TensorList, Int, Float, Bool, IntList, Other };

// A torch-level call in normal form: aten::<name> with the call's arguments, self first for Tensor methods.
struct TorchCall {
    std::string name;  // "add", "add_", "linear"
    std::vector<graph::Arg> args;
    std::vector<std::pair<std::string, graph::Arg>> kwargs;
};

using KindOf = std::function<ValueKind(int node)>;

struct OverloadChoice {
    c10::OperatorHandle op;
    // Schema argument name -> the call's argument; formals not listed take their schema default.
    std::vector<std::pair<std::string, graph::Arg>> bound;
    // Schema arguments of Tensor type that take a number-valued node (passed as a wrapped number at run time).
    std::vector<std::string> wrappedNodes;
};

// The overload of aten::<call.name> that fits best, or std::nullopt with `why` naming what each candidate
// rejected.
std::optional<OverloadChoice> chooseOverload(const TorchCall& call, const KindOf& kindOf, std::string& why);

// Whether the dispatcher knows any overload of aten::<name>.
bool hasAtenOp(const std::string& name);

// Whether some overload of aten::<name> has an argument called `arg` (`input` also finds `self`).
bool atenHasArgument(const std::string& name, const std::string& arg);

}  // namespace fxray::replay::detail
