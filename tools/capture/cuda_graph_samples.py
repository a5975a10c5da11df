#!/usr/bin/env python3
"""Graphs that exercise fxray's CUDA-graph safety analysis, captured for real through fxray_capture.

    ~/.cache/fxray/venv/bin/python tools/capture/cuda_graph_samples.py [--device cpu|cuda] [--out DIR]

Writes seed-layout dumps (DIR/<name>/<name>_<kind>_0/) of tiny functions, each with one thing a cudagraph backend
must notice:
    cg_clean        matmul + bias + relu + softmax: capturable, deterministic (outputs must equal eager exactly)
    cg_mutation     an inference graph that updates a buffer in place (`copy_` into an input): unsafe
    cg_nonzero      boolean-mask indexing (nonzero: data-dependent shape, a host sync): unsafe
    cg_item         `.item()` feeding arithmetic (_local_scalar_dense, a host sync): unsafe
    cg_index_add    index_add_ accumulation (atomics on CUDA): capturable, compared with tolerance
    cg_rare_nan     log of uniform draws shifted below 0: NaN in ~5% of runs (each replay of a captured graph draws
                    anew), as an intermittent fault appears: most replays clean, a few not
The committed copies (tests/data/cuda_graph/, --device cpu) are what CPU tests read; tests/cuda makes CUDA ones on
the GPU machine at test time, so the recorded devices are CUDA there.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402
import torch._dynamo  # noqa: E402

import fxray_capture  # noqa: E402

DEFAULT_OUT = HERE.parents[1] / "tests" / "data" / "cuda_graph"


def clean(x, w, b):
    return torch.softmax(torch.relu(x @ w + b), dim=-1)


def mutation(x, running):
    # What a functionalized buffer update leaves in an inference graph: a copy_ back into the input.
    running.mul_(0.9).add_(x.mean(0), alpha=0.1)
    return x - running


def nonzero(x):
    return x[x > 0].sum().reshape(1) + x.mean()


def item(x):
    # A Python float leaving the graph: AOT cannot turn it into tensor ops (inside, it would).
    return x * 2, x.abs().max().item()


def index_add(x, idx, src):
    return x.index_add(0, idx, src) * 2


def rare_nan(x):
    # 64 draws a run, each below 0.0008 with that probability: a NaN from log in about 5% of runs.
    return torch.log(torch.rand_like(x) - 0.0008) + x


def cases(device):
    g = torch.Generator().manual_seed(0)

    def randn(*s):
        return torch.randn(*s, generator=g).to(device)

    return {
        "cg_clean": (clean, (randn(8, 16), randn(16, 32), randn(32))),
        "cg_mutation": (mutation, (randn(8, 16), randn(16))),
        "cg_nonzero": (nonzero, (randn(8, 16),)),
        "cg_item": (item, (randn(8, 16),)),
        "cg_index_add": (index_add, (randn(32, 8), torch.randint(0, 32, (64,), generator=g).to(device), randn(64, 8))),
        "cg_rare_nan": (rare_nan, (randn(64),)),
    }


def make(out: Path, device: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (fn, args) in cases(device).items():
        shutil.rmtree(out / name, ignore_errors=True)
        torch._dynamo.reset()
        with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True, capture_scalar_outputs=True), \
                torch.no_grad():
            compiled = torch.compile(fn, backend=fxray_capture.backend(name, str(out), strict=True,
                                                                          keep_inference_input_mutations=True), fullgraph=True)
            compiled(*[a.clone() for a in args])
        written += sorted((out / name).glob("*"))
    # No machine paths in committed fixtures: stack-trace comments name files relative to the repository.
    root = str(HERE.parents[1]) + "/"
    for py in out.glob("*/*/*.py"):
        py.write_text(py.read_text().replace(root, ""))
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    for d in make(args.out, args.device):
        print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
