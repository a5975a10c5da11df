#pragma once
// Internal to core/replay. FSDP2's custom ops (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py registers
// them from Python with torch.library, so a C++ process lacks them): fsdp::all_gather_copy_in,
// fsdp::split_with_sizes_copy and fsdp::chunk_cat, which every compiled FSDP2 step calls around its collectives, and
// traceable FSDP2's fsdp::copy_ and inductor::resize_storage_bytes_ (the latter is C++ in libtorch_python).
// Registered with LibTorch's dispatcher under their Python schemas, with C++ kernels doing what the Python kernels
// do, so their graphs plan and check them like any aten op.

namespace fxray::replay::detail {

// Idempotent and thread-safe; planGraph calls it before looking any op up.
void registerFsdpOps();

}  // namespace fxray::replay::detail
