#pragma once
// Stage compare's precision check: which divergences are rounding. Some computations lose every digit to rounding:
// LeViT's training forward normalises [2, C] activations over a batch of 2 (each batch norm divides a difference of
// two nearly equal values by its own size), so its f32 logits are ~1 away from their exact value; a bf16 compile
// whose activations grow to 1e4 through 30 eval batch norms does the same at bf16's precision. Two stages that
// compute one function with other roundings (a decomposed batch norm, intermediates kept in f32) then differ by that
// much, and no tolerance on values tells this from a compiler bug. Precision does: a rounding difference shrinks by
// orders of magnitude when both stages compute in float64 (f32 -> f64 divides the unit roundoff by 2^29), a
// different function does not. So when a stage diverges, the reference and that stage are replayed again in float64
// (graph/float_promotion.h) on the same inputs, and an output whose divergence shrinks at least 1/kPrecisionShrink
// times is reported as rounding (an agreeing output, both figures in its note), not as a divergence.
// Some computations are ill-conditioned beyond float64 too: in LeViT's CUDA training forward, on the H100's inputs,
// the reference's f32 logits are 1.08 from their float64 value, and its stages differ there by 0.86 in f32 and still
// 0.39 in f64.
// Such an output carries no digit in either precision; a stage whose difference from the reference, in f32 and in
// f64, is within kNoiseFactor times the reference's own rounding error (its f32 value against its f64 value) is
// reported as rounding too, saying that no precision at hand separates a compiler change this small from rounding.
// Inductor's generated code cannot be promoted: its divergence is rounding when the post-grad graph it was made from
// computes the reference's function (it agrees, or its divergence shrank) and it differs from the reference by no
// more than kNoiseFactor times what rounding does to that output (the reference's own distance from its float64
// value, or the post-grad graph's from the reference).
// Plain C++ (no LibTorch): the replays run through the caller's ReplayRunner.
#include "graph/graph.h"
#include "replay/api/replay_types.h"

#include <string>
#include <vector>

namespace fxray::replay {

// Computed in f64 instead of f32 (bf16), a rounding difference shrinks ~5e8 (~4e13) times; LeViT's shrank 4e3 to
// 2e9 times (a 1e12-fold amplification in its 40 batch norms of 2 samples leaves f64 digits to lose too).
inline constexpr double kPrecisionShrink = 1e-3;
// The generated code against what rounding does to the same output in the graphs' replays.
inline constexpr double kNoiseFactor = 4.0;

// The least precise floating-point dtype the graph computes in ("bf16" in an autocast compile, "f32" otherwise); ""
// when it holds no floating-point value.
std::string leastPreciseDtype(const graph::Graph& g);

// A divergent graph stage: `low`, its comparisons with the reference as both computed; `high`, the same in float64
// (by output index); `referenceError`, the reference as computed against its float64 value. Marks the divergent
// outputs whose difference shrank so, or stays within the reference's own rounding error, as ok, saying so in their
// notes; only value differences (not NaNs elsewhere, another shape or dtype). Returns how many.
int excusePrecision(std::vector<OutputComparison>& low, const std::vector<OutputComparison>& high, const std::string& dtype,
                    const std::vector<OutputComparison>& referenceError);

// The random draws a replay made under stage compare's aligned RNG, in order: "node: what it drew" for each node
// whose plan draws aligned. A float64 re-run that draws otherwise than its own-precision run (session 16: BART's
// bf16 autocast inferred from bf16 annotations, which the promotion removes) differs by its random numbers, and
// no precision explains that: the precision check excuses nothing there.
std::vector<std::string> alignedDraws(const ReplayReport& r);

// The generated code's comparisons (`code`), given the post-grad stage's (`postGrad`, after excusePrecision) and the
// reference as computed against its float64 value (`referenceError`). Returns how many were excused.
int excuseGeneratedCode(std::vector<OutputComparison>& code, const std::vector<OutputComparison>& postGrad,
                        const std::vector<OutputComparison>& referenceError);

}  // namespace fxray::replay
