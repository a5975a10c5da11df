#pragma once
// Internal to core/replay (includes LibTorch): conversions between fxray's graph types and ATen's.
#include "graph/tensor_meta.h"

#include <ATen/core/Generator.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <exception>
#include <optional>
#include <string>

namespace fxray::replay::detail {

c10::ScalarType toScalarType(graph::DType t);
std::optional<graph::DType> fromScalarType(c10::ScalarType t);
// Recorded device -> the device the replay runs on: cuda:N becomes the replay device, CPU stays CPU.
c10::Device mapDevice(const graph::Device& recorded, const c10::Device& replayDevice);
// "f32[2, 3][3, 1]cpu" for a tensor, "int 5" / "float 0.5" / "bool" / "tuple(3)" otherwise.
std::string describeValue(const c10::IValue& v);
// An exception's message without LibTorch's C++ backtrace (c10::Error appends one after "Exception raised from").
std::string errorText(const std::exception& e);
// A generator's state as its get_state/set_state bytes, under its mutex (generators are shared: a device's default
// one, the graph inputs of graphsafe_run_with_rng_state). set throws c10::Error for another device type's state.
at::Tensor generatorState(at::Generator gen);
void setGeneratorState(at::Generator gen, const at::Tensor& state);

}  // namespace fxray::replay::detail
