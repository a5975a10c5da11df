#pragma once
// Ops whose fake-tensor rule lays an output out otherwise than their eager kernels do, so that a graph records a
// layout that eager never makes (issue 21). The interpreter sets the stride differences of such outputs apart
// (NodeResult::kernelLayouts) when the op's inputs hold their recorded layouts; anything else stays a mismatch.
// Plain graph analysis: which node, which output; the list is checked against torch by
// tests/data/layouts/probe_fake_layouts.py.
#include "graph/graph.h"

namespace fxray::replay::engine {

// Dropout that draws nothing (p == 0, or not training): torch's Python decomposition of aten.dropout, which fake
// tensors run, returns input.clone() (dense), the eager kernel the input itself.
bool isIdentityDropout(const graph::Node& n);

// Whether node `n` of `g` is an output whose recorded layout may be the fake-tensor rule's and not the kernel's:
// one of the listed ops, or the getitem that picks such an output of a multi-output op (native_batch_norm_backward's
// grad_input).
bool fakeLayoutDiffersFromEager(const graph::Graph& g, const graph::Node& n);

// Whether n's tensor input comes, through views and slices only, from a matmul (mm, bmm, addmm, baddbmm) of a
// constant_pad_nd operand: inductor's pad_mm joint pass (CUDA) pads a matmul's odd sizes, slices the result back, and
// leaves the records of the users it rewired as they were, so a view of that slice has a stale record
// (NodeResult::staleLayouts; wav2vec2's attention backward: 159 rows padded to 160).
bool readsPaddedMatmul(const graph::Graph& g, const graph::Node& n);

}  // namespace fxray::replay::engine
