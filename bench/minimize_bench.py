#!/usr/bin/env python3
"""Minimizer benchmark: fxray minimize vs functorch's minifier (the reference of ../shared/BASELINES.md), in one run.

1. The 12-layer residual MLP with log(var(h) - 1e6) planted in layer 8 (tests/data/minimize/make_models.py),
   failure "NaN": fxray `minimize --until nan` against torch._functorch.fx_minifier.minifier with
   module_fails = "an output holds NaN" on the saved real inputs. Printed: result nodes, whether var/sub/log
   survive, queries, seconds, and the ratio.
2. A 24-layer transformer stack's forward graph (1,500+ nodes) with a stride mismatch planted by editing one
   annotation (bmm_24, layer 12): fxray minimize on the CPU and, when there is one, on CUDA: queries, seconds.

usage: bench/minimize_bench.py --fxray build/app/cli/fxray [--devices cpu,cuda] [--work DIR]"""
import argparse
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import torch
import torch.fx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def capture(work, names, device="cpu"):
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "data", "minimize", "make_models.py"), "--out", work,
                    "--only", *names, "--device", device], check=True, capture_output=True)


def fxray_minimize(fxray, graph, until, out, device):
    start = time.perf_counter()
    p = subprocess.run([fxray, "minimize", graph, "--until", until, "-o", out, "--device", device, "--json"],
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"fxray minimize failed ({p.returncode}): {p.stderr}")
    r = json.loads(p.stdout)
    module = open(os.path.join(r["dump"], "module.py")).read()
    ops = re.findall(r"torch\.ops\.aten\.(\w+)\.", module[module.index("def forward"):])
    return r, ops, wall


def reference_minifier(dump):
    """functorch's minifier on the same graph, fed the dump's saved real inputs, failing when an output has NaN."""
    from torch._functorch.fx_minifier import minifier

    ns = {}
    src = open(os.path.join(dump, "module.py")).read()
    exec(compile(src, os.path.join(dump, "module.py"), "exec"), ns)
    gm = torch.fx.symbolic_trace(ns["FxModule"]())
    inputs = torch.load(os.path.join(dump, os.path.basename(dump) + ".pt"), weights_only=False)
    calls = [0]

    def module_fails(fx_g, inps):
        calls[0] += 1
        outs = fx_g(*inps)
        outs = outs if isinstance(outs, (tuple, list)) else [outs]
        return any(isinstance(o, torch.Tensor) and o.is_floating_point() and torch.isnan(o).any() for o in outs)

    # It prints every step and writes repro.py into the current directory: keep both out of the way.
    here = os.getcwd()
    os.chdir(os.path.dirname(dump))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            start = time.perf_counter()
            result = minifier(gm, inputs, module_fails)
            seconds = time.perf_counter() - start
    finally:
        os.chdir(here)
    g = result[0] if isinstance(result, tuple) else result
    g = g.graph if hasattr(g, "graph") else g
    ops = [str(n.target).split(".")[1] if str(n.target).startswith("aten.") else str(n.target) for n in g.nodes
           if n.op == "call_function"]
    return ops, calls[0], seconds


def plant_stride(src, dst, node):
    shutil.copytree(src, dst)
    readable = [os.path.join(dp, f) for dp, _, fs in os.walk(dst) for f in fs if f.endswith(".readable.py")][0]
    text = open(readable).read()
    edited, n = re.subn(node + r': "f32\[(\d+), (\d+), (\d+)\]\[(\d+), (\d+), (\d+)\]',
                        lambda m: f'{node}: "f32[{m[1]}, {m[2]}, {m[3]}][{m[4]}, {m[6]}, {m[5]}]', text)
    assert n == 1, f"{node} not found"
    open(readable, "w").write(edited)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fxray", required=True)
    ap.add_argument("--devices", default="cpu,cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="fxray-minbench-")
    models = os.path.join(work, "models")
    capture(models, ["resmlp_nan"])

    print("== planted NaN, 12-layer residual MLP forward ==")
    dump = os.path.join(models, "resmlp_nan", "resmlp_nan_forward_0")
    r, ops, wall = fxray_minimize(args.fxray, dump, "nan", os.path.join(work, "nan"), "cpu")
    ref_ops, ref_calls, ref_s = reference_minifier(dump)
    keeps = lambda o: all(x in o for x in ("var", "sub", "log"))  # noqa: E731
    print(f"{'':12} {'nodes':>6} {'queries':>8} {'seconds':>8}  result ops (var/sub/log kept?)")
    print(f"{'fxray':12} {r['minimized_nodes']:>6} {r['queries']:>8} {wall:>8.2f}  {ops} ({keeps(ops)})")
    print(f"{'functorch':12} {len(ref_ops):>6} {ref_calls:>8} {ref_s:>8.2f}  {ref_ops} ({keeps(ref_ops)})")
    print(f"fxray/functorch: queries {r['queries'] / max(ref_calls, 1):.2f}x, time {wall / max(ref_s, 1e-9):.2f}x "
          f"(fxray's time includes starting its worker process and LibTorch)")

    print("\n== planted stride mismatch (bmm_24), 24-layer transformer forward ==")
    for device in args.devices.split(","):
        # Captured on the device itself: recorded CPU tensors are replayed on the CPU whatever --device says.
        dev_models = os.path.join(work, f"models_{device}")
        capture(dev_models, ["transformer24"], device)
        planted = os.path.join(work, f"t24_stride_{device}")
        plant_stride(os.path.join(dev_models, "transformer24"), planted, "bmm_24")
        r, ops, wall = fxray_minimize(args.fxray, planted, "mismatch", os.path.join(work, f"stride_{device}"), device)
        print(f"{device:5} {r['original_nodes']} -> {r['minimized_nodes']} nodes ({ops}), {r['queries']} queries, "
              f"{r['seconds']:.2f} s minimizing, {wall:.2f} s wall, {r['worker_starts']} worker start(s)")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
