#!/usr/bin/env python3
"""Big graphs: `fxray info` against Python's `ast.parse` of the same file (and Graphviz `dot` on all nodes where it
fits), in one run, on this machine; prints times, peak memory and ratios.

Graphs: seed-layout dumps of 20,000 and 100,000 nodes made by gen_graph.py --source-lines (a residual stack whose
blocks run the same source lines, as a model's layers do), and any real dumps given with --dump (e.g. a 24-layer
Qwen2 joint graph captured by tools/corpus/capture_model.py --model qwen2 --layers 24, its node_meta.json deleted).
Each side runs as its own process (what a user waits for): `fxray info DUMP` (discovery, parse of the readable file
and module.py, the cross-check, the .input pickle, the module hierarchy) and `python -c "ast.parse(open(F).read())"`
of the readable file; wall time and peak RSS (wait4) of each, median of --repeats runs. `dot -Tsvg` of the graph's
`fxray dot` output (all nodes, no grouping) runs once with --dot-timeout (default 60 s) on graphs up to
--dot-max-nodes (default 8,000): beyond that it does not finish in minutes.

usage: bench/info_bench.py [--fxray build/app/cli/fxray] [--sizes 20000,100000] [--dump DIR ...] [--repeats 3]"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def timed(cmd, timeout=None, ok_codes=(0,)):
    """(seconds, peak RSS MiB, exit code) of one child process; (None, None, None) past the timeout. An exit code
    outside ok_codes ends the bench with the child's stderr."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = None if timeout is None else t0 + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if deadline and time.perf_counter() > deadline:
            p.kill()
            os.wait4(p.pid, 0)
            return None, None, None
        time.sleep(0.002)
    seconds = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in ok_codes:
        sys.exit(f"{' '.join(cmd)} failed ({code}): {p.stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024.0, code


def median_run(cmd, repeats):
    runs = [timed(cmd) for _ in range(repeats)]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def readable_of(dump):
    names = [f for f in os.listdir(dump) if f.endswith(".readable.py")]
    return os.path.join(dump, names[0]) if names else os.path.join(dump, "module.py")


def node_count(fxray, dump):
    out = subprocess.run([fxray, "info", dump], capture_output=True, text=True, check=True).stdout
    return int(out.split(" nodes ")[1].split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fxray", default=os.path.join(ROOT, "build", "app", "cli", "fxray"))
    ap.add_argument("--sizes", default="20000,100000")
    ap.add_argument("--dump", action="append", default=[], help="a real dump folder to time as well")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--dot-timeout", type=float, default=60)
    ap.add_argument("--dot-max-nodes", type=int, default=8000)
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="fxray-info-bench-")
    try:
        dumps = []
        for n in [int(s) for s in args.sizes.split(",") if s]:
            d = os.path.join(tmp, f"gen{n // 1000}k", f"gen{n // 1000}k_forward_0")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_graph.py"), d, "--nodes", str(n), "--source-lines"],
                           check=True, stdout=subprocess.DEVNULL)
            dumps.append((f"generated {n // 1000}k", d))
        dumps += [(os.path.basename(os.path.normpath(d)), d) for d in args.dump]
        print("| graph | nodes | file MB | fxray info | peak | Python ast.parse | peak | info / ast.parse | dot -Tsvg (all nodes) | dot / info |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for title, d in dumps:
            nodes = node_count(args.fxray, d)
            readable = readable_of(d)
            mb = os.path.getsize(readable) / 1e6
            info_s, info_mib = median_run([args.fxray, "info", d], args.repeats)
            ast_s, ast_mib = median_run([sys.executable, "-c", f"import ast; ast.parse(open({readable!r}).read())"],
                                        args.repeats)
            dot_cell, dot_ratio = "—", "—"
            if shutil.which("dot") and nodes <= args.dot_max_nodes:
                dot_file = os.path.join(tmp, "g.dot")
                subprocess.run([args.fxray, "dot", d, "-o", dot_file], check=True, stdout=subprocess.DEVNULL)
                dot_s, _, _ = timed(["dot", "-Tsvg", "-o", os.devnull, dot_file], timeout=args.dot_timeout)
                dot_cell = f"{dot_s:.1f} s" if dot_s else f"> {args.dot_timeout:.0f} s"
                dot_ratio = f"{dot_s / info_s:.0f}×" if dot_s else f"> {args.dot_timeout / info_s:.0f}×"
            elif nodes > args.dot_max_nodes:
                dot_cell = f"not run (> {args.dot_max_nodes:,} nodes)"
            print(f"| {title} | {nodes:,} | {mb:.1f} | {info_s * 1000:.0f} ms | {info_mib:.0f} MiB | {ast_s * 1000:.0f} ms | "
                  f"{ast_mib:.0f} MiB | {info_s / ast_s:.2f}× | {dot_cell} | {dot_ratio} |", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
