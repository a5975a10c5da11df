#pragma once
// torch dtypes as fxray knows them, with both spellings used in dumps:
// the annotation abbreviation ("f32", "b8") and the Python name ("float32" in torch.float32).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fxray::graph {

enum class DType : std::uint8_t {
    Float64, Float32, Float16, BFloat16,
    Float8_e4m3fn, Float8_e5m2, Float8_e4m3fnuz, Float8_e5m2fnuz, Float8_e8m0fnu,
    ComplexHalf, Complex64, Complex128,
    Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Bool,
};

std::string_view dtypeAbbrev(DType t);      // "f32"
std::string_view dtypeTorchName(DType t);   // "float32" (as in torch.float32)
std::optional<DType> dtypeFromAbbrev(std::string_view s);
// Accepts canonical names and torch aliases (float, double, half, long, int, cfloat, ...).
std::optional<DType> dtypeFromTorchName(std::string_view s);
int dtypeItemSize(DType t);
bool dtypeIsFloating(DType t);
bool dtypeIsComplex(DType t);
bool dtypeIsIntegral(DType t);  // includes Bool

}  // namespace fxray::graph
