"""bench/minimize_bench.py's `scale_nan` and `scale_diverge` cases (issue 24, "minimize at scale"): a fault planted in
layer 12 of a 24-layer transformer (bench/scale_model.py) whose training-step joint graph has ~6,000 nodes, fxray's
minimizer against PyTorch's own in one run, each side bounded by --minifier-timeout.

scale_nan      the joint graph as fxray's capture backend writes it (joint_0, with the step's real inputs), failure
               "NaN" (`log` of a negative variance). fxray: `minimize joint_0 --until nan`. PyTorch: the eager model
               holds the same NaN, so the accuracy minifier (TORCHDYNAMO_REPRO_AFTER=aot, LEVEL=4: compiled vs
               eager) sees no divergence; the reference is functorch's fx_minifier on the same graph and real inputs
               with module_fails = "an output holds NaN", as case 1 of the bench.
scale_diverge  a buggy custom inductor post-grad pass (erf -> erfc - 1, layer 12's GELU is the only erf) makes the
               compiled step differ from eager. The step is compiled by inductor under TORCH_TRACE; fxray:
               `minimize LOG#0/0/aot_joint_graph --until diverge:post_grad` (each candidate run through inductor's
               joint-graph and post-grad passes only, in one Python child; fxray replays the post-grad graph against
               the candidate; the baseline judges growing prefixes of the graph, then truncates at the divergent
               node). PyTorch: the same step under TORCHDYNAMO_REPRO_AFTER=aot TORCHDYNAMO_REPRO_LEVEL=4, then the
               minifier_launcher.py it writes.
               The pass reaches every Python of the case (the trace, fxray's compile child, PyTorch's run and its
               launcher) through a sitecustomize.py on PYTHONPATH: a custom pass is a Python object, which neither
               a TORCH_TRACE log nor a minifier launcher records.

--scale-layers N (FXRAY_SCALE_LAYERS) builds N layers instead of 24, the fault in layer N // 2.

"Root cause kept": the result still has the planted op (log / erf) with its `scale_model.py:LINE` stack comment
(fxray's dumps carry the model's source line; functorch's and the launcher's repros have no comments, so for them
the op alone is checked)."""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import scale_model  # noqa: E402

CAPTURE_CHILD = r'''
import sys, time
sys.path[:0] = [sys.argv[3], sys.argv[4]]
import torch, fxray_capture, scale_model
model, x = scale_model.make("nan", sys.argv[2])
scale_model.step(torch.compile(model, backend=fxray_capture.backend("scale", sys.argv[1])), x)
'''

# The training step's forward compiled by inductor (the planted pass comes from sitecustomize): AOTAutograd traces
# and logs the whole joint graph (the parameters require grad) and compiles its forward partition; the backward's
# compile waits for a backward call, which is left out (the fault is in the forward; half the compile time). The
# compiled loss against eager's shows the fault is real.
INDUCTOR_CHILD = r'''
import sys, torch
sys.path.insert(0, sys.argv[2])
import scale_model
model, x = scale_model.make("post_grad", sys.argv[1])
eager = scale_model.Transformer("post_grad").to(sys.argv[1])
eager.load_state_dict(model.state_dict())
loss = lambda m: m(x).sum().item()
print("compiled loss", loss(torch.compile(model)), "eager loss", loss(eager))
'''

