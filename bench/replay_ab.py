#!/usr/bin/env python3
"""Two fxray builds side by side in one run (a refactor's before = after): bench/replay_bench.py's graphs replayed
by each build in turn, ROUNDS times alternating (A B A B ...), fxray's checked replay (median µs of --repeat)
per graph and build, the median over rounds, and B / A. Python's eager is timed once per round as the
machine's yardstick (it should not move between builds).
With --fxray-only: no replay_bench, no Python eager; each build's `fxray replay G --repeat N` itself, value-checked
(the default) and metadata-only (--no-values), in turn per graph and round (A B A B), B / A the median of the
per-round ratios: a few minutes on a CPU for a change inside the replay.
usage: bench/replay_ab.py --a build-before/app/cli/fxray --b build/app/cli/fxray [--device cpu] [--rounds 3]
       [--fxray-only]"""
import argparse
import os
import statistics
import subprocess
import sys
import json
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(fxray, args, out):
    cmd = [sys.executable, os.path.join(HERE, "replay_bench.py"), "--fxray", fxray, "--device", args.device,
           "--repeats", str(args.repeats), "--warmup", str(args.warmup), "--json", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return {r["graph"]: r for r in json.load(f)}


def fxray_median(fxray, args, address, *extra):
    p = subprocess.run([fxray, "replay", address, "--in-process", "--device", args.device, "--json", "--repeat",
                        str(args.repeats), "--warmup", str(args.warmup), *extra], capture_output=True, text=True)
    rep = json.loads(p.stdout)
    return statistics.median(rep["iteration_us"]) if rep["verdict"] == "pass" and rep.get("iteration_us") else None


def fxray_only(args):
    sys.path.insert(0, HERE)
    from replay_bench import GRAPHS  # noqa: E402 (torch is imported only here)
    print(f"{args.rounds} rounds A/B alternating per graph, medians of rounds (each a median of {args.repeats} passes "
          f"after {args.warmup}), µs per pass, {args.device}; B / A: median of the per-round ratios")
    print("| graph | A values | B values | B / A values | A meta | B meta | B / A meta |")
    print("|---|---|---|---|---|---|---|")
    for title, address in GRAPHS:
        runs = {k: [] for k in ("av", "bv", "am", "bm")}
        for _ in range(args.rounds):
            runs["av"].append(fxray_median(args.a, args, address))
            runs["bv"].append(fxray_median(args.b, args, address))
            runs["am"].append(fxray_median(args.a, args, address, "--no-values"))
            runs["bm"].append(fxray_median(args.b, args, address, "--no-values"))
        if None in runs["av"] + runs["bv"] + runs["am"] + runs["bm"]:
            print(f"| {title} | did not pass on {args.device} | | | | | |")
            continue
        med = {k: statistics.median(v) for k, v in runs.items()}
        rv = statistics.median(b / a for a, b in zip(runs["av"], runs["bv"]))
        rm = statistics.median(b / a for a, b in zip(runs["am"], runs["bm"]))
        print(f"| {title} | {med['av']:,.0f} | {med['bv']:,.0f} | {rv:.2f}× | {med['am']:,.0f} | {med['bm']:,.0f} | {rm:.2f}× |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="fxray of the first build (before)")
    ap.add_argument("--b", required=True, help="fxray of the second build (after)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--fxray-only", action="store_true", help="time fxray's own --repeat passes only (see above)")
    args = ap.parse_args()
    if args.fxray_only:
        return fxray_only(args)
    samples = {"a": {}, "b": {}, "eager": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for side in ("a", "b"):
                rows = run(getattr(args, side), args, os.path.join(tmp, f"{side}{r}.json"))
                for g, row in rows.items():
                    samples[side].setdefault(g, []).append(row["fxray_us"])
                    samples["eager"].setdefault(g, []).append(row["eager_us"])
    print(f"{args.rounds} rounds A/B alternating, median of rounds (each a median of {args.repeats} runs), µs per graph, {args.device}")
    print(f"| graph | A (before) | B (after) | B / A | Python eager |")
    print("|---|---|---|---|---|")
    ratios = []
    for g in samples["a"]:
        a, b = statistics.median(samples["a"][g]), statistics.median(samples["b"].get(g, [float("nan")]))
        ratios.append(b / a)
        print(f"| {g} | {a:.0f} | {b:.0f} | {b / a:.2f}× | {statistics.median(samples['eager'][g]):.0f} |")
    print(f"geometric mean B / A: {statistics.geometric_mean(ratios):.3f}×")


if __name__ == "__main__":
    main()
