#include "replay/values/torch_types.h"

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <charconv>
#include <mutex>

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

namespace {

void appendDims(std::string& out, c10::IntArrayRef dims)
{
    out += '[';
    char digits[24];
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            out += ", ";
        const auto end = std::to_chars(digits, digits + sizeof digits, dims[i]).ptr;
        out.append(digits, end);
    }
    out += ']';
}

}  // namespace

// A tensor's text is what graph::formatTensorMeta writes for its metadata ("f32[8, 16][16, 1]cuda:0"), formatted
// straight from the tensor: value checks describe every output of every pass (a TensorMeta of SymDims with a string
// each cost more than the rest of the check on small graphs).
std::string describeValue(const c10::IValue& v)
{
    if (v.isTensor()) {
        const at::Tensor& t = v.toTensor();
        if (!t.defined())
            return "undefined tensor";
        std::string out;
        out.reserve(64);
        out += graph::dtypeAbbrev(fromScalarType(t.scalar_type()).value_or(graph::DType::Float32));
        appendDims(out, t.sizes());
        appendDims(out, t.strides());
        out += c10::DeviceTypeName(t.device().type(), true);
        if (t.device().has_index()) {
            out += ':';
            out += std::to_string(t.device().index());
        }
        return out;
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

at::Tensor generatorState(at::Generator gen)
{
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
}

void setGeneratorState(at::Generator gen, const at::Tensor& state)
{
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state.cpu());
}

}  // namespace fxray::replay::detail
