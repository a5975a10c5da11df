#!/usr/bin/env python3
"""Checked replay speed on a GPU: fxray vs the Python references of ../shared/BASELINES.md, in one run.

For each graph: fxray's checked replay (every node's dtype/size/stride checked; `fxray replay --no-values`,
median of timed repeats), its default checked replay with value checks too ("values": every output's NaN/Inf
counts, min, max, mean and the node where NaN/Inf first appears; `fxray replay`), and with --fxray-before the same
value-checked replay of another build (before/after a change, in the same run), against, on the same inputs'
metadata and device,
  eager   the graph's own code run as a Python module (GraphModule-equivalent)
  interp  torch.fx.Interpreter over the symbolically traced module
  checked a fx.Interpreter that checks dtype/size/significant strides against the annotations after every node
          (what functorch's DebugInterpreter does, symbol binding skipped)
  cuda graph  torch.cuda.CUDAGraph replay of the eager module, against `fxray replay --cuda-graph` of the same graph
              (both timed alike: median of synchronised replays, and the mean of replays launched back to back),
              and fxray's CUDA graph with the value checks captured into it (`fxray replay --cuda-graph`)
and the peak device memory of fxray's replay vs eager. Prints µs per graph, µs per node, and ratios.
usage: bench/replay_bench.py --fxray build/app/cli/fxray [--fxray-before build-before/app/cli/fxray] [--repeats 50]
       [--device cuda]"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import torch
import torch.fx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
H100 = os.path.join(ROOT, "samples", "h100")
GRAPHS = [
    ("mlp forward_0", os.path.join(H100, "dumps", "mlp", "mlp_forward_0")),
    ("mlp backward_0", os.path.join(H100, "dumps", "mlp", "mlp_backward_0")),
    ("cnn_channels_last forward_0", os.path.join(H100, "dumps", "cnn_channels_last", "cnn_channels_last_forward_0")),
    ("cnn_channels_last backward_0", os.path.join(H100, "dumps", "cnn_channels_last", "cnn_channels_last_backward_0")),
    ("embed_ce forward_0", os.path.join(H100, "dumps", "embed_ce", "embed_ce_forward_0")),
    ("embed_ce backward_0", os.path.join(H100, "dumps", "embed_ce", "embed_ce_backward_0")),
    ("transformer encoder layer fwd", os.path.join(H100, "trace", "mlp_encoder_inductor.log") + "#1/0/aot_forward_graph"),
    ("transformer encoder layer bwd", os.path.join(H100, "trace", "mlp_encoder_inductor.log") + "#1/0/aot_backward_graph"),
]
DTYPES = {"f64": torch.float64, "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "i64": torch.int64, "i32": torch.int32, "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8, "b8": torch.bool}
ANNOT = re.compile(r'^\s+(\w+): "([a-z0-9]+)\[([^\]]*)\](?:\[([^\]]*)\])?([a-z]+(?::\d+)?)?"', re.M)


def dims(text):
    return [int(x) for x in text.split(",") if x.strip()] if text is not None else None


def load(fxray, address, device):
    """The graph's readable code (from fxray show), as a module, and its annotations per node."""
    text = subprocess.run([fxray, "show", address], capture_output=True, text=True, check=True).stdout
    ann = {}
    sig = re.search(r"def forward\(self, (.*?)\):", text, re.S).group(1)
    for name, dt, sizes, strides, _dev in re.findall(r'(\w+): "([a-z0-9]+)\[([^\]]*)\](?:\[([^\]]*)\])?([a-z]+(?::\d+)?)?"', sig):
        ann[name] = (DTYPES[dt], dims(sizes), dims(strides) if strides != "" or sizes == "" else None)
    for name, dt, sizes, strides, _dev in ANNOT.findall(text):
        ann[name] = (DTYPES[dt], dims(sizes), dims(strides) if strides is not None else None)
    src = "import torch\nfrom torch import device\nfrom math import inf, nan\n" + text
    src = src.replace("device(type='cuda', index=0)", f"device(type='{device.type}', index={device.index or 0})")
    scope = {}
    exec(compile(src, address, "exec"), scope)
    mod = scope["GraphModule"]()
    return mod, ann, text


