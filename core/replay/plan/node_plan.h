#pragma once
// Internal to core/replay (includes LibTorch). The plan types, the bottom of the engine's planning: each graph node
// is compiled once into a NodePlan: the dispatcher operator it calls and how each schema argument is filled
// (constant IValues built up front, references to earlier nodes' values), or a native step. Running a plan then only
// assembles a stack and calls the kernel. Every planner includes this (plan/op_plan.h binds a dispatcher call,
// ops/ plans the rest, engine/graph_plan.h a whole graph); it includes nothing of replay.

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// How one argument is produced at run time.
struct ArgPlan {
    enum class Kind {
        Const,          // `constant`
        Value,          // the value of node `node` as is
        ValueToDouble,  // node value (int/float/bool) as a double (schema says float)
        IntList,        // ints and node values -> int[]
        DoubleList,     // floats / ints -> float[]
        TensorList,     // node tensors -> Tensor[]
        OptTensorList,  // None or node tensors -> Tensor?[]
        ValueAsTensor,  // node value: a tensor as is, a number as a 0-dim wrapped number (SymInt * tensor)
    };
    Kind kind = Kind::Const;
    c10::IValue constant;
    int node = -1;
    std::vector<ArgPlan> items;
};

struct NodePlan {
    enum class Kind {
        Op,        // dispatcher call
        Getitem,   // element of a tuple/list value
        Operator,  // python arithmetic on ints/floats/bools
        SymFloat,  // torch.sym_float / sym_int / sym_max / sym_min / sym_not
        Native,    // a torch-level step with no aten twin (Python indexing, x.size()): `native` on the args' values
        Input, Output, Constant, Unsupported,
    };
    Kind kind = Kind::Unsupported;
    std::optional<c10::OperatorHandle> op;
    std::vector<ArgPlan> args;  // Op: one per schema argument
    std::string name;           // Operator / SymFloat: operator name; Op: qualified op for messages
    std::string why;            // Unsupported: the reason
    std::function<c10::IValue(const std::vector<c10::IValue>&)> native;  // Native
    std::string schema;         // Native: what runs, for the report (an Op's schema comes from `op`)
    // Native: per return, whether NaN/Inf there is by design (an Op's come from its schema's return names: logsumexp).
    std::vector<bool> nonFiniteByDesign;
};

// Builds the argument stack of an Op plan from node values.
void assembleStack(const NodePlan& plan, const std::vector<c10::IValue>& values, std::vector<c10::IValue>& stack);
c10::IValue assembleArg(const ArgPlan& a, const std::vector<c10::IValue>& values);
// Runs an Op or Native plan on its assembled arguments, as the interpreter would: a dispatcher call's returns as one
// value (None, the value, or a tuple). For plans that wrap another (autocast, RNG state, SDPA backends).
c10::IValue runPlanned(const NodePlan& plan, std::vector<c10::IValue> operands);

}  // namespace fxray::replay::detail
