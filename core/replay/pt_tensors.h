#pragma once
// Internal to core/replay (includes LibTorch): torch.save contents (io::PtValue, read by fxray's own
// unpickler) as ATen values.
#include "io/pt_file.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// The recorded geometry over a copy of the storage bytes, on the CPU.
at::Tensor tensorFromRecord(const io::TensorRecord& r);
// A saved list/tuple of tensors and numbers (None stays None). Throws fxray::Error naming the file otherwise.
std::vector<c10::IValue> valuesFromPtList(const io::PtFile& pt);

}  // namespace fxray::replay::detail
