#pragma once
// Internal to core/replay. Custom ops that HF transformers registers from Python with torch.library (so a C++
// process lacks them) and that its models put into compiled graphs: transformers::grouped_mm_fallback
// (transformers/integrations/moe.py: the mixture-of-experts matmul of Qwen2-MoE, Mixtral, ... when
// torch._grouped_mm cannot be used, e.g. float32 weights). Registered with LibTorch's dispatcher under their Python
// schemas, with C++ kernels doing what the Python kernels do, as fsdp_ops.cpp does for FSDP2's ops.

namespace fxray::replay::detail {

// Idempotent and thread-safe; planGraph calls it before looking any op up.
void registerTransformersOps();

}  // namespace fxray::replay::detail
