#include "replay/plan/node_plan.h"

#include <ATen/ATen.h>

namespace fxray::replay::detail {

c10::IValue assembleArg(const ArgPlan& a, const std::vector<c10::IValue>& values)
{
    switch (a.kind) {
    case ArgPlan::Kind::Const: return a.constant;
    case ArgPlan::Kind::Value: return values[static_cast<std::size_t>(a.node)];
    case ArgPlan::Kind::ValueAsTensor: {
        const c10::IValue& v = values[static_cast<std::size_t>(a.node)];
        if (!(v.isInt() || v.isDouble() || v.isBool() || v.isComplexDouble()))
            return v;  // tensors (and anything else) as they are
        const c10::Scalar number = v.toScalar();
        at::Tensor t = at::scalar_tensor(number, at::TensorOptions().dtype(number.type()));
        t.unsafeGetTensorImpl()->set_wrapped_number(true);
        return t;
    }
    case ArgPlan::Kind::ValueToDouble: {
        const c10::IValue& v = values[static_cast<std::size_t>(a.node)];
        return v.isDouble() ? v : c10::IValue(v.isInt() ? static_cast<double>(v.toInt()) : v.toScalar().toDouble());
    }
    case ArgPlan::Kind::IntList: {
        std::vector<std::int64_t> out;
        out.reserve(a.items.size());
        for (const ArgPlan& i : a.items) {
            c10::IValue v = assembleArg(i, values);
            // One node where the schema wants int[]: an int is int[1], a list (x.size(), a torch.Size) is
            // the list itself (BART's x.new_zeros(x.size()) under dynamic shapes).
            if (a.items.size() == 1 && v.isIntList())
                return v;
            out.push_back(v.toInt());
        }
        return out;
    }
    case ArgPlan::Kind::DoubleList: {
        std::vector<double> out;
        for (const ArgPlan& i : a.items)
            out.push_back(assembleArg(i, values).toDouble());
        return out;
    }
    case ArgPlan::Kind::TensorList: {
        c10::List<at::Tensor> out;
        out.reserve(a.items.size());
        for (const ArgPlan& i : a.items)
            out.push_back(assembleArg(i, values).toTensor());
        return out;
    }
    case ArgPlan::Kind::OptTensorList: {
        c10::List<std::optional<at::Tensor>> out;
        out.reserve(a.items.size());
        for (const ArgPlan& i : a.items) {
            c10::IValue v = assembleArg(i, values);
            out.push_back(v.isNone() ? std::optional<at::Tensor>() : std::optional<at::Tensor>(v.toTensor()));
        }
        return out;
    }
    }
    return {};
}

void assembleStack(const NodePlan& plan, const std::vector<c10::IValue>& values, std::vector<c10::IValue>& stack)
{
    stack.clear();
    for (const ArgPlan& a : plan.args)
        stack.push_back(assembleArg(a, values));
}

c10::IValue runPlanned(const NodePlan& plan, std::vector<c10::IValue> operands)
{
    if (plan.kind == NodePlan::Kind::Native)
        return plan.native(operands);
    plan.op->callBoxed(operands);
    if (operands.size() == 1)
        return std::move(operands[0]);
    if (operands.empty())
        return {};
    return c10::ivalue::Tuple::create(std::move(operands));
}

}  // namespace fxray::replay::detail
