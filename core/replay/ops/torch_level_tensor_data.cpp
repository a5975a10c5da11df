#include "replay/ops/torch_level_tensor_data.h"

#include "graph/printer.h"
#include "replay/plan/plan_builders.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>

#include <optional>
#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// The elements of nested lists in row-major order (literals as constants, graph values as node operands) and the
// shape (Python's torch.tensor rules: ragged lists are refused).
void flattenData(const graph::Graph& g, const Arg& a, std::size_t depth, std::vector<std::int64_t>& shape,
                 std::vector<ArgPlan>& elements)
{
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        const auto n = static_cast<std::int64_t>(a.items.size());
        if (shape.size() == depth)
            shape.push_back(n);
        else if (shape.size() < depth || shape[depth] != n)
            throw std::invalid_argument("ragged data in torch.tensor(" + graph::formatArg(g, a) + ")");
        for (const Arg& item : a.items)
            flattenData(g, item, depth + 1, shape, elements);
        return;
    }
    if (shape.size() != depth)
        throw std::invalid_argument("ragged data in torch.tensor");
    switch (a.kind) {
    case Arg::Kind::Bool: elements.push_back(constantArg(a.b)); break;
    case Arg::Kind::Int: elements.push_back(constantArg(a.i)); break;
    case Arg::Kind::Float: elements.push_back(constantArg(a.f)); break;
    case Arg::Kind::Node: elements.push_back(valueArg(a.node)); break;  // a SymInt / SymFloat / 0-d tensor
    default: throw std::invalid_argument("torch.tensor of " + graph::formatArg(g, a) + " (numbers and graph values only)");
    }
}

// torch's infer_scalar_type of one element: a Python bool, int, float (the default dtype) or a 0-d tensor.
c10::ScalarType elementType(const c10::IValue& v)
{
    if (v.isBool())
        return c10::kBool;
    if (v.isInt())
        return c10::kLong;
    if (v.isDouble())
        return c10::kFloat;
    if (v.isTensor() && v.toTensor().dim() == 0)
        return v.toTensor().scalar_type();
    throw std::invalid_argument("torch.tensor element is " + v.tagKind() + ", not a number or a 0-d tensor");
}

c10::Scalar elementScalar(const c10::IValue& v)
{
    return v.isTensor() ? v.toTensor().item() : v.toScalar();
}

// Operands: [like or None, dtype or None, device or None, data...].
std::vector<ArgPlan> options(const graph::Graph& g, const Arg* dtype, const Arg* device, const Arg* like, const c10::Device& replayDevice)
{
    return {like ? operandArg(g, *like, replayDevice) : constantArg(c10::IValue()),
            dtype ? operandArg(g, *dtype, replayDevice) : constantArg(c10::IValue()),
            device ? operandArg(g, *device, replayDevice) : constantArg(c10::IValue())};
}

}  // namespace

NodePlan planTensorData(const graph::Graph& g, TensorDataCall call, const Arg& data, const Arg* dtype, const Arg* device,
                        const Arg* like, const c10::Device& replayDevice)
{
    std::vector<ArgPlan> args = options(g, dtype, device, like, replayDevice);
    const char* name = call == TensorDataCall::AsTensor ? "torch.as_tensor" : call == TensorDataCall::NewTensor ? "Tensor.new_tensor" : "torch.tensor";
    if (data.kind == Arg::Kind::Node) {
        args.push_back(valueArg(data.node));
        const bool copy = call != TensorDataCall::AsTensor;
        return nativePlan(std::move(args),
                          std::string(name) + "(" + graph::formatArg(g, data) + ") of a tensor: " +
                              (copy ? "data.to(device, dtype, copy=True), detached (strides kept)" : "data.to(device, dtype) (no copy when they match)"),
                          [copy](const std::vector<c10::IValue>& v) -> c10::IValue {
                              if (!v[3].isTensor())
                                  throw std::invalid_argument("torch.tensor of a graph value that is " + v[3].tagKind() +
                                                              ": only tensors and lists of numbers are run");
                              const at::Tensor& x = v[3].toTensor();
                              const at::Tensor* self = v[0].isTensor() ? &v[0].toTensor() : nullptr;
                              const c10::ScalarType type = !v[1].isNone() ? v[1].toScalarType() : self ? self->scalar_type() : x.scalar_type();
                              const c10::Device where = !v[2].isNone() ? v[2].toDevice() : self ? self->device() : x.device();
                              return x.detach().to(where, type, /*non_blocking=*/false, copy);
                          });
    }
    std::vector<std::int64_t> shape;
    std::vector<ArgPlan> elements;
    flattenData(g, data, 0, shape, elements);
    args.insert(args.end(), elements.begin(), elements.end());
    return nativePlan(std::move(args), std::string(name) + "(" + graph::formatArg(g, data) + ") from its elements",
                      [shape](const std::vector<c10::IValue>& v) -> c10::IValue {
                          const at::Tensor* self = v[0].isTensor() ? &v[0].toTensor() : nullptr;
                          std::optional<c10::ScalarType> inferred;
                          for (std::size_t k = 3; k < v.size(); ++k)
                              inferred = inferred ? c10::promoteTypes(*inferred, elementType(v[k])) : elementType(v[k]);
                          c10::ScalarType type = self ? self->scalar_type() : inferred.value_or(c10::kFloat);
                          if (!v[1].isNone())
                              type = v[1].toScalarType();
                          const c10::Device where = !v[2].isNone() ? v[2].toDevice() : self ? self->device() : c10::Device(c10::kCPU);
                          at::Tensor t = at::empty({static_cast<std::int64_t>(v.size() - 3)}, at::TensorOptions().dtype(type));
                          for (std::size_t k = 3; k < v.size(); ++k)
                              t[static_cast<std::int64_t>(k - 3)].fill_(elementScalar(v[k]));
                          return t.view(shape).to(where);
                      });
}

}  // namespace fxray::replay::detail
