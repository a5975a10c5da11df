#include "replay/plan/cpu_dtype_gaps.h"

#include <ATen/ATen.h>

namespace fxray::replay::detail {
namespace {

// histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor. Integer input is counted as float64 (exact
// for integers below 2^53, and each element's bin the one CUDA's integer arithmetic gives it: a quotient of exact
// integers never rounds up to the next bin) and the counts handed on in the input's dtype, as CUDA's kernel returns them.
c10::IValue histc(const std::vector<c10::IValue>& v)
{
    const at::Tensor& self = v[0].toTensor();
    if (self.is_floating_point())
        return at::histc(self, v[1].toInt(), v[2].toScalar(), v[3].toScalar());
    return at::histc(self.to(at::kDouble), v[1].toInt(), v[2].toScalar(), v[3].toScalar()).to(self.scalar_type());
}

// The dtype a kernel's "\"name\" not implemented for 'BFloat16'" names, when it is one float32 holds exactly.
std::optional<at::ScalarType> refusedReducedFloat(const std::string& message)
{
    const std::string marker = "not implemented for '";
    const auto at = message.find(marker);
    if (at == std::string::npos)
        return std::nullopt;
    const auto begin = at + marker.size();
    const std::string name = message.substr(begin, message.find('\'', begin) - begin);
    if (name == "Half")
        return at::kHalf;
    if (name == "BFloat16")
        return at::kBFloat16;
    return std::nullopt;
}

// Neither writes into an argument nor returns a view of one: widened copies of its arguments then stand in for them.
bool isFunctional(const c10::FunctionSchema& schema)
{
    for (const auto& a : schema.arguments())
        if (a.alias_info())
            return false;
    for (const auto& r : schema.returns())
        if (r.alias_info())
            return false;
    return true;
}

// `v` with `f` applied to each of its tensors: a tensor, or the tensors of a list (Tensor[], Tensor?[]).
template <typename F>
c10::IValue mapTensors(const c10::IValue& v, const F& f)
{
    if (v.isTensor())
        return f(v.toTensor());
    if (v.isTensorList()) {
        c10::List<at::Tensor> out;
        for (const at::Tensor& t : v.toTensorList())
            out.push_back(f(t));
        return out;
    }
    if (v.isOptionalTensorList()) {
        c10::List<std::optional<at::Tensor>> out;
        for (const std::optional<at::Tensor>& t : v.toOptionalTensorList())
            out.push_back(t ? std::optional<at::Tensor>(f(*t)) : std::nullopt);
        return out;
    }
    return v;
}

}  // namespace

std::optional<NodePlan> planCpuDtypeGap(const c10::OperatorHandle& op, const std::vector<ArgPlan>& args)
{
    const c10::FunctionSchema& schema = op.schema();
    if (schema.operator_name().name != "aten::histc" || !schema.overload_name().empty() || args.size() != 4)
        return std::nullopt;
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = schema.operator_name().name;
    p.args = args;
    p.schema = c10::toString(schema) + "  [CPU: integer input counted as float64, whose kernel takes floats only]";
    p.native = histc;
    return p;
}

std::string runWidenedOnCpu(const NodePlan& plan, const std::vector<c10::IValue>& values, std::vector<c10::IValue>& stack,
                            const c10::NotImplementedError& refused)
{
    const auto dtype = refusedReducedFloat(refused.what_without_backtrace());
    if (!dtype || !plan.op || !isFunctional(plan.op->schema()))
        return "";
    // The failed call may have left the stack half consumed: build it again from the node values.
    assembleStack(plan, values, stack);
    int widened = 0;
    bool anyFloat32 = false;
    const auto widen = [&](const at::Tensor& t) {
        if (!t.defined() || !t.device().is_cpu())
            return t;
        anyFloat32 = anyFloat32 || t.scalar_type() == at::kFloat;
        if (t.scalar_type() != *dtype)
            return t;
        ++widened;
        return t.to(at::kFloat);
    };
    for (c10::IValue& v : stack)
        v = mapTensors(v, widen);
    if (widened == 0)
        return "";
    plan.op->callBoxed(stack);
    // Its float32 results back in the refused dtype, unless a float32 argument may have made them float32 anyway.
    const auto narrow = [&](const at::Tensor& t) { return t.defined() && t.scalar_type() == at::kFloat ? t.to(*dtype) : t; };
    if (!anyFloat32)
        for (c10::IValue& v : stack)
            v = mapTensors(v, narrow);
    const std::string name = c10::toString(*dtype);
    return "[CPU: no " + name + " kernel; ran in float32" + (anyFloat32 ? "]" : ", results cast back to " + name + "]");
}

}  // namespace fxray::replay::detail
