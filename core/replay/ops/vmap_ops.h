#pragma once
// Internal to core/replay (includes LibTorch). torch.vmap as dynamo traces it into a graph (flex_attention's
// create_block_mask vmaps the mask_mod over b, h, q_idx, kv_idx): `torch._functorch.predispatch.
// _vmap_increment_nesting(batch_size, randomness)`, `_add_batch_dim(x, in_dim, level)`, the per-example ops, then
// `_remove_batch_dim(y, level, batch_size, out_dim)` and `_vmap_decrement_nesting()`. They run as
// torch._C._functorch runs them, on LibTorch's own functorch (at::functorch: the dynamic layer stack and the
// batching rules registered with the dispatcher), so the ops between them see batched tensors as in eager.
// Built where LibTorch's functorch headers compile (they include nlohmann/json.hpp: Debian's nlohmann-json3-dev);
// elsewhere the calls are named as unsupported with that reason.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <c10/core/TensorImpl.h>

#include <optional>

namespace fxray::replay::detail {

// nullopt for a node that is not one of the vmap calls above (predispatch or torch._C._functorch spellings).
// Throws std::invalid_argument when the arguments do not fit, or in a build without functorch's headers.
std::optional<NodePlan> planVmapCall(const graph::Graph& g, const graph::Node& n);

// A tensor that is batched by an open vmap level (its values are the batch of the underlying physical tensor).
bool isVmapBatched(const at::Tensor& t);
// The physical tensor under every vmap level (the batch dims in it); `t` itself when not batched.
at::Tensor vmapPhysical(const at::Tensor& t);

// Pops every vmap level a replay left open (a graph that stopped between an increment and its decrement), so the
// next graph in this process starts with none. Returns how many were popped.
int popLeftoverVmapLevels();

}  // namespace fxray::replay::detail
