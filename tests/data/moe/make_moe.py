#!/usr/bin/env python3
"""Captures the mixture-of-experts fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/moe/make_moe.py [--out tests/data/moe]

moe_experts  the expert matmuls of an HF MoE layer (Qwen2-MoE, Mixtral) as transformers runs them when
             torch._grouped_mm cannot be used (float32 weights): torch.ops.transformers.grouped_mm_fallback(tokens
             sorted by expert, weights [experts, in, out], offs = cumulative token counts), a custom op that
             transformers/integrations/moe.py registers from Python. The offsets leave one expert empty and the
             last rows past every offset (they stay zero), as routing does.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402
import transformers.integrations.moe  # noqa: E402,F401  (registers transformers::grouped_mm_fallback)

import fxray_capture  # noqa: E402


def experts(x, w_up, w_down, offs):
    h = torch.ops.transformers.grouped_mm_fallback(x, w_up, offs)
    return torch.ops.transformers.grouped_mm_fallback(torch.nn.functional.silu(h), w_down, offs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    inputs = (torch.randn(12, 8), torch.randn(4, 8, 16) / 8 ** 0.5, torch.randn(4, 16, 8) / 16 ** 0.5,
              torch.tensor([3, 3, 7, 10], dtype=torch.int32))
    cap = fxray_capture.backend("moe_experts", args.out, strict=True, dump_example_input=True)
    with torch.no_grad():
        out = torch.compile(experts, backend=cap, dynamic=False)(*inputs)
    assert torch.equal(out, experts(*inputs))
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
