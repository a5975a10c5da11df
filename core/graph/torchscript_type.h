#pragma once
// TorchScript value types as the IR prints them ("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)",
// "Tensor", "int[]", "(Float(4), Long(4))", "__torch__.Cnn") and lazy-tensor shapes ("Float[2,4]"), turned into
// fxray's recorded metadata.
#include "base/error.h"
#include "graph/tensor_meta.h"

#include <optional>
#include <string_view>

namespace fxray::graph {

// "Float", "Long", "BFloat16", "ComplexFloat", ... (c10's ScalarType names) -> DType.
std::optional<DType> dtypeFromScalarTypeName(std::string_view name);

// A complete tensor type becomes a Tensor meta (sizes, strides and device as far as printed). Anything else
// (Tensor, scalars, lists, tuples, classes, tensor types with unknown sizes "*") has no meta: nullopt.
// A tensor type that is malformed (bad size, strides of the wrong rank, unclosed bracket) throws at `where`.
std::optional<ValueMeta> torchScriptTypeMeta(std::string_view type, const SourceLocation& where);

// A TorchScript class (an nn.Module in traced/scripted graphs): "__torch__.Cnn", "__torch__.torch.nn...Linear".
bool isTorchScriptClassType(std::string_view type);

// A lazy-tensor shape "Float[2,4]" / "Long[]" -> Tensor meta with sizes only. Throws at `where` when malformed.
ValueMeta lazyShapeMeta(std::string_view shape, const SourceLocation& where);

}  // namespace fxray::graph
