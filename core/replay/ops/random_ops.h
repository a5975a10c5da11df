#pragma once
// Internal to core/replay (includes LibTorch). Everything about random numbers in a replay:
//  - inductor's Python-registered RNG prims (torch/_inductor/inductor_prims.py: inductor_seed(s), inductor_lookup_seed,
//    inductor_random, inductor_randint), which its replace_random pass puts into every graph with dropout, run with
//    their eager definitions (they draw from the global generator, as eager's fallback does);
//  - the generator states a capture saved beside a dump (<name>.rng.pt), restored before a saved-input replay so
//    that it draws what eager drew;
//  - the aligned RNG mode of stage compare: every stage of a compile calls dropout differently (dynamo's
//    F.dropout -> aten.dropout, the AOT graph's rand_like > p, inductor's inductor_random(seed=lookup_seed(k))), so
//    no generator state makes them draw alike. In aligned mode the k-th random call of a graph (program order; for
//    inductor's prims the lookup_seed index, which inductor assigns in the same order) draws its uniforms from a
//    generator seeded by (seed, k) on the CPU, and dropout / bernoulli use inductor's own decomposition of them
//    (mask = u > p), so the same user-level call draws the same values at every stage and on every device.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"
#include "replay/api/replay_types.h"

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// How random ops draw in one replay.
struct RngPlan {
    bool aligned = false;
    std::uint64_t seed = 0;
    std::int64_t nextOrdinal = 0;  // aligned mode: ordinal of the next random aten call in program order
    // Aligned mode: inductor_lookup_seed nodes planned so far. Their draws and the fused attention kernels' (which keep
    // their dropout inside: CUDA AOT graphs) share the program-order numbering.
    std::int64_t lookupsSeen = 0;
};

// The generator of aligned draw number `ordinal`: seeded by (seed, ordinal) with splitmix64, so ordinals draw
// independent streams.
at::Generator alignedGenerator(std::uint64_t seed, std::int64_t ordinal);
// Aligned draw number `ordinal`: f32 uniforms (or normals) drawn on the CPU and moved, the same values on every
// device.
at::Tensor alignedDraw(std::uint64_t seed, std::int64_t ordinal, c10::IntArrayRef sizes, bool normal, const c10::Device& device);

// inductor's RNG prims (n.target.ns == "prims", op "inductor_*"); nullopt for another prim. Throws
// std::invalid_argument when the arguments do not fit.
std::optional<NodePlan> planInductorRandomPrim(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                               RngPlan& rng);

// The index of an Op plan's schema argument by name (-1 when absent).
int argIndex(const NodePlan& plan, const char* name);

// Aligned mode: an Op plan of a random aten op (dropout, native_dropout, bernoulli, rand(_like), randn(_like)) replaced
// by its aligned draw, taking the next ordinal; nullopt (and no ordinal taken) for any other plan.
std::optional<NodePlan> alignedRandomPlan(const NodePlan& plan, RngPlan& rng);

// Restores the default generators from a capture's <name>.rng.pt for a replay on `device` of a graph whose random ops
// drew on `drewOn` ("cpu", "cuda": the recorded device type). Returns true when the generator of that device's type
// was restored (draws then equal eager's on the same device); nothing is restored when the graph drew on another device
// type, whose generator draws other values from the same state. `notes` says what was restored or why not. Throws
// fxray::Error naming the file when it cannot be read.
bool restoreGeneratorStates(const std::string& path, const c10::Device& device, const std::string& drewOn,
                            std::vector<std::string>& notes);

// An output that depends on random draws this replay could not reproduce (another device, no saved state):
// compared by what the draws keep. Same kind, dtype and shape; a bool mask's keep rate, or a float tensor's rate of
// exact zeros (what dropout leaves), within 5 binomial standard deviations of the reference's rate (+0.005).
OutputComparison compareRandomOutput(const c10::IValue& actual, const c10::IValue& reference, int index,
                                     const std::string& randomOp);

}  // namespace fxray::replay::detail
