#!/usr/bin/env python3
"""Seed sweep speed: `fxray replay G --seeds A-B --until nan` (one process, one worker) against what a user does
without it, one `fxray replay G --seed S` process per seed, in one run on the same machine.

For the graph (default: tests/data/sweep/sharp_softmax, whose exp overflows to Inf for a few percent of seeds):
  sweep-find   the sweep from seed 0 until the first failing seed S (wall time of the whole command)
  loop-find    one `fxray replay --seed s` process per seed, s = 0..S, stopping at the first that fails (the same
               answer, checked)
  sweep-all    the sweep over all --seeds seeds with a criterion that never fires here (mismatch): the cost of a
               clean 1,000-seed sweep
  rate         how many of the --seeds seeds fail: sweeps resumed after each failing seed
Prints seconds and the ratio loop-find / sweep-find, and the per-seed cost of both.
usage: bench/sweep_bench.py --fxray build/app/cli/fxray [--graph G] [--seeds 1000] [--in-process]"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPH = os.path.join(ROOT, "tests", "data", "sweep", "sharp_softmax", "sharp_softmax_forward_0")


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t0, p


def sweep(fxray, graph, first, last, until, extra):
    dt, p = timed([fxray, "replay", graph, "--seeds", f"{first}-{last}", "--until", until, "--json", *extra])
    if p.returncode not in (0, 1):
        sys.exit(f"sweep failed (exit {p.returncode}): {p.stderr}")
    return dt, json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fxray", default=os.path.join(ROOT, "build", "app", "cli", "fxray"))
    ap.add_argument("--graph", default=GRAPH)
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--in-process", action="store_true", help="sweep in the fxray process instead of its worker")
    args = ap.parse_args()
    extra = ["--device", args.device] + (["--in-process"] if args.in_process else [])
    last = args.seeds - 1

    t_sweep, r = sweep(args.fxray, args.graph, 0, last, "nan", extra)
    if not r["found"]:
        sys.exit(f"no seed of 0-{last} fails: nothing to find")
    s = r["seed"]
    print(f"sweep-find: seed {s} ({r['failure']}) after {r['seeds_run']} seed(s): {t_sweep:.2f} s "
          f"(in the worker: {r['seconds']:.2f} s)")

    t0 = time.perf_counter()
    found = None
    for seed in range(0, last + 1):
        p = subprocess.run([args.fxray, "replay", args.graph, "--seed", str(seed), "--device", args.device],
                           capture_output=True, text=True)
        if p.returncode == 1:
            found = seed
            break
        if p.returncode != 0:
            sys.exit(f"replay --seed {seed} failed: {p.stderr}")
    t_loop = time.perf_counter() - t0
    assert found == s, f"one process per seed found seed {found}, the sweep {s}"
    print(f"loop-find:  seed {found} after {found + 1} process(es): {t_loop:.2f} s ({t_loop / (found + 1) * 1000:.0f} ms per seed)")

    t_all, ra = sweep(args.fxray, args.graph, 0, last, "mismatch", extra)
    assert not ra["found"] and ra["seeds_run"] == args.seeds, ra.get("failure")
    print(f"sweep-all:  {args.seeds} seeds, none mismatching: {t_all:.2f} s ({t_all / args.seeds * 1000:.2f} ms per seed)")

    failing, first, t_rate = [], 0, 0.0
    while first <= last:
        dt, rr = sweep(args.fxray, args.graph, first, last, "nan", extra)
        t_rate += dt
        if not rr["found"]:
            break
        failing.append(rr["seed"])
        first = rr["seed"] + 1
    print(f"rate:       {len(failing)} of {args.seeds} seeds fail ({100.0 * len(failing) / args.seeds:.1f}%): "
          f"{', '.join(map(str, failing[:12]))}{' ...' if len(failing) > 12 else ''} ({t_rate:.1f} s)")
    print(f"ratio loop-find / sweep-find: {t_loop / t_sweep:.1f}x; per seed: one process {t_loop / (found + 1) * 1000:.0f} ms, "
          f"sweep {t_all / args.seeds * 1000:.2f} ms ({t_loop / (found + 1) / (t_all / args.seeds):.0f}x)")


if __name__ == "__main__":
    main()
