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

}  // namespace fxray::replay::detail
