#pragma once
// Internal to core/replay (includes LibTorch): torch.save contents (io::PtValue, read by fxray's own
// unpickler) as ATen values.
#include "io/pt_file.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// The recorded geometry (sizes, strides, storage offset: stride 0, overlapping and gapped views included) over a
// copy of the whole storage, on `device`.
at::Tensor tensorFromRecord(const io::TensorRecord& r, const c10::Device& device);
// A saved list/tuple of tensors and numbers (None stays None). Tensors go to `device` with their exact geometry,
// except those saved on the CPU, which stay there; tensors saved from one storage share one storage again.
// Throws fxray::Error naming the file otherwise.
std::vector<c10::IValue> valuesFromPtList(const io::PtFile& pt, const c10::Device& device);

}  // namespace fxray::replay::detail
