#pragma once
// Internal to core/replay (includes LibTorch). The fused RNN cells that nn.GRUCell and nn.LSTMCell become on CUDA
// (aten._thnn_fused_gru_cell, _thnn_fused_lstm_cell and their backwards: CUDA kernels only) on a CPU replay, written
// out in ATen ops as ATen's CUDA kernels compute them (aten/src/ATen/native/cuda/RNN.cu), in float32 (float64 for
// double) and handed on in the inputs' dtype, with the same workspace layout, so a forward and its backward recorded on
// a GPU replay together on a machine without one.
#include "replay/plan/node_plan.h"

#include <optional>
#include <vector>

namespace fxray::replay::detail {

// The plan of `op` on the CPU through the stand-in, the schema's arguments already planned; nullopt when the op is
// not one of the four.
std::optional<NodePlan> planCpuRnnCellFallback(const c10::OperatorHandle& op, std::vector<ArgPlan> args);

}  // namespace fxray::replay::detail