def make_inputs(mod_text, ann, device, seed=0):
    g = torch.Generator().manual_seed(seed)
    sig = re.search(r"def forward\(self, (.*?)\):", mod_text, re.S).group(1)
    names = re.findall(r"(\w+)(?:: \"[^\"]*\")?(?:,|$)", sig)
    out = []
    for n in names:
        if n == "self":
            continue
        dt, sizes, strides = ann[n]
        if strides is None:
            strides = torch.empty(sizes).stride()
        t = torch.empty_strided(sizes, strides, dtype=dt, device="cpu")
        if dt.is_floating_point:
            t.copy_(torch.randn(sizes, generator=g).to(dt))
        elif dt == torch.bool:
            t.copy_(torch.randint(0, 2, sizes, generator=g).bool())
        else:
            t.copy_(torch.randint(0, 16, sizes, generator=g).to(dt))
        out.append(t.to(device) if device.type != "cpu" else t)
    return out


STMT = re.compile(r'^\s+(\w+)(?:: "[^"]*")? = (torch\.ops\.([\w.]+)\(|\w+\[)?', re.M)


def annotations_by_node(gm, ann, text):
    """Re-tracing renames nodes and folds constant-only calls (full, arange) into get_attr constants, so the code's
    statements are aligned with the traced graph's calls by target, in order; folded ones go unchecked."""
    body = text[text.index("def forward"):]
    stmts = [(name, op if op else ("getitem" if sub.endswith("[") else None)) for name, sub, op in STMT.findall(body)]
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    sig = re.search(r"def forward\(self, (.*?)\):", text, re.S).group(1)
    params = [p for p in re.findall(r"(\w+)(?:: \"[^\"]*\")?(?:,|$)", sig) if p != "self"]
    by_node = {n: ann.get(name) for n, name in zip(placeholders, params)}
    k = 0
    for n in gm.graph.nodes:
        if n.op not in ("call_function", "call_method"):
            continue
        target = "getitem" if getattr(n.target, "__name__", "") == "getitem" else str(n.target)
        while k < len(stmts) and stmts[k][1] != target:
            k += 1  # a statement traced away (constant folded)
        if k < len(stmts):
            by_node[n] = ann.get(stmts[k][0])
            k += 1
    return by_node


class CheckingInterpreter(torch.fx.Interpreter):
    """dtype / size / significant-stride checks after every node, as DebugInterpreter does."""

    def __init__(self, gm, by_node):
        super().__init__(gm)
        self.by_node = by_node

    def run_node(self, n):
        r = super().run_node(n)
        a = self.by_node.get(n)
        if a is not None and isinstance(r, torch.Tensor):
            dt, sizes, strides = a
            assert r.dtype == dt, n.name
            assert list(r.shape) == sizes, n.name
            if strides is not None and r.numel() > 0:
                for s, want, have in zip(r.shape, strides, r.stride()):
                    if s > 1:
                        assert want == have, n.name
        return r


def median_us(fn, repeats, warmup, sync):
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def back_to_back_us(fn, repeats, sync):
    sync()
    t0 = time.perf_counter()
    for _ in range(repeats):
        fn()
    sync()
    return (time.perf_counter() - t0) * 1e6 / repeats


