#pragma once
// Values that a graph's inputs must hold for the graph to behave like the model it came from, inferred from the
// ops that consume them (plain graph analysis). Random inputs drawn outside these domains make device asserts,
// native crashes and NaNs that the model never shows: an embedding index past the table, a negative running
// variance under rsqrt, a philox seed on the GPU where the kernel reads it on the host.
//   - integer ranges: embedding rows, gather/scatter/index/index_select/take dims, dynamo graphs' Python indexing
//     (`table[:, idxs]`: the dim each item indexes), nll/cross-entropy class counts, max-pool indices (the pooled
//     plane), LAPACK pivots (1-based rows); followed through views, Python indexing, expand, cat and add/sub of
//     constants (position ids = arange + offset);
//   - positive floats: sqrt/rsqrt/log*/fractional pow inputs, batch-norm running_var and save_invstd, special
//     functions' domains (bessel y/k, zeta, igamma, entr, xlogy's other), above 1 for acosh and zeta's x;
//   - symmetric positive-definite matrices: cholesky inputs (a random matrix has no Cholesky factor);
//   - offsets and lengths that partition a dimension: embedding_bag's offsets (sorted, from 0, within the
//     indices), segment_reduce's lengths (each row sums to the data's size) and offsets;
//   - probabilities in [0, 1): bernoulli, binary cross-entropy, multinomial;
//   - 0-dim CPU tensors: attention backwards' philox seed and offset (eager keeps them on the host);
//   - generator states: activation checkpointing's run_with_rng_state(state, op, ...) sets the generator to them
//     (random bytes are no Mersenne-Twister state: set_state refuses them);
//   - weights of mm/addmm/linear/convolution: scaled by 1/sqrt(fan_in) as models initialise them, so that
//     activations stay O(1) through dozens of layers (unit-variance weights grow them ~sqrt(fan_in) per layer
//     until bf16 overflows: a NaN the model never shows).
#include "graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxray::graph {

struct ValueDomain {
    enum class Kind { Any, IntRange, Positive, UnitInterval, Scaled, PositiveDefinite, Offsets, Lengths, GeneratorState,
                      BlockIndices };  // BlockIndices: 0, 1, ..., n - 1 along the last dim (a flex block mask's indices)
    Kind kind = Kind::Any;
    std::int64_t low = 0, high = 1;  // IntRange: [low, high); Offsets/Lengths: the size partitioned is `high`
    double above = 0.0;              // Positive: values greater than this (1 for acosh)
    double scale = 1.0;              // Scaled: standard deviation of the values
    bool cpuScalar = false;          // eager passes a 0-dim CPU tensor here, whatever the recorded device
    std::string reason;              // "embedding (embedding): rows of the weight"; "" for Any

    bool constrained() const { return kind != Kind::Any || cpuScalar; }
    std::string describe() const;  // "in [0, 30522): embedding (embedding): rows of the weight"
};

// One entry per node (index = node index); meaningful for placeholders, tensor constants (get_attr) and compiled
// autograd's list getitems.
// Where consumers disagree the tightest integer range wins, then Positive, UnitInterval, Scaled.
std::vector<ValueDomain> inferValueDomains(const Graph& g);

}  // namespace fxray::graph
