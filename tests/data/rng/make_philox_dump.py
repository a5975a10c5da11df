#!/usr/bin/env python3
"""Writes tests/data/rng/philox_dump: a saved-input dump (inputs, eager outputs, generator state) of a graph that
returns memory-efficient attention's philox seed and offset below a dropout, as T5's flex-recipe forward does
(t5.flex_forward_2 on the H100 and H200: its 4 i64[] attention outputs "differed" from eager under saved-input
replay). Without dropout of its own the kernel never writes those scalars (at::empty): eager's values are the
allocator's bits, so no restored generator makes them comparable; the graph's other outputs depend on the dropout and
equal eager once its state is restored. tests/cli/test_rng.py replays it.

The attention is CUDA-only: for a CPU capture this script gives it a CPU kernel of its own (the math, logsumexp
padded to a multiple of 32 with +inf as the CUDA kernel returns it, and seed/offset holding fixed garbage, what
at::empty gave on the H200). A few KB; rerun to refresh:

    python tests/data/rng/make_philox_dump.py [--out tests/data/rng/philox_dump]
"""
from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402

import fxray_capture  # noqa: E402

# What at::empty held on the H200 for t5.flex_forward_2's first philox_seed (eager) and its second's offset.
GARBAGE = (93921693132789, 220)


def efficient_attention_cpu(q, k, v, bias, compute_log_sumexp, dropout_p=0.0, is_causal=False, *, scale=None):
    assert dropout_p == 0.0 and not is_causal
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ k.transpose(-2, -1)) * s
    if bias is not None:
        scores = scores + bias
    lse = torch.logsumexp(scores, dim=-1)
    out = torch.softmax(scores, dim=-1) @ v
    padded = torch.full((*lse.shape[:-1], 32 * math.ceil(lse.shape[-1] / 32)), math.inf, dtype=lse.dtype)
    padded[..., : lse.shape[-1]] = lse
    return (out, padded if compute_log_sumexp else lse.new_empty(*lse.shape[:-1], 0),
            torch.tensor(GARBAGE[0]), torch.tensor(GARBAGE[1]))


def step(q, k, v):
    d = torch.nn.functional.dropout(q, 0.5, training=True)
    # (the attention's output itself is left out: the meta kernel's layout for it is CUDA's, [64, 8, 16, 1], which
    # this CPU-recorded graph would hold fxray's CPU stand-in to)
    _, lse, seed, offset = torch.ops.aten._scaled_dot_product_efficient_attention(d, k, v, None, True, scale=1.0)
    return d * 2, lse, seed, offset


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "philox_dump"))
    args = ap.parse_args(argv)
    lib = torch.library.Library("aten", "IMPL")  # noqa: F841  (kept alive while the capture runs)
    lib.impl("_scaled_dot_product_efficient_attention", efficient_attention_cpu, "CPU")
    shutil.rmtree(args.out, ignore_errors=True)
    torch.manual_seed(0)
    torch._dynamo.reset()
    cap = fxray_capture.backend("philox", args.out, strict=True, dump_example_input=True)
    q, k, v = (torch.randn(1, 2, 4, 8) for _ in range(3))
    torch.compile(step, backend=cap, dynamic=False)(q, k, v)
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
