#pragma once
// Internal to core/replay (includes LibTorch through op_plan.h): the three small builders every planner uses to
// make a plan by hand (op_plan, torch_level_natives, random_ops, compiled_autograd_ops): a literal operand, a node's
// value as an operand, and a native step with its arguments and the schema the report shows for it.
#include "replay/plan/op_plan.h"

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
