#pragma once
// The schema this LibTorch registers for an op overload, as text, to compare with what the torch that wrote a dump
// recorded (node_meta.json's "schemas", io/dump_provenance.h): a replay with another torch names the ops whose
// schemas differ. Plain strings in the interface: callers need no LibTorch headers.
#include <optional>
#include <string>
#include <string_view>

namespace fxray::replay {

// "aten.add.Tensor" (Python's str(OpOverload)) -> "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) ->
// Tensor" (str(op._schema)), nullopt when this LibTorch has no such overload registered.
std::optional<std::string> registeredSchema(std::string_view overload);

}  // namespace fxray::replay
