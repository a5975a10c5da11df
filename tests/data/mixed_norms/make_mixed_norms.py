#!/usr/bin/env python3
"""Captures normalisations under CPU bf16 autocast with tools/capture (committed: small; rerun to refresh).

    python tests/data/mixed_norms/make_mixed_norms.py [--out tests/data/mixed_norms]

autocast_norms  conv -> BatchNorm2d -> GroupNorm -> a LayerNorm over a bf16 linear, a training step under
                torch.autocast("cpu", bfloat16) as the corpus' bf16 recipe runs it. Autocast runs the norms with a
                bf16 input and their f32 weights: on the CPU the kernels return the saved mean/rstd in f32, torch
                2.11's fake-tensor rules record bf16; the backward kernels then refuse bf16 statistics, and
                native_group_norm_backward's grad_input is bf16 where the fake rule records f32
                (core/graph/mixed_norm_dtypes.h). `--probe` prints eager against fake dtypes per op.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402

import fxray_capture  # noqa: E402


class Norms(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(8)
        self.gn = torch.nn.GroupNorm(2, 8)
        self.linear = torch.nn.Linear(8, 8)
        self.ln = torch.nn.LayerNorm(8)

    def forward(self, x):
        h = self.gn(self.bn(self.conv(x)))
        h = self.linear(h.flatten(2).transpose(1, 2))
        return self.ln(h.to(torch.bfloat16)).float()  # LayerNorm runs in f32 under autocast unless given bf16


def probe():
    from torch._subclasses.fake_tensor import FakeTensorMode
    A = torch.ops.aten

    def calls(x, w, b, s4, s22, s23, xl, wl, bl):
        return {
            "_native_batch_norm_legit_functional": A._native_batch_norm_legit_functional(x, w, b, s4, s4 + 1, True, 0.1, 1e-5),
            "native_group_norm": A.native_group_norm(x, w, b, 2, 4, 25, 2, 1e-5),
            "native_layer_norm": A.native_layer_norm(xl, [8], wl, bl, 1e-5),
            "native_batch_norm_backward": A.native_batch_norm_backward(x, x, w, s4, s4, s4, s4, True, 1e-5, [True] * 3),
            "native_group_norm_backward": A.native_group_norm_backward(x, x, s22, s22, w, 2, 4, 25, 2, [True] * 3),
            "native_layer_norm_backward": A.native_layer_norm_backward(xl, xl, [8], s23, s23, wl, bl, [True] * 3),
        }

    args = [torch.randn(2, 4, 5, 5).bfloat16(), torch.ones(4), torch.zeros(4), torch.zeros(4), torch.ones(2, 2),
            torch.ones(2, 3, 1), torch.randn(2, 3, 8).bfloat16(), torch.ones(8), torch.zeros(8)]
    eager = calls(*args)
    mode = FakeTensorMode()
    with mode:
        fake = calls(*[mode.from_tensor(a) for a in args])
    for op in eager:
        print(f"{op:40} eager {[t.dtype for t in eager[op]]}  fake {[t.dtype for t in fake[op]]}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    ap.add_argument("--probe", action="store_true")
    args = ap.parse_args(argv)
    if args.probe:
        probe()
        return 0
    torch.manual_seed(0)
    torch._dynamo.reset()
    model = Norms().train()
    x = torch.randn(2, 3, 4, 4)
    cap = fxray_capture.backend("autocast_norms", args.out, strict=True, dump_example_input=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = torch.compile(model, backend=cap, dynamic=False)(x).sum()
    loss.backward()
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
