#include "replay/values/torch_types.h"

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

namespace fxray::replay::detail {

namespace {
struct Pair {
    graph::DType ours;
    c10::ScalarType theirs;
};
constexpr Pair kPairs[] = {
    {graph::DType::Float64, c10::ScalarType::Double},
    {graph::DType::Float32, c10::ScalarType::Float},
    {graph::DType::Float16, c10::ScalarType::Half},
    {graph::DType::BFloat16, c10::ScalarType::BFloat16},
    {graph::DType::Float8_e4m3fn, c10::ScalarType::Float8_e4m3fn},
    {graph::DType::Float8_e5m2, c10::ScalarType::Float8_e5m2},
    {graph::DType::Float8_e4m3fnuz, c10::ScalarType::Float8_e4m3fnuz},
    {graph::DType::Float8_e5m2fnuz, c10::ScalarType::Float8_e5m2fnuz},
    {graph::DType::Float8_e8m0fnu, c10::ScalarType::Float8_e8m0fnu},
    {graph::DType::ComplexHalf, c10::ScalarType::ComplexHalf},
    {graph::DType::Complex64, c10::ScalarType::ComplexFloat},
    {graph::DType::Complex128, c10::ScalarType::ComplexDouble},
    {graph::DType::Int8, c10::ScalarType::Char},
    {graph::DType::Int16, c10::ScalarType::Short},
    {graph::DType::Int32, c10::ScalarType::Int},
    {graph::DType::Int64, c10::ScalarType::Long},
    {graph::DType::UInt8, c10::ScalarType::Byte},
    {graph::DType::UInt16, c10::ScalarType::UInt16},
    {graph::DType::UInt32, c10::ScalarType::UInt32},
    {graph::DType::UInt64, c10::ScalarType::UInt64},
    {graph::DType::Bool, c10::ScalarType::Bool},
};
}  // namespace

c10::ScalarType toScalarType(graph::DType t)
{
    for (const auto& p : kPairs)
        if (p.ours == t)
            return p.theirs;
    return c10::ScalarType::Undefined;
}

std::optional<graph::DType> fromScalarType(c10::ScalarType t)
{
    for (const auto& p : kPairs)
        if (p.theirs == t)
            return p.ours;
    return std::nullopt;
}

c10::Device mapDevice(const graph::Device& recorded, const c10::Device& replayDevice)
{
    if (recorded.type == "cpu")
        return c10::Device(c10::kCPU);
    if (recorded.type == "meta")
        return c10::Device(c10::kMeta);
    return replayDevice;
}

std::string describeValue(const c10::IValue& v)
{
    if (v.isTensor()) {
        const at::Tensor& t = v.toTensor();
        if (!t.defined())
            return "undefined tensor";
        graph::TensorMeta m;
        auto dt = fromScalarType(t.scalar_type());
        m.dtype = dt.value_or(graph::DType::Float32);
        for (auto s : t.sizes())
            m.sizes.push_back(graph::SymDim::constant(s));
        std::vector<graph::SymDim> strides;
        for (auto s : t.strides())
            strides.push_back(graph::SymDim::constant(s));
        m.strides = strides;
        m.device = graph::Device{c10::DeviceTypeName(t.device().type(), true), t.device().has_index() ? t.device().index() : -1};
        return graph::formatTensorMeta(m);
    }
    if (v.isInt())
        return "int " + std::to_string(v.toInt());
    if (v.isDouble())
        return "float " + std::to_string(v.toDouble());
    if (v.isBool())
        return std::string("bool ") + (v.toBool() ? "True" : "False");
    if (v.isNone())
        return "None";
    if (v.isTuple())
        return "tuple(" + std::to_string(v.toTupleRef().elements().size()) + ")";
    if (v.isList())
        return "list(" + std::to_string(v.toListRef().size()) + ")";
    return v.tagKind();
}

std::string errorText(const std::exception& e)
{
    const auto* c10Error = dynamic_cast<const c10::Error*>(&e);
    std::string s = c10Error ? c10Error->what_without_backtrace() : e.what();
    if (auto nl = s.find("\nException raised from"); nl != std::string::npos)
        s.resize(nl);
    return s;
}

}  // namespace fxray::replay::detail
