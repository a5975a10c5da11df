#!/usr/bin/env python3
"""Writes the numpy-randomness fixtures (committed: small; rerun to refresh), on the CPU:

    python tests/data/numpy_random/make_numpy_random.py [--out tests/data/numpy_random]

A SpecAugment step as HF wav2vec2's `_compute_mask_indices` / `_mask_hidden_states` write it (training, the mask
drawn with numpy): `np.random.rand(1).item()` makes a dynamo graph of its own that calls
`torch__dynamo_utils_wrapped_rand(1)` (dynamo runs np.random through torch._numpy, which draws from torch's
generator), the mask indices come from `np.random.choice` in Python (a graph break) and enter the next graph as a
tensor input that `torch.tensor(mask, device=..., dtype=torch.bool)` copies.

specaug.log          TORCH_TRACE of the step compiled by inductor (chromium events left out): the dynamo, AOT and
                     post-grad graphs of both compiles.
specaug_dynamo/      seed dumps of the two dynamo-level graphs as compiled (a backend that writes the graph dynamo
                     hands it with fxray's capture writer): module.py, .readable.py, .input, the real inputs (.pt),
                     eager's outputs (.expected.pt) and the generator state before that run (.rng.pt).
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "python"))


def compute_mask(shape, prob, length):
    batch, steps = shape
    epsilon = np.random.rand(1).item()  # noqa: F821  (np imported in main, after TORCH_TRACE is set)
    spans = int(prob * steps / length + epsilon)
    mask = np.zeros((batch, steps), dtype=bool)  # noqa: F821
    for b in range(batch):
        starts = np.random.choice(np.arange(steps - length), spans, replace=False)  # noqa: F821
        for s in starts:
            mask[b, s:s + length] = True
    return mask


def make_model():
    import torch

    class SpecAugment(torch.nn.Module):
        def __init__(self, dim=8):
            super().__init__()
            self.masked_spec_embed = torch.nn.Parameter(torch.rand(dim))
            self.proj = torch.nn.Linear(dim, dim)

        def forward(self, hidden_states):
            mask = compute_mask(hidden_states.shape[:2], 0.3, 2)
            mask = torch.tensor(mask, device=hidden_states.device, dtype=torch.bool)
            hidden_states[mask] = self.masked_spec_embed.to(hidden_states.dtype)
            return self.proj(hidden_states)

    return SpecAugment()


def dynamo_dumper(folder):
    """A dynamo backend that writes each graph it is given as a seed dump (fxray.capture's writer), with the real
    inputs, the outputs of running it eagerly and the generator state before that run, then returns it unchanged
    (the state put back, so the step draws what the dump's run drew)."""
    import torch
    from fxray import capture

    cap = capture.backend("specaug_dynamo", folder, strict=True)
    state = {"n": 0}

    def backend(gm, example_inputs):
        index = state["n"]
        state["n"] += 1
        d = cap._write_graph(gm, example_inputs, "forward", index)
        rng = {"cpu": torch.get_rng_state()}
        inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in example_inputs]
        cap._save_real(d, "forward", index, [x.clone() if isinstance(x, torch.Tensor) else x for x in example_inputs])
        out = gm(*inputs)
        cap._save_expected(d, "forward", index, out)
        cap._save_rng(d, "forward", index, rng)
        torch.set_rng_state(rng["cpu"])
        return gm

    return backend


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = ap.parse_args(argv)
    out = Path(args.out)
    trace_dir = tempfile.mkdtemp(prefix="fxray_specaug_trace_")
    os.environ["TORCH_TRACE"] = trace_dir
    global np
    import numpy as np  # noqa: F401
    import torch

    torch.manual_seed(0)
    np.random.seed(0)
    model = make_model().train()
    torch.compile(model, backend="inductor")(torch.randn(2, 12, 8))
    torch._logging._internal.trace_log.handlers[0].flush()
    logs = sorted(glob.glob(os.path.join(trace_dir, "*.log")))
    kept, skipping = [], False
    for line in open(logs[0], encoding="utf-8"):
        if not line.startswith("\t"):
            skipping = '] {"chromium_event"' in line
        if not skipping:
            kept.append(line)
    (out / "specaug.log").write_text("".join(kept), encoding="utf-8")
    shutil.rmtree(trace_dir)

    dumps = out / "specaug_dynamo"
    shutil.rmtree(dumps, ignore_errors=True)
    torch._dynamo.reset()
    torch.manual_seed(0)
    np.random.seed(0)
    model = make_model().train()
    with torch.no_grad():
        torch.compile(model, backend=dynamo_dumper(str(out)))(torch.randn(2, 12, 8))
    print(out / "specaug.log")
    for d in sorted(glob.glob(str(dumps / "*"))):
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
