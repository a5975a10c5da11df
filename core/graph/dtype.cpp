#include "graph/dtype.h"

#include <array>

namespace fxray::graph {
namespace {

struct DTypeInfo {
    DType type;
    std::string_view abbrev;
    std::string_view name;
    int itemSize;
};

// Abbreviations are the ones torch.fx's print_readable emits (torch._subclasses.fake_tensor / fx graph_module).
constexpr std::array<DTypeInfo, 21> kInfo{{
    {DType::Float64, "f64", "float64", 8},
    {DType::Float32, "f32", "float32", 4},
    {DType::Float16, "f16", "float16", 2},
    {DType::BFloat16, "bf16", "bfloat16", 2},
    {DType::Float8_e4m3fn, "f8e4m3fn", "float8_e4m3fn", 1},
    {DType::Float8_e5m2, "f8e5m2", "float8_e5m2", 1},
    {DType::Float8_e4m3fnuz, "f8e4m3fnuz", "float8_e4m3fnuz", 1},
    {DType::Float8_e5m2fnuz, "f8e5m2fnuz", "float8_e5m2fnuz", 1},
    {DType::Float8_e8m0fnu, "f8e8m0fnu", "float8_e8m0fnu", 1},
    {DType::ComplexHalf, "c32", "complex32", 4},
    {DType::Complex64, "c64", "complex64", 8},
    {DType::Complex128, "c128", "complex128", 16},
    {DType::Int8, "i8", "int8", 1},
    {DType::Int16, "i16", "int16", 2},
    {DType::Int32, "i32", "int32", 4},
    {DType::Int64, "i64", "int64", 8},
    {DType::UInt8, "u8", "uint8", 1},
    {DType::UInt16, "u16", "uint16", 2},
    {DType::UInt32, "u32", "uint32", 4},
    {DType::UInt64, "u64", "uint64", 8},
    {DType::Bool, "b8", "bool", 1},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<std::size_t>(t)]; }

}  // namespace

std::string_view dtypeAbbrev(DType t) { return info(t).abbrev; }
std::string_view dtypeTorchName(DType t) { return info(t).name; }
int dtypeItemSize(DType t) { return info(t).itemSize; }

std::optional<DType> dtypeFromAbbrev(std::string_view s)
{
    for (const auto& i : kInfo)
        if (i.abbrev == s)
            return i.type;
    return std::nullopt;
}

std::optional<DType> dtypeFromTorchName(std::string_view s)
{
    for (const auto& i : kInfo)
        if (i.name == s)
            return i.type;
    struct Alias { std::string_view name; DType type; };
    static constexpr Alias kAliases[] = {
        {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
        {"cfloat", DType::Complex64}, {"cdouble", DType::Complex128}, {"chalf", DType::ComplexHalf},
        {"long", DType::Int64}, {"int", DType::Int32}, {"short", DType::Int16},
    };
    for (const auto& a : kAliases)
        if (a.name == s)
            return a.type;
    return std::nullopt;
}

bool dtypeIsFloating(DType t) { return t <= DType::Float8_e8m0fnu; }
bool dtypeIsComplex(DType t) { return t >= DType::ComplexHalf && t <= DType::Complex128; }
bool dtypeIsIntegral(DType t) { return t >= DType::Int8; }

}  // namespace fxray::graph