# functorch's minifier on a dump (minimize_bench.reference_minifier), in a child so that a timeout can stop it;
# prints one JSON line. Arguments: the dump, the folder it may write into, this bench folder (for the import).
FUNCTORCH_CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[3])
from minimize_bench import reference_minifier
ops, calls, seconds = reference_minifier(sys.argv[1], cwd=sys.argv[2])
print(json.dumps({"ops": ops, "calls": calls, "seconds": seconds}))
'''


class Timeout(Exception):
    def __init__(self, stdout, stderr):
        super().__init__("timeout")
        self.stdout, self.stderr = stdout, stderr


def run_bounded(cmd, timeout, **kw):
    """subprocess.run, but a timeout kills the whole process group: fxray's worker and compile child, inductor's
    compile workers, which would otherwise outlive their parent and slow down what is measured next."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        raise Timeout(out, err)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def aten_calls(text):
    at = text.find("def forward")
    return re.findall(r"torch\.ops\.aten\.(\w+)\.", text[at:] if at >= 0 else "")


def root_cause_kept(dump, op, line):
    """The planted op is in the result and carries the planted statement's source line (stack comment)."""
    text = "".join(open(f).read() for f in glob.glob(os.path.join(dump, "*.py")))
    return op in aten_calls(open(os.path.join(dump, "module.py")).read()) and f"scale_model.py:{line} " in text


def compute_nodes(text):
    return len(re.findall(r"= torch\.ops\.", text[text.find("def forward"):]))


def fxray_side(args, graph, until, out, device, env=None):
    start = time.perf_counter()
    try:
        p = run_bounded([args.fxray, "minimize", graph, "--until", until, "-o", out, "--device", device, "--json"],
                        args.minifier_timeout, env=dict(env or os.environ, FXRAY_PYTHON=sys.executable))
    except Timeout as e:
        progress = (e.stderr or "").strip().splitlines()
        return {"finished": False, "s": time.perf_counter() - start,
                "why": f"killed after {args.minifier_timeout} s; last progress: {progress[-1] if progress else '-'}"}
    r = {"finished": p.returncode == 0, "s": time.perf_counter() - start}
    if p.returncode != 0:
        r["why"] = f"exit {p.returncode}: " + (p.stderr + p.stdout).strip()[-300:]
        return r
    j = json.loads(p.stdout)
    r.update(json=j, ops=aten_calls(open(os.path.join(j["dump"], "module.py")).read()))
    r["detail"] = (f"{j['original_nodes']} -> {j['minimized_nodes']} nodes, {j['queries']} queries, "
                   f"{j['seconds']:.1f} s minimizing; fails on {j['verify_failed']}/{j['verified_seeds']} other seeds")
    if "compile_child_seconds" in j:
        r["detail"] += f"; {j['compile_child_seconds']:.1f} s in the compile child"
    return r


def print_table(kind, op, fx, ref, ref_name):
    print(f"{'':18} {'finished':>8} {'seconds':>8} {'nodes':>6} {op + ' kept':>9}  notes")
    kept = fx.get("kept", False)
    size = fx["json"]["minimized_nodes"] if "json" in fx else "-"
    print(f"{'fxray':18} {str(fx['finished']):>8} {fx['s']:>8.1f} {size:>6} {str(kept):>9}  "
          f"{fx.get('detail', fx.get('why', ''))}")
    print(f"{ref_name:18} {str(ref['finished']):>8} {ref['s']:>8.1f} {len(ref['ops']):>6} {str(op in ref['ops']):>9}  "
          f"{ref.get('detail', '')}{'; ' if ref.get('detail') and ref.get('why') else ''}{ref.get('why', '')}")
    if fx["finished"] and ref["s"] > 0:
        print(f"fxray / {ref_name}: time {fx['s'] / ref['s']:.2f}x{'' if ref['finished'] else ' (or less: it did not finish)'}"
              f", result size {size} vs {len(ref['ops'])} ({kind})")


def scale_nan(args, work, device):
    print(f"\n== planted NaN (log of a negative variance, layer {scale_model.PLANT_LAYER}), {scale_model.LAYERS}-layer "
          f"transformer joint graph, {device} ==")
    cap = os.path.join(work, f"scale_capture_{device}")
    shutil.rmtree(cap, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CAPTURE_CHILD, cap, device, HERE, os.path.join(ROOT, "tools", "capture")],
                   check=True, capture_output=True, timeout=1800)
    dump = os.path.join(cap, "scale", "scale_joint_0")
    nodes = compute_nodes(open(os.path.join(dump, "module.py")).read())
    print(f"(joint graph captured with its real inputs in {time.perf_counter() - start:.1f} s: {nodes} compute nodes, "
          f"{dump})")
    if nodes < 5000 and scale_model.LAYERS >= 24:
        print(f"WARNING: the joint graph has {nodes} < 5,000 compute nodes")
    fx = fxray_side(args, dump, "nan", os.path.join(work, f"scale_nan_{device}"), device)
    if fx["finished"]:
        fx["kept"] = root_cause_kept(fx["json"]["dump"], "log", scale_model.planted_line("nan"))
        fx["detail"] += f"; {fx['json']['signature']}; result ops {fx['ops']}"
    ref = {"finished": False, "s": 0.0, "ops": [], "why": ""}
    start = time.perf_counter()
    try:
        q = run_bounded([sys.executable, "-c", FUNCTORCH_CHILD, dump, work, os.path.dirname(os.path.abspath(__file__))],
                        args.minifier_timeout)
        ref["s"] = time.perf_counter() - start
        if q.returncode == 0:
            j = json.loads(q.stdout.strip().splitlines()[-1])
            ref.update(finished=True, ops=j["ops"], s=j["seconds"],
                       detail=f"{j['calls']} queries, in-process on real intermediates; result ops {j['ops'][:8]}")
        else:
            ref["why"] = f"exit {q.returncode}: {q.stderr.strip()[-200:]}"
    except Timeout:
        ref["s"] = time.perf_counter() - start
        ref["ops"] = aten_calls(open(os.path.join(dump, "module.py")).read())
        ref["why"] = f"killed after {args.minifier_timeout} s (size: the unminimized graph)"
    print_table("compute nodes / aten calls", "log", fx, ref, "functorch minifier")


def scale_diverge(args, work, device):
    print(f"\n== planted post-grad divergence (custom pass: erf -> erfc - 1, layer {scale_model.PLANT_LAYER}'s GELU), "
          f"{scale_model.LAYERS}-layer transformer joint graph, {device} ==")
    site = os.path.join(work, "scale_site")
    os.makedirs(site, exist_ok=True)
    with open(os.path.join(site, "sitecustomize.py"), "w") as f:
        f.write(f"import sys\nsys.path.insert(0, {HERE!r})\nimport scale_model\nscale_model.register_planted_pass()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([site] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("TORCH_COMPILE_DEBUG", None)
    tdir = os.path.join(work, f"scale_trace_{device}")
    for d in (tdir, os.path.join(work, f"scale_cache_fxray_{device}"), os.path.join(work, f"scale_cache_pytorch_{device}")):
        shutil.rmtree(d, ignore_errors=True)
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", INDUCTOR_CHILD, device, HERE], capture_output=True, text=True, timeout=1800,
                       env=dict(env, TORCH_TRACE=os.path.join(tdir, "trace"),
                                TORCHINDUCTOR_CACHE_DIR=os.path.join(tdir, "cache")))
    if p.returncode != 0:
        raise SystemExit(f"the inductor compile of the step failed: {p.stderr[-2000:]}")
    log = sorted(glob.glob(os.path.join(tdir, "trace", "*.log")), key=os.path.getsize)[-1]
    print(f"(step compiled by inductor under TORCH_TRACE in {time.perf_counter() - start:.1f} s: {p.stdout.strip()})")
    graph = log + "#0/0/aot_joint_graph"
    # Each side compiles into a fresh inductor cache of its own: neither reuses the other's kernels (or a file a
    # killed compile left half-written in the default cache).
    fx = fxray_side(args, graph, "diverge:post_grad", os.path.join(work, f"scale_diverge_{device}"), device,
                    dict(env, TORCHINDUCTOR_CACHE_DIR=os.path.join(work, f"scale_cache_fxray_{device}")))
    if fx["finished"]:
        fx["kept"] = root_cause_kept(fx["json"]["dump"], "erf", scale_model.planted_line("post_grad"))
        fx["detail"] = f"{fx['json']['signature']}; " + fx["detail"] + f"; result ops {fx['ops']}"
    ref = pytorch_accuracy_minifier(args, work, device,
                                    dict(env, TORCHINDUCTOR_CACHE_DIR=os.path.join(work, f"scale_cache_pytorch_{device}")))
    print_table("compute nodes / aten calls", "erf", fx, ref, "pytorch minifier")


def pytorch_accuracy_minifier(args, work, device, env):
    """The step under TORCHDYNAMO_REPRO_AFTER=aot / LEVEL=4 (detects, writes minifier_launcher.py), then the launcher."""
    cwd = os.path.join(work, f"scale_pytorch_minifier_{device}")
    shutil.rmtree(cwd, ignore_errors=True)
    os.makedirs(cwd)
    penv = dict(env, TORCHDYNAMO_REPRO_AFTER="aot", TORCHDYNAMO_REPRO_LEVEL="4")
    penv.pop("TORCH_TRACE", None)
    r = {"finished": False, "s": 0.0, "ops": [], "why": ""}
    start = time.perf_counter()
    try:
        err = run_bounded([sys.executable, "-c", INDUCTOR_CHILD, device, HERE], args.minifier_timeout, cwd=cwd,
                          env=penv).stderr
    except Timeout as e:
        err = e.stderr or ""
    detect = time.perf_counter() - start
    with open(os.path.join(cwd, "detect.stderr"), "w") as f:
        f.write(err)
    launchers = glob.glob(os.path.join(cwd, "**", "minifier_launcher.py"), recursive=True)
    if not launchers:
        errors = [l for l in err.strip().splitlines() if re.match(r"^\w*(Error|Exception)\b", l) or "Accuracy" in l]
        r.update(s=detect, why=f"no minifier_launcher.py after {detect:.0f} s (see {cwd}/detect.stderr): " +
                 (errors[-1] if errors else (err.strip().splitlines() or ["?"])[-1])[:200])
        return r
    launcher = launchers[0]
    r["ops"] = aten_calls(open(launcher).read())  # the unminimized graph, until the minifier does better
    start = time.perf_counter()
    try:
        q = run_bounded([sys.executable, launcher], args.minifier_timeout, cwd=os.path.dirname(launcher), env=env)
        minify = time.perf_counter() - start
        with open(os.path.join(cwd, "launcher.log"), "w") as f:
            f.write(q.stdout + q.stderr)
        repros = [f for f in glob.glob(os.path.join(cwd, "**", "repro.py"), recursive=True)
                  if os.path.getmtime(f) >= start - 1]
        if q.returncode == 0 and repros:
            r.update(finished=True, ops=aten_calls(open(max(repros, key=os.path.getmtime)).read()))
        else:
            lines = [l for l in (q.stdout + q.stderr).strip().splitlines() if re.match(r"^\w*(Error|Exception)\b", l)]
            r["why"] = f"launcher exit {q.returncode}: " + (lines[-1][:200] if lines else (q.stdout + q.stderr).strip()[-200:])
    except Timeout:
        minify = time.perf_counter() - start
        r["why"] = f"launcher killed after {args.minifier_timeout} s (size: the launcher's graph)"
    r["s"] = detect + minify
    r["detail"] = f"detect {detect:.1f} s + minify {minify:.1f} s, launcher graph {len(aten_calls(open(launcher).read()))} aten calls"
    return r
