#pragma once
// Internal to core/replay (includes LibTorch): one rank's local tensor cut from the global one by its DTensor
// layout (graph::ShardCut), the way DTensor's distribute_tensor makes it: Shard(d) keeps the rank's torch.chunk
// of dim d (cuts of one tensor dimension over several mesh dimensions in their recorded order), Partial(sum)
// keeps global / n, Replicate / Partial(avg, min, max) keep it whole.
#include "graph/dtensor_layout.h"

#include <ATen/core/Tensor.h>

namespace fxray::replay::detail {

// Throws fxray::Error for a placement it cannot cut (_StridedShard, _MaskPartial) or a shard dim out of range.
at::Tensor cutShard(const at::Tensor& global, const graph::ShardCut& cut);

}  // namespace fxray::replay::detail
