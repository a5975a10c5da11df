#!/usr/bin/env python3
"""Captures the flex_attention fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/flex/make_flex.py [--out tests/data/flex]

flex_causal  flex_attention inference (torch 2.11 has no CPU backward) with a score_mod (a relative-position bias)
             and a causal block mask, as HF's attn_implementation="flex_attention" calls it. The AOT graph calls
             torch.ops.higher_order.flex_attention(q, k, v, self.sdpa_score0, (..., self.sdpa_mask0), scale, ...):
             its score and mask functions are subgraphs (nested classes of the readable dump; to_folder pickles them
             as sdpa_score0.pt / sdpa_mask0.pt GraphModules beside module.py).
flex_gqa_train  a training step of the same attention with grouped heads (4 query heads, 2 key/value heads): its
             backward graph calls torch.ops.higher_order.flex_attention_backward(q, k, v, out, lse, grad_out, None,
             fw_graph0, joint_graph0, (..., mask_graph0), ...). flex_attention's front end refuses a CPU backward
             (_validate_device); the HOP itself runs on the CPU by its dense math (sdpa_dense_backward), so the check
             is switched off for the capture. Only the backward dump is kept.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402
from torch.nn.attention.flex_attention import create_block_mask, flex_attention  # noqa: E402

import fxray_capture  # noqa: E402


def causal(b, h, q_idx, kv_idx):
    return kv_idx <= q_idx


def bias(score, b, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx) * 0.1


def attend(q, k, v):
    mask = create_block_mask(causal, None, None, q.shape[2], k.shape[2], device="cpu")
    return flex_attention(q, k, v, score_mod=bias, block_mask=mask)


def attend_grouped(q, k, v):
    mask = create_block_mask(causal, None, None, q.shape[2], k.shape[2], device="cpu")
    return flex_attention(q, k, v, score_mod=bias, block_mask=mask, enable_gqa=True)


def capture_training(out: str):
    import shutil
    import torch.nn.attention.flex_attention as fa
    fa._validate_device = lambda *a: None  # see flex_gqa_train above
    torch.manual_seed(0)
    torch._dynamo.reset()
    q = torch.randn(2, 4, 16, 8, requires_grad=True)
    k, v = (torch.randn(2, 2, 16, 8, requires_grad=True) for _ in range(2))
    cap = fxray_capture.backend("flex_gqa_train", out, strict=True, dump_example_input=True)
    o = torch.compile(attend_grouped, backend=cap, dynamic=False)(q, k, v)
    (o * torch.randn_like(o)).sum().backward()
    for d in cap.written:
        if not d.endswith("backward_0"):
            shutil.rmtree(d)
    return [d for d in cap.written if d.endswith("backward_0")]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    q, k, v = (torch.randn(1, 2, 16, 8) for _ in range(3))
    cap = fxray_capture.backend("flex_causal", args.out, strict=True, dump_example_input=True)
    with torch.no_grad():
        torch.compile(attend, backend=cap, dynamic=False)(q, k, v)
    for d in cap.written + capture_training(args.out):
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
