#!/usr/bin/env python3
"""Captures LeViT's stem pattern with tools/capture on the CPU (committed: a few hundred KB; rerun to refresh).

    python tests/data/layouts/make_levit_stem.py [--out tests/data/layouts]

levit_stem  bn(conv(x)).flatten(2).transpose(1, 2) into a linear layer, as timm's LeViT ends its stem. The backward's
            native_batch_norm_backward gets a channels-last-like grad_out (the transpose's grad viewed back to
            [N, C, H, W]) and a contiguous input: torch's fake-tensor rule (its decomposition) lays grad_input out like
            grad_out ([128, 1, 32, 8] here, [2048, 1, 512, 128] in the real model), the eager kernel like the input
            ([128, 16, 4, 1]), on every device (tests/data/layouts/probe_fake_layouts.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402

import fxray_capture  # noqa: E402


class Stem(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(8)
        self.linear = torch.nn.Linear(8, 4)

    def forward(self, x):
        return self.linear(self.bn(self.conv(x)).flatten(2).transpose(1, 2))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    model = Stem().train()
    x = torch.randn(2, 3, 8, 8)
    cap = fxray_capture.backend("levit_stem", args.out, strict=True, dump_example_input=True)
    torch.compile(model, backend=cap, dynamic=False)(x).sum().backward()
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
