#!/usr/bin/env python3
"""Captures the minimizer's test and benchmark graphs with tools/capture on the CPU (made at test time, not
committed: each takes seconds and would add megabytes; real inputs are saved too).

    python tests/data/minimize/make_models.py --out DIR [--only NAME ...] [--device cpu|cuda]

The device is recorded in every annotation: fxray replays a graph captured on the CPU on the CPU (recorded
CPU tensors stay there), so CUDA tests capture with --device cuda.

Writes DIR/<name>/<name>_forward_0/ (seed layout) for:
    resmlp_nan    12-layer residual MLP; layer 8 adds log(var(h) - 1e6): var is ~1, so every value of that
                  statement is NaN. The graph BASELINES.md's reference minimizer reduced to `return (gelu_8,)`.
    embed_oob     embedding of ids * 7: out of range for fresh ids (an op error on the CPU, a device-side assert on CUDA).
    transformer5  5-layer pre-norm transformer encoder (300+ forward nodes): the stride-mismatch graph.
    transformer24 24-layer stack (1,500+ forward nodes): the benchmark graph.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import fxray_capture  # noqa: E402


class ResMLP(nn.Module):
    """Pre-norm residual blocks: activations stay O(10) even with the input factory's N(0, 1) weights, so the
    NaN comes from the planted statement, not from an overflow."""

    def __init__(self, layers=12, width=64, nan_layer=8):
        super().__init__()
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.nan_layer = nan_layer

    def forward(self, x):
        h = x
        for i, (norm, layer) in enumerate(zip(self.norms, self.layers)):
            h = h + F.gelu(layer(norm(h)))
            if i == self.nan_layer:
                h = h + torch.log(torch.var(h, dim=-1, keepdim=True) - 1e6)
        return h


class EmbedScaled(nn.Module):
    """Token ids are scaled before the lookup: fine for the captured ids (< 10), out of range for fresh ids that
    nothing bounds (the multiply hides the table from fxray's int-range inference). On the CPU an op error, on
    CUDA a device-side assert that poisons the worker's context."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.fc = nn.Linear(16, 16)

    def forward(self, idx):
        h = self.emb(idx * 7)
        return torch.relu(self.fc(h)).sum(-1)


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.heads = heads

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (y.view(b, t, self.heads, d // self.heads).transpose(1, 2) for y in (q, k, v))
        att = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Stack(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.blocks = nn.Sequential(*(Block() for _ in range(layers)))

    def forward(self, x):
        return self.blocks(x)


def capture(name, model, x, out: Path):
    torch._dynamo.reset()
    cap = fxray_capture.backend(name, str(out), strict=True, dump_example_input=True)
    compiled = torch.compile(model, backend=cap, dynamic=False)
    with torch.no_grad():
        compiled(x)
    torch._dynamo.reset()
    return cap.written


MODELS = {
    "resmlp_nan": lambda: (ResMLP(), torch.randn(16, 64)),
    "embed_oob": lambda: (EmbedScaled(), torch.randint(0, 10, (4, 8))),
    "transformer5": lambda: (Stack(5), torch.randn(2, 8, 32)),
    "transformer24": lambda: (Stack(24), torch.randn(2, 8, 32)),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", default=list(MODELS))
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    for name in args.only:
        model, x = MODELS[name]()
        for d in capture(name, model.to(args.device), x.to(args.device), Path(args.out)):
            print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
