#include "graph/tensor_meta.h"

namespace fxray::graph {
namespace {

std::string joinDims(const std::vector<SymDim>& dims)
{
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            out += ", ";
        out += dims[i].expr;
    }
    return out + "]";
}

}  // namespace

std::string formatTensorMeta(const TensorMeta& meta)
{
    std::string out(dtypeAbbrev(meta.dtype));
    out += joinDims(meta.sizes);
    if (meta.strides)
        out += joinDims(*meta.strides);
    if (meta.device)
        out += meta.device->str();
    if (!meta.subclass.empty())
        out = meta.subclass + "(" + out + (meta.subclassDetail.empty() ? "" : ", " + meta.subclassDetail) + ")";
    return out;
}

std::string formatAnnotation(const ValueMeta& meta)
{
    switch (meta.kind) {
    case ValueMeta::Kind::Tensor: return formatTensorMeta(meta.tensor);
    case ValueMeta::Kind::SymInt:
    case ValueMeta::Kind::SymFloat:
    case ValueMeta::Kind::SymBool: return "Sym(" + meta.symExpr + ")";
    case ValueMeta::Kind::Int: return meta.symExpr.empty() ? "int" : "Sym(" + meta.symExpr + ")";
    case ValueMeta::Kind::Float: return "float";
    case ValueMeta::Kind::None: return "";
    }
    return "";
}

std::optional<std::vector<SymDim>> contiguousStrides(const std::vector<SymDim>& sizes)
{
    std::vector<SymDim> strides(sizes.size());
    std::int64_t running = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        if (!sizes[i].isConstant())
            return std::nullopt;
        strides[i] = SymDim::constant(running);
        running *= std::max<std::int64_t>(*sizes[i].value, 1);
    }
    return strides;
}

}  // namespace fxray::graph
