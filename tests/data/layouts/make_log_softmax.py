#!/usr/bin/env python3
"""Captures the fake-vs-eager layout fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/layouts/make_log_softmax.py [--out tests/data/layouts]

ctc_head  wav2vec2's CTC head: log_softmax(logits, -1).transpose(0, 1) into ctc_loss. Its backward calls
          _log_softmax_backward_data with a transposed grad_output; torch's fake-tensor rule for that op follows the
          grad's layout (recorded [32, 64, 1] in the real model, [16, 32, 1] here), its eager kernel on every device
          makes the output contiguous.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "capture"))

import torch  # noqa: E402

import fxray_capture  # noqa: E402


def ctc_head(logits, targets):
    log_probs = torch.nn.functional.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)
    lengths = torch.full((logits.shape[0],), logits.shape[1], dtype=torch.long)
    target_lengths = torch.full((logits.shape[0],), targets.shape[1], dtype=torch.long)
    return torch.nn.functional.ctc_loss(log_probs, targets, lengths, target_lengths, blank=0, zero_infinity=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch._dynamo.reset()
    logits = torch.randn(2, 12, 16, requires_grad=True)
    targets = torch.randint(1, 16, (2, 4))
    cap = fxray_capture.backend("ctc_head", args.out, strict=True, dump_example_input=True)
    torch.compile(ctc_head, backend=cap, dynamic=False)(logits, targets).backward()
    for d in cap.written:
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
