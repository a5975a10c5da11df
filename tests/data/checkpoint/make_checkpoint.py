#!/usr/bin/env python3
"""Captures the activation-checkpointing fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/checkpoint/make_checkpoint.py [--out tests/data/checkpoint]

ckpt_mlp   a training step of an MLP whose middle block runs under torch.utils.checkpoint (non-reentrant) with
           dropout and a drop-path mask (timm's x.new_empty(...).bernoulli_(keep)) in it. AOTAutograd recomputes the
           block in the backward and, so that the recompute draws the forward's masks, wraps each random op in
           torch.ops.higher_order.run_and_save_rng_state(op, *args) in the forward (the generator state before
           the op, then its result) and run_with_rng_state(state, op, *args) in the backward: the op is passed as
           a value (torch.ops.aten.native_dropout.default, torch.ops.aten.bernoulli.p).
Every dump has its real inputs (.pt), eager outputs (.expected.pt) and the generator state eager started from
(.rng.pt), so a saved-input replay draws what eager drew and equals it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.utils.checkpoint as ckpt  # noqa: E402

import fxray_capture  # noqa: E402


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        keep = x.new_empty(x.shape[0], 1).bernoulli_(0.75)  # drop path, per sample
        return x + h * keep / 0.75


class CkptMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, 16)
        self.block = Block()
        self.out = nn.Linear(16, 4)

    def forward(self, x):
        return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    model = CkptMlp()
    cap = fxray_capture.backend("ckpt_mlp", args.out, strict=True, dump_example_input=True)
    compiled = torch.compile(model, backend=cap, dynamic=False)
    compiled(torch.randn(6, 8)).square().mean().backward()
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
