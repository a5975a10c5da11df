#!/usr/bin/env python3
"""Parse + load: fxray vs Python references, in one run, on the same files.

For each graph: fxray's parse of the graph file and its full load (discovery-free load of the address: parse
readable + module.py, check they agree, read the .input pickle, merge input metadata), against
  - Python `ast.parse` of the same file (a lower bound for anything in Python that reads the code), and
  - what a user does in Python to get a GraphModule from a dump: import module.py and `torch.fx.symbolic_trace`
    the FxModule (needs torch; skipped without it).
usage: bench/load_bench.py [--fxray-bench build/bench/fxray_bench_load] [--repeats 5]"""
import argparse
import ast
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def python_trace_ms(folder, repeats):
    try:
        import torch.fx  # noqa: F401
    except ImportError:
        return None
    import torch.fx

    def load():
        spec = importlib.util.spec_from_file_location("fxmod", os.path.join(folder, "module.py"))
        mod = importlib.util.module_from_spec(spec)
        src = open(os.path.join(folder, "module.py")).read()
        # module.py loads state_dict.pt from the dumping machine's absolute path: skip that line.
        src = "\n".join(line for line in src.split("\n") if "load_state_dict" not in line)
        # Constant-creating ops (full, arange) run for real while tracing: keep them off a GPU this box lacks.
        src = src.replace("device(type='cuda'", "device(type='meta'")
        exec(compile(src, "module.py", "exec"), mod.__dict__)
        return torch.fx.symbolic_trace(mod.FxModule())
    return median_ms(load, repeats)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fxray-bench", default=os.path.join(ROOT, "build", "bench", "fxray_bench_load"))
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="fxray-bench-")
    big = os.path.join(tmp, "gen20k_forward_0")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_graph.py"), big, "--nodes", "20000"], check=True,
                   stdout=subprocess.DEVNULL)
    cases = [
        ("largest sample: cnn_channels_last joint (h100)",
         os.path.join(ROOT, "samples", "h100", "dumps", "cnn_channels_last", "cnn_channels_last_joint_0")),
        ("generated 20k-node forward", big),
    ]
    rows = []
    for title, folder in cases:
        out = subprocess.run([args.fxray_bench, folder, str(args.repeats)], capture_output=True, text=True, check=True)
        fx = json.loads(out.stdout)
        readable = [f for f in os.listdir(folder) if f.endswith(".readable.py")][0]
        text = open(os.path.join(folder, readable)).read()
        py_ast = median_ms(lambda: ast.parse(text), args.repeats)
        py_trace = python_trace_ms(folder, max(1, min(args.repeats, 3)))
        rows.append((title, fx, py_ast, py_trace))

    print(f"{'graph':48} {'nodes':>6} {'fxray parse':>12} {'fxray load':>11} {'py ast.parse':>13} "
          f"{'py import+fx.trace':>19} {'ast/fxray':>10} {'trace/fxray':>12}")
    for title, fx, py_ast, py_trace in rows:
        trace = f"{py_trace:17.1f}ms" if py_trace is not None else f"{'n/a':>19}"
        ratio = f"{py_trace / fx['load_ms']:11.1f}x" if py_trace is not None else f"{'n/a':>12}"
        print(f"{title:48} {fx['nodes']:6d} {fx['parse_ms']:10.2f}ms {fx['load_ms']:9.2f}ms {py_ast:11.2f}ms "
              f"{trace} {py_ast / fx['parse_ms']:9.1f}x {ratio}")
    print("(medians; load = parse readable + module.py, compare them, merge input metadata; "
          f"{args.repeats} repeats)")


if __name__ == "__main__":
    main()
