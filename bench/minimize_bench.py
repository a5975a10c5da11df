#!/usr/bin/env python3
"""Minimizer benchmark: fxray minimize vs functorch's minifier (the reference of ../shared/BASELINES.md), in one run.

1. The 12-layer residual MLP with log(var(h) - 1e6) planted in layer 8 (tests/data/minimize/make_models.py),
   failure "NaN": fxray `minimize --until nan` against torch._functorch.fx_minifier.minifier with
   module_fails = "an output holds NaN" on the saved real inputs. Printed: result nodes, whether var/sub/log
   survive, queries, seconds, and the ratio.
2. A 24-layer transformer stack's forward graph (1,500+ nodes) with a stride mismatch planted by editing one
   annotation (bmm_24, layer 12): fxray minimize on the CPU and, when there is one, on CUDA: queries, seconds.
3. Issue 27's codegen bug: inductor's planted relu bug (`cpp.inject_relu_bug_TESTING_ONLY = "accuracy"` on the CPU,
   `triton.` on CUDA: the relu kernel computes x + 1) in a Linear/ReLU stack (tools/runtime/make_output_code_traces.py
   --layers 24). fxray `minimize --until diverge:output_code` on the compile's AOT inference graph (from its
   TORCH_TRACE log) against PyTorch's own accuracy minifier on the same model and fault (TORCHDYNAMO_REPRO_AFTER=aot,
   TORCHDYNAMO_REPRO_LEVEL=4: the run detects the divergence and writes minifier_launcher.py, which is then run).
   Printed per side: whether it finishes, seconds, result size (aten calls), whether the relu (the root cause) is
   kept, and for fxray whether its repro.py diverges under plain PyTorch.
4. Issue 24's "minimize at scale" (bench/minimize_scale.py): the ~6,000-node joint graph of a 24-layer transformer's
   training step with a NaN (scale_nan) or a buggy custom post-grad pass (scale_diverge) planted in layer 12, per
   device: fxray `minimize --until nan` / `--until diverge:post_grad` against functorch's fx_minifier / PyTorch's
   accuracy minifier in the same run: finished, seconds, result size, whether the planted statement is kept.

usage: bench/minimize_bench.py --fxray build/app/cli/fxray [--devices cpu,cuda]
       [--cases nan,stride,output_code,scale_nan,scale_diverge]
       [--layers 24] [--width 16] [--scale-layers 24] [--minifier-timeout 600] [--work DIR]"""
import argparse
import contextlib
import glob
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


def reference_minifier(dump, cwd=None):
    """functorch's minifier on the same graph, fed the dump's saved real inputs, failing when an output has NaN.
    It writes repro.py into `cwd` (default: the dump's parent folder)."""
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
    os.chdir(cwd or os.path.dirname(dump))
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


def forward_ops(text):
    """aten calls in the (first) forward of a Python file: a minifier repro or fxray's module.py."""
    at = text.find("def forward")
    return re.findall(r"torch\.ops\.aten\.(\w+)\.", text[at:] if at >= 0 else "")


def last_error(text):
    lines = [l for l in text.strip().splitlines() if re.match(r"^\w*(Error|Exception)\b", l)]
    return lines[-1][:160] if lines else (text.strip().splitlines() or ["?"])[-1][:160]


