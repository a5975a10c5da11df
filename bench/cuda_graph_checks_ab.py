#!/usr/bin/env python3
"""Issue 24's "checked CUDA graph <= 1.3x unchecked", variant by variant, in one run: for each bench graph
(replay_bench.GRAPHS), fxray's unchecked CUDA-graph replay (`--cuda-graph --no-values`) and its checked one under each
variant of the statistics' environment (FXRAY_STATS_BESIDE: beside the compute or after each node; FXRAY_STATS_ROUNDS:
rounds of loads per block of the kernel), interleaved round by round. Prints per graph the median synchronised
replay (µs) and checked / unchecked, the median of the per-round ratios.

    python3 bench/cuda_graph_checks_ab.py --fxray build/app/cli/fxray [--rounds 2] [--variants beside=1,rounds=4 ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_bench import GRAPHS  # noqa: E402

DEFAULT_VARIANTS = ["beside=1,rounds=4", "beside=0,rounds=4", "beside=1,rounds=2", "beside=0,rounds=2",
                    "beside=1,rounds=1", "beside=0,rounds=1"]


def parse_variant(text):
    env = {}
    for part in text.split(","):
        key, value = part.split("=")
        env[{"beside": "FXRAY_STATS_BESIDE", "rounds": "FXRAY_STATS_ROUNDS"}[key]] = value
    return env


def replay_us(fxray, address, repeats, env, *extra):
    p = subprocess.run([fxray, "replay", address, "--in-process", "--device", "cuda", "--json", "--cuda-graph",
                        "--inputs", "saved", "--repeat", str(repeats), "--warmup", str(max(1, repeats // 5)), *extra],
                       capture_output=True, text=True, env={**os.environ, **env})
    try:
        cg = json.loads(p.stdout).get("cuda_graph", {})
    except json.JSONDecodeError:
        print(f"  {address} {extra} {env}: exit {p.returncode}: {p.stderr[-500:]}", file=sys.stderr)
        return None
    if cg.get("status") != "captured":
        print(f"  {address} {env}: {cg.get('status')}: {cg.get('reason')}", file=sys.stderr)
        return None
    rows = cg.get("value_checks", {}).get("rows_vs_pass", {})
    if rows.get("differ"):
        print(f"  {address} {env}: {rows['differ']} statistics rows differ from the pass's", file=sys.stderr)
    return cg["replay_median_us"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fxray", required=True)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--variants", nargs="*", default=DEFAULT_VARIANTS)
    ap.add_argument("--graphs", default="", help="comma-separated substrings of the graph titles (default: all)")
    args = ap.parse_args()
    picked = [(t, a) for t, a in GRAPHS if not args.graphs or any(s in t for s in args.graphs.split(","))]
    print(f"{'graph':32} {'unchecked':>9} " + " ".join(f"{v:>22}" for v in args.variants))
    for title, address in picked:
        plain, checked = [], {v: [] for v in args.variants}
        for _ in range(args.rounds):
            plain.append(replay_us(args.fxray, address, args.repeats, {}, "--no-values"))
            for v in args.variants:
                checked[v].append(replay_us(args.fxray, address, args.repeats, parse_variant(v)))
        cells = []
        for v in args.variants:
            ratios = [c / p for c, p in zip(checked[v], plain) if c and p]
            us = [c for c in checked[v] if c]
            cells.append(f"{statistics.median(us):7.1f} {statistics.median(ratios):5.2f}x" if ratios else "-")
        base = [p for p in plain if p]
        print(f"{title:32} {statistics.median(base) if base else float('nan'):9.1f} " +
              " ".join(f"{c:>22}" for c in cells), flush=True)
    print(f"(µs per synchronised replay, medians over {args.rounds} interleaved round(s); ratio: checked / unchecked, "
          "the median of the per-round ratios; goal <= 1.3x)")


if __name__ == "__main__":
    main()
