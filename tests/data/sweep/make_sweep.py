#!/usr/bin/env python3
"""Captures the seed-sweep fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/sweep/make_sweep.py [--out tests/data/sweep] [--temperature 0.054] [--device cpu|cuda]
    python tests/data/sweep/make_sweep.py --out DIR --index-add --device cuda   # the nondeterminism fixture

sharp_softmax  a classifier head with a hand-written, sharpened softmax, exp(logits / T) / sum(exp(logits / T)),
               the max never subtracted. For most inputs every logit / T stays below 88.7 and exp is finite; for
               the few whose largest logit is far enough in the tail, exp overflows to Inf and Inf / Inf makes the
               output NaN. With fxray's generated inputs (N(0, 1) weights and activations) that is about 2% of
               seeds (bench/sweep_bench.py counts them): the intermittent NaN a seed sweep is for.
index_add      (--index-add) sums 4,096 rows into 16 with index_add and indices full of duplicates: on CUDA the
               float atomics add in whatever order the threads arrive, so two runs of the same inputs differ in
               the last bits (`fxray replay G --device cuda --repeat 5 --until diverge` names the node). On the CPU
               the loop is sequential and deterministic.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

import fxray_capture  # noqa: E402


class SharpSoftmax(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.fc = nn.Linear(16, 8)
        self.temperature = temperature

    def forward(self, x):
        e = torch.exp(self.fc(x) / self.temperature)
        return e / e.sum(-1, keepdim=True)


class IndexAdd(nn.Module):
    def forward(self, src, idx):
        return torch.zeros(16, src.shape[1], device=src.device).index_add(0, idx, src * 1.5)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    ap.add_argument("--temperature", type=float, default=0.054)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--index-add", action="store_true")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    if args.index_add:
        model, inputs = IndexAdd(), (torch.randn(4096, 512, device=args.device), torch.randint(0, 16, (4096,), device=args.device))
        name = "index_add"
    else:
        model, inputs = SharpSoftmax(args.temperature).to(args.device), (torch.randn(4, 16, device=args.device),)
        name = "sharp_softmax"
    cap = fxray_capture.backend(name, args.out, strict=True, dump_example_input=True)
    with torch.no_grad():
        out = torch.compile(model, backend=cap, dynamic=False)(*inputs)
    assert torch.isfinite(out).all(), "the captured inputs must replay cleanly"
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