def fxray_replay(fxray, args, address, *extra):
    p = subprocess.run([fxray, "replay", address, "--in-process", "--device", args.device, "--json", "--repeat",
                        str(args.repeats), "--warmup", str(args.warmup), *extra], capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        # A crash is a finding, not the end of the bench: the graph is reported and skipped.
        print(f"{fxray} replay {address} {' '.join(extra)}: exit {p.returncode}: {p.stderr[-2000:]}", file=sys.stderr)
        return {"verdict": f"crashed (exit {p.returncode})", "nodes": []}


def fxray_values_us(fxray, args, address, *extra):
    """Median of fxray's timed checked repeats with value checks (the default replay); None when it did not pass."""
    rep = fxray_replay(fxray, args, address, *extra)
    # Why the repeats ran interpreted rather than as the captured checked pass (its figure is then the interpreter's).
    for note in rep.get("notes", []):
        if note.startswith("timed repeats interpreted"):
            print(f"  {os.path.basename(address)}: {note}", flush=True)
    return statistics.median(rep["iteration_us"]) if rep["verdict"] == "pass" and rep.get("iteration_us") else None


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def iteration_median(rep):
    return statistics.median(rep["iteration_us"]) if rep["verdict"] == "pass" and rep.get("iteration_us") else None


def interleaved_rounds(args, address, eager_fn, sync, first_meta):
    """fxray's metadata-only replay, its value-checked replay and Python eager, ROUNDS times in turn (A B C A B C ...):
    a single process's figure moves by up to 2x between runs on a host-bound GPU replay (CPU clocks, core placement),
    so each round's ratio compares neighbours in time (`first_meta`: round 1's metadata-only report). Returns per-round lists and the medians of the per-round ratios."""
    meta, values, eager = [], [], []
    for k in range(args.rounds):
        # The first round's metadata-only replay is the one that ran first (verdict, node count, peak memory).
        meta.append(iteration_median(first_meta if k == 0 else fxray_replay(args.fxray, args, address, "--no-values")))
        values.append(fxray_values_us(args.fxray, args, address))
        eager.append(median_us(eager_fn, args.repeats, args.warmup, sync))
    ratio = lambda a, b: median_or_none([x / y if x is not None and y else None for x, y in zip(a, b)])  # noqa: E731
    return dict(fxray_rounds_us=meta, values_rounds_us=values, eager_rounds_us=eager,
                meta_eager_ratio=ratio(meta, eager), values_eager_ratio=ratio(values, eager),
                values_meta_ratio=ratio(values, meta))


def fxray_cuda_graph(args, address, values=False):
    """fxray's CUDA-graph mode on the same graph: (median synchronised replay, back-to-back mean, status). With
    `values`, the value checks are captured into the graph."""
    cg = fxray_replay(args.fxray, args, address, "--cuda-graph", *(() if values else ("--no-values",))).get("cuda_graph", {})
    if cg.get("status") != "captured":
        return None, None, f"{cg.get('status')}: {cg.get('reason')}"
    return cg["replay_median_us"], cg["replay_back_to_back_us"], "captured" + ("" if cg["matches_eager"] else " (DIFFERS)")


def print_values_tables(rows, args):
    """Value checks: fxray's default checked replay (and another build's, with --fxray-before) against eager and
    against the metadata-only checked replay; the value-checked CUDA graph against the unchecked one."""
    print()
    fmt = lambda v: f"{v:9.0f}" if v is not None else f"{'-':>9}"  # noqa: E731
    ratio = lambda a, b: f"{a / b:7.2f}x" if a is not None and b else f"{'-':>8}"  # noqa: E731
    head = f"{'value checks':32} {'py eager':>9} {'fx meta':>9} {'fx values':>9} {'values/eager':>12} {'values/meta':>11}"
    if args.fxray_before:
        head += f" {'before':>9} {'before/eager':>12} {'after/before':>12}  (before: {args.fxray_before} {args.before_args})"
    print(head)
    for r in rows:
        per_round = lambda v: f"{v:7.2f}x" if v is not None else f"{'-':>8}"  # noqa: E731
        line = (f"{r['graph']:32} {r['eager_us']:9.0f} {r['fxray_us']:9.0f} {fmt(r['values_us'])} "
                f"{per_round(r['values_eager_ratio']):>12} {per_round(r['values_meta_ratio']):>11}")
        if args.fxray_before:
            line += (f" {fmt(r['before_values_us'])} {ratio(r['before_values_us'], r['eager_us']):>12} "
                     f"{ratio(r['values_us'], r['before_values_us']):>12}")
        print(line)
    print(f"(µs per whole graph, medians over {args.rounds} interleaved round(s) of medians of {args.repeats} passes; "
          "ratios: medians of the per-round ratios; meta: dtype/size/stride checks only (--no-values); values: the "
          "default replay, NaN/Inf counts, min, max, mean of every output too; goal values/eager <= 0.5x on a GPU)")
    if args.rounds > 1:
        print(f"{'per round (µs)':32} eager / meta / values")
        for r in rows:
            rounds = " | ".join(f"{fmt(e).strip()}/{fmt(m).strip()}/{fmt(v).strip()}" for e, m, v in
                                zip(r["eager_rounds_us"], r["fxray_rounds_us"], r["values_rounds_us"]))
            print(f"{r['graph']:32} {rounds}")
    if not any(r["fxray_cuda_graph_values_us"] or r["fxray_cuda_graph_values_status"] for r in rows):
        return
    print()
    print(f"{'CUDA graph, value checks':32} {'fx sync':>8} {'checked':>8} {'ratio':>7} {'fx b2b':>8} {'checked':>8} "
          f"{'ratio':>7}  checked status")
    f1 = lambda v: f"{v:8.1f}" if v is not None else f"{'-':>8}"  # noqa: E731
    for r in rows:
        per_round = lambda v: f"{v:7.2f}x" if v is not None else f"{'-':>8}"  # noqa: E731
        print(f"{r['graph']:32} {f1(r['fxray_cuda_graph_us'])} {f1(r['fxray_cuda_graph_values_us'])} "
              f"{per_round(r['cuda_graph_checked_ratio'])} {f1(r['fxray_cuda_graph_b2b_us'])} "
              f"{f1(r['fxray_cuda_graph_values_b2b_us'])} "
              f"{per_round(r['cuda_graph_checked_b2b_ratio'])}  {r['fxray_cuda_graph_values_status']}")
    print(f"(µs per replay of fxray's captured graph without and with the value checks captured into it, medians over "
          f"{args.cg_rounds} round(s) of each in turn; ratios: medians of the per-round ratios; goal <= 1.3x)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fxray", default=os.path.join(ROOT, "build", "app", "cli", "fxray"))
    ap.add_argument("--fxray-before", help="another build's fxray: its value-checked replay timed in the same run")
    ap.add_argument("--before-args", default="", help="extra arguments of the --fxray-before runs (e.g. --stop-on-first)")
    ap.add_argument("--before-repeats", type=int, default=0, help="timed passes of the --fxray-before runs (0: --repeats)")
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=1,
                    help="fxray metadata-only, fxray value-checked and Python eager timed in turn this many times; "
                         "figures are medians over rounds, goal ratios medians of the per-round ratios")
    ap.add_argument("--cg-rounds", type=int, default=1,
                    help="fxray's unchecked and value-checked CUDA graphs timed in turn this many times")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    device = torch.device(args.device)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    rows = []
    for title, address in GRAPHS:
        rep = fxray_replay(args.fxray, args, address, "--no-values")
        if rep["verdict"] != "pass":
            print(f"{title}: fxray verdict {rep['verdict']} {rep.get('fatal', '')} {rep.get('unsupported', '')}: skipped",
                  file=sys.stderr)
            continue
        nodes = len(rep["nodes"])
        before_us = (fxray_values_us(args.fxray_before, args, address, *args.before_args.split(),
                                     *(("--repeat", str(args.before_repeats)) if args.before_repeats else ()))
                     if args.fxray_before else None)
        mod, ann, text = load(args.fxray, address, device)
        base = torch.cuda.memory_allocated() if device.type == "cuda" else 0
        inputs = make_inputs(text, ann, device)
        with torch.no_grad():
            try:
                mod(*inputs)
            except NotImplementedError as e:  # efficient attention has no CPU kernel in eager (fxray falls back)
                print(f"{title}: Python eager cannot run it on {device}: {str(e).splitlines()[0]}: skipped", file=sys.stderr)
                continue
            rounds = interleaved_rounds(args, address, lambda: mod(*inputs), sync, rep)
            # The tables' figures: medians over the rounds (each a median of --repeats passes).
            fx_us = median_or_none(rounds["fxray_rounds_us"]) or statistics.median(rep["iteration_us"])
            values_us = median_or_none(rounds["values_rounds_us"])
            eager = median_or_none(rounds["eager_rounds_us"])
            gm = torch.fx.symbolic_trace(mod)
            interp = median_us(lambda: torch.fx.Interpreter(gm).run(*inputs), args.repeats, args.warmup, sync)
            by_node = annotations_by_node(gm, ann, text)
            checked = median_us(lambda: CheckingInterpreter(gm, by_node).run(*inputs), args.repeats, args.warmup, sync)
            cg = cg_b2b = fx_cg = fx_cg_b2b = fx_cg_status = None
            fx_cgv = fx_cgv_b2b = fx_cgv_status = None
            cg_ratio = cg_b2b_ratio = None
            peak_eager = None
            if device.type == "cuda":
                # Like fxray's figure: inputs included, nothing left over from earlier graphs.
                torch.cuda.reset_peak_memory_stats()
                mod(*inputs)
                sync()
                peak_eager = torch.cuda.max_memory_allocated() - base
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        mod(*inputs)
                torch.cuda.current_stream().wait_stream(s)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    mod(*inputs)
                cg = median_us(graph.replay, args.repeats, args.warmup, sync)
                cg_b2b = back_to_back_us(graph.replay, args.repeats, sync)
                # Unchecked and checked in turn, --cg-rounds times: medians, and the goal ratio as the median of the
                # per-round ratios.
                plain, checked_cg = [], []
                for _ in range(args.cg_rounds):
                    plain.append(fxray_cuda_graph(args, address))
                    checked_cg.append(fxray_cuda_graph(args, address, values=True))
                fx_cg, fx_cg_b2b = (median_or_none([p[k] for p in plain]) for k in (0, 1))
                fx_cgv, fx_cgv_b2b = (median_or_none([c[k] for c in checked_cg]) for k in (0, 1))
                fx_cg_status, fx_cgv_status = plain[-1][2], checked_cg[-1][2]
                cg_ratio = median_or_none([c[0] / p[0] if c[0] and p[0] else None for p, c in zip(plain, checked_cg)])
                cg_b2b_ratio = median_or_none([c[1] / p[1] if c[1] and p[1] else None for p, c in zip(plain, checked_cg)])
        rows.append(dict(graph=title, nodes=nodes, fxray_us=fx_us, values_us=values_us, before_values_us=before_us,
                         fxray_cuda_graph_values_us=fx_cgv, fxray_cuda_graph_values_b2b_us=fx_cgv_b2b,
                         fxray_cuda_graph_values_status=fx_cgv_status, cuda_graph_checked_ratio=cg_ratio,
                         cuda_graph_checked_b2b_ratio=cg_b2b_ratio,
                         eager_us=eager, interp_us=interp, checked_us=checked,
                         cuda_graph_us=cg, cuda_graph_b2b_us=cg_b2b, fxray_cuda_graph_us=fx_cg,
                         fxray_cuda_graph_b2b_us=fx_cg_b2b, fxray_cuda_graph_status=fx_cg_status, fxray_peak=rep.get("peak_device_bytes"), eager_peak=peak_eager,
                         verdict=rep["verdict"], rounds=args.rounds, **rounds))
        if args.json:  # after every graph: a run cut short by a time limit still leaves the graphs it finished
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)
        del mod, inputs, gm
        if device.type == "cuda":
            del graph
            torch.cuda.synchronize()
            torch.cuda.empty_cache()

    print(f"{'graph':32} {'nodes':>5} {'fxray checked':>14} {'py eager':>10} {'fx.Interp':>10} {'py checked':>11} "
          f"{'CUDA graph':>10} {'fx/eager':>9} {'checked/fx':>11} {'peak fx/eager':>14}")
    for r in rows:
        per = lambda us: f"{us:8.0f} ({us / r['nodes']:4.1f})"  # noqa: E731
        cg = f"{r['cuda_graph_us']:10.0f}" if r["cuda_graph_us"] else f"{'-':>10}"
        peak = (f"{r['fxray_peak'] / 2**20:6.1f}/{r['eager_peak'] / 2**20:.1f} MiB"
                if r["fxray_peak"] is not None and r["eager_peak"] else "-")
        print(f"{r['graph']:32} {r['nodes']:5d} {per(r['fxray_us']):>14} {r['eager_us']:10.0f} {r['interp_us']:10.0f} "
              f"{r['checked_us']:11.0f} {cg} {r['meta_eager_ratio'] or r['fxray_us'] / r['eager_us']:8.2f}x {r['checked_us'] / r['fxray_us']:10.1f}x "
              f"{peak:>14}")
    print(f"(µs per whole graph, µs/node in brackets; medians of {args.repeats} runs after {args.warmup} warm-up; "
          f"device {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'})")
    print()
    print(f"{'CUDA graph replay':32} {'py sync':>8} {'fx sync':>8} {'ratio':>6} {'py b2b':>8} {'fx b2b':>8} {'ratio':>6}  fxray")
    for r in rows:
        if r["cuda_graph_us"] is None:
            continue
        if r["fxray_cuda_graph_us"] is None:
            print(f"{r['graph']:32} {r['cuda_graph_us']:8.1f} {'-':>8} {'-':>6} {r['cuda_graph_b2b_us']:8.1f} {'-':>8} {'-':>6}  "
                  f"{r['fxray_cuda_graph_status']}")
            continue
        print(f"{r['graph']:32} {r['cuda_graph_us']:8.1f} {r['fxray_cuda_graph_us']:8.1f} "
              f"{r['fxray_cuda_graph_us'] / r['cuda_graph_us']:5.2f}x {r['cuda_graph_b2b_us']:8.1f} "
              f"{r['fxray_cuda_graph_b2b_us']:8.1f} {r['fxray_cuda_graph_b2b_us'] / r['cuda_graph_b2b_us']:5.2f}x  "
              f"{r['fxray_cuda_graph_status']}")
    print("(µs per replay; sync: median of replays each followed by a device sync; b2b: mean of replays launched back to "
          "back; ratio fxray/torch.cuda.CUDAGraph, goal <= 1.10x)")
    print_values_tables(rows, args)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
