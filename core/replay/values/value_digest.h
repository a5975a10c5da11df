#pragma once
// Internal to core/replay (includes LibTorch): a hash of a node's output bits, for repeat runs that look for
// nondeterminism (--repeat N --until diverge). Computed on the tensor's device; one read-back per node.
#include "replay/api/replay_types.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace fxray::replay::detail {

// Two 64-bit sums over the tensor's bits in row-major order (plain, and weighted by position), as 32 hex digits;
// "" for tensors without readable bits (undefined, quantized, sparse, meta). Two runs that computed the same bits
// get the same digest; a changed element, or two swapped ones, changes it (collisions need changes that cancel
// in both sums). Layout does not matter: the same values in another stride order hash alike.
std::string digestOf(const at::Tensor& t);

// Sets the digest of each of `stats` (one per tensor of `value`, flattenTensors order); stats missing for a
// tensor (value checks off) are added with its metadata only.
void addDigests(const c10::IValue& value, std::vector<OutputStats>& stats);

}  // namespace fxray::replay::detail
