#pragma once
// Recorded metadata of a value: what the compiler said a node's output (or a graph input) looks like.
#include "graph/dtype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxray::graph {

// One size or stride entry: a concrete integer, or a sympy expression as printed ("s0", "2*s0", "(s0//2)").
// Expressions are kept as text here; replay binds and evaluates them.
struct SymDim {
    std::optional<std::int64_t> value;  // set when the entry is a plain integer
    std::string expr;                   // the printed text (for integers too: "64")

    static SymDim constant(std::int64_t v) { return SymDim{v, std::to_string(v)}; }
    static SymDim symbolic(std::string text) { return SymDim{std::nullopt, std::move(text)}; }
    bool isConstant() const { return value.has_value(); }
    bool operator==(const SymDim& o) const { return expr == o.expr; }
};

struct Device {
    std::string type = "cpu";  // "cpu", "cuda", "meta", ...
    int index = -1;            // -1: no index given
    std::string str() const { return index < 0 ? type : type + ":" + std::to_string(index); }
    bool operator==(const Device& o) const { return type == o.type && index == o.index; }
};

struct TensorMeta {
    DType dtype = DType::Float32;
    std::vector<SymDim> sizes;
    std::optional<std::vector<SymDim>> strides;  // absent in sizes-only annotations
    std::optional<Device> device;
    std::optional<SymDim> storageOffset;         // only load_args records it
    // A tensor subclass the annotation names around the tensor ("DTensor(f32[256, 64][64, 1]cpu, S(0))"): its
    // class, and what follows the tensor (a DTensor's placements per mesh dim: "S(0)", "R", "PS(1)[1]S(1)[0]R").
    // The sizes are the subclass's logical ones (a DTensor's global shape); empty for plain tensors.
    std::string subclass;
    std::string subclassDetail;
    bool operator==(const TensorMeta& o) const = default;
};

// What a node's annotation / an input record says about one value.
struct ValueMeta {
    enum class Kind { None, Tensor, SymInt, SymFloat, SymBool, Int, Float };
    Kind kind = Kind::None;
    TensorMeta tensor;  // Kind::Tensor
    std::string symExpr;  // SymInt/SymFloat/SymBool: "24", "s0", "s0 + 1"; empty when no hint is known

    static ValueMeta ofTensor(TensorMeta t) { ValueMeta m; m.kind = Kind::Tensor; m.tensor = std::move(t); return m; }
    bool isTensor() const { return kind == Kind::Tensor; }
    bool operator==(const ValueMeta& o) const = default;
};

// "f32[32, 64][64, 1]cuda:0", "Sym(24)" — the annotation text of print_readable.
std::string formatAnnotation(const ValueMeta& meta);
std::string formatTensorMeta(const TensorMeta& meta);

// Contiguous strides for sizes (all entries must be constant; otherwise std::nullopt).
std::optional<std::vector<SymDim>> contiguousStrides(const std::vector<SymDim>& sizes);

}  // namespace fxray::graph