def pytorch_minifier(work, device, layers, width, timeout):
    """PyTorch's accuracy minifier on the planted bug: the model run under TORCHDYNAMO_REPRO_AFTER=aot / LEVEL=4
    (detects, writes minifier_launcher.py), then the launcher (minifies, writes repro.py next to it)."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "runtime"))
    from make_output_code_traces import CHILD

    cwd = os.path.join(work, f"pytorch_minifier_{device}")
    shutil.rmtree(cwd, ignore_errors=True)
    os.makedirs(cwd)
    env = dict(os.environ, TORCHDYNAMO_REPRO_AFTER="aot", TORCHDYNAMO_REPRO_LEVEL="4")
    env.pop("TORCH_TRACE", None)
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, device, "1", str(layers), str(width)], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=timeout)
    detect_s = time.perf_counter() - start
    launchers = glob.glob(os.path.join(cwd, "**", "minifier_launcher.py"), recursive=True)
    r = {"detect_s": detect_s, "detected": "AccuracyError" in p.stderr or bool(launchers), "finished": False,
         "minify_s": 0.0, "ops": [], "why": ""}
    if not launchers:
        r["why"] = "no minifier_launcher.py: " + last_error(p.stderr)
        return r
    launcher = launchers[0]
    r["ops"] = forward_ops(open(launcher).read())  # the unminimized graph, until the minifier does better
    start = time.perf_counter()
    try:
        q = subprocess.run([sys.executable, launcher], cwd=os.path.dirname(launcher), env=dict(os.environ),
                           capture_output=True, text=True, timeout=timeout)
        r["minify_s"] = time.perf_counter() - start
        out = q.stdout + q.stderr
        repros = [f for f in glob.glob(os.path.join(cwd, "**", "repro.py"), recursive=True)
                  if os.path.getmtime(f) >= start - 1]
        if q.returncode == 0 and repros:
            r["finished"] = True
            r["ops"] = forward_ops(open(max(repros, key=os.path.getmtime)).read())
        else:
            r["why"] = f"launcher exit {q.returncode}: " + last_error(out)
    except subprocess.TimeoutExpired:
        r["minify_s"] = time.perf_counter() - start
        r["why"] = f"launcher still running after {timeout} s (killed)"
    return r


def output_code_case(args, work, device):
    """fxray minimize --until diverge:output_code against PyTorch's minifier on the planted relu bug."""
    traces = os.path.join(work, f"output_code_{device}")
    start = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "runtime", "make_output_code_traces.py"), "--out", traces,
                    "--device", device, "--layers", str(args.layers), "--width", str(args.width)],
                   check=True, capture_output=True, timeout=1800)
    print(f"(traces captured in {time.perf_counter() - start:.1f} s: {traces})")
    graph = os.path.join(traces, "planted.log") + "#0/0/aot_inference_graph"
    out = os.path.join(work, f"minimized_output_code_{device}")
    start = time.perf_counter()
    p = subprocess.run([args.fxray, "minimize", graph, "--until", "diverge:output_code", "-o", out, "--device", device,
                        "--json"], capture_output=True, text=True, env=dict(os.environ, FXRAY_PYTHON=sys.executable),
                       timeout=args.minifier_timeout)
    wall = time.perf_counter() - start
    fx = {"finished": p.returncode == 0, "s": wall, "ops": [], "why": "", "repro": "-"}
    if p.returncode == 0:
        r = json.loads(p.stdout)
        fx["ops"] = forward_ops(open(os.path.join(r["dump"], "module.py")).read())
        fx["original"] = r["original_nodes"]
        fx["signature"] = r["signature"]
        q = subprocess.run([sys.executable, r["repro"], "--device", device], capture_output=True, text=True, timeout=600)
        fx["repro"] = "diverges" if q.returncode == 1 else f"exit {q.returncode}"
        fx["detail"] = f"{r['original_nodes']} -> {r['minimized_nodes']} nodes, {r['queries']} queries, " \
                       f"{r['compile_child_seconds']:.1f} s in the compile child"
    else:
        fx["why"] = last_error(p.stderr + p.stdout)
    ref = pytorch_minifier(work, device, args.layers, args.width, args.minifier_timeout)
    keeps = lambda ops: "relu" in ops  # noqa: E731
    print(f"{'':16} {'finished':>8} {'seconds':>8} {'aten calls':>10} {'relu kept':>9}  notes")
    print(f"{'fxray':16} {str(fx['finished']):>8} {fx['s']:>8.1f} {len(fx['ops']):>10} {str(keeps(fx['ops'])):>9}  "
          f"{fx.get('detail', fx['why'])}; repro.py: {fx['repro']}; {fx.get('signature', '')}")
    total = ref["detect_s"] + ref["minify_s"]
    print(f"{'pytorch minifier':16} {str(ref['finished']):>8} {total:>8.1f} {len(ref['ops']):>10} {str(keeps(ref['ops'])):>9}  "
          f"detect {ref['detect_s']:.1f} s + minify {ref['minify_s']:.1f} s; {ref['why'] or 'minified'}")
    print(f"fxray / pytorch minifier: time {fx['s'] / max(total, 1e-9):.2f}x, result size "
          f"{len(fx['ops'])} vs {len(ref['ops'])} aten calls")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fxray", required=True)
    ap.add_argument("--devices", default="cpu,cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--cases", default="nan,stride,output_code")
    ap.add_argument("--layers", type=int, default=24, help="output_code case: Linear/ReLU layers")
    ap.add_argument("--width", type=int, default=16, help="output_code case: layer width")
    ap.add_argument("--scale-layers", type=int, default=24,
                    help="scale cases: transformer layers (the fault in the middle one); fewer for a slow machine")
    ap.add_argument("--minifier-timeout", type=int, default=600,
                    help="output_code and scale cases: per run of each side, s")
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="fxray-minbench-")
    cases = args.cases.split(",")
    if "nan" in cases:
        nan_case(args, work)
    if "stride" in cases:
        stride_case(args, work)
    if "output_code" in cases:
        for device in args.devices.split(","):
            print(f"\n== planted relu bug in inductor's generated code, {args.layers}-layer Linear/ReLU stack, {device} ==")
            output_code_case(args, work, device)
    os.environ["FXRAY_SCALE_LAYERS"] = str(args.scale_layers)  # read by scale_model in this process and its children
    for case in ("scale_nan", "scale_diverge"):
        if case in cases:
            import minimize_scale
            for device in args.devices.split(","):
                getattr(minimize_scale, case)(args, work, device)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


def nan_case(args, work):
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



def stride_case(args, work):
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


if __name__ == "__main__":
    main()
