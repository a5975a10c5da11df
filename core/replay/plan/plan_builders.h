#pragma once
// Internal to core/replay (includes LibTorch through node_plan.h): the small builders every planner uses to make a
// plan by hand (op_plan, inductor_prims, torch_level_natives, random_ops, compiled_autograd_ops): a literal operand,
// a node's value as an operand, either of them from a graph argument, and a native step with its arguments and the
// schema the report shows for it.
#include "graph/printer.h"
#include "replay/plan/node_plan.h"
#include "replay/values/torch_types.h"

#include <stdexcept>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fxray::replay::detail {

inline ArgPlan constantArg(c10::IValue v)
{
    ArgPlan p;
    p.constant = std::move(v);
    return p;
}

inline ArgPlan valueArg(int node, ArgPlan::Kind kind = ArgPlan::Kind::Value)
{
    ArgPlan p;
    p.kind = kind;
    p.node = node;
    return p;
}

// A literal or a node's value, as an operand of a native step.
inline ArgPlan operandArg(const graph::Graph& g, const graph::Arg& a, const c10::Device& device)
{
    using graph::Arg;
    switch (a.kind) {
    case Arg::Kind::Node: {
        ArgPlan p;
        p.kind = ArgPlan::Kind::Value;
        p.node = a.node;
        return p;
    }
    case Arg::Kind::None: return constantArg(c10::IValue());
    case Arg::Kind::Int: return constantArg(a.i);
    case Arg::Kind::Float: return constantArg(a.f);
    case Arg::Kind::Bool: return constantArg(a.b);
    case Arg::Kind::DType: return constantArg(toScalarType(a.dtype));
    case Arg::Kind::Device: return constantArg(mapDevice(a.device, device));
    default: throw std::invalid_argument("cannot use " + graph::formatArg(g, a) + " here");
    }
}

inline NodePlan nativePlan(std::vector<ArgPlan> args, std::string schema,
                           std::function<c10::IValue(const std::vector<c10::IValue>&)> run)
{
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.args = std::move(args);
    p.schema = std::move(schema);
    p.native = std::move(run);
    return p;
}

}  // namespace fxray::replay::detail
