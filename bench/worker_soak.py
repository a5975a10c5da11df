#!/usr/bin/env python3
"""Soak test of one `fxray worker`: N consecutive replays of the same graph in one worker process, its resident
memory (from /proc) and, on CUDA, its device memory (nvidia-smi, per process) sampled along the way; prints the
samples and the least-squares slope per 1,000 replays. A leak shows as a slope well above the noise.

usage: bench/worker_soak.py --fxray build/app/cli/fxray [--graph ADDRESS] [--device cpu|cuda] [--replays 1000]"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def device_mib(pid):
    try:
        out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return -1
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[0] == str(pid):
            return int(parts[1])
    return -1


def slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fxray", required=True)
    ap.add_argument("--graph", default=os.path.join(ROOT, "samples", "cpu", "dumps", "cnn_channels_last",
                                                    "cnn_channels_last_joint_0"))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--replays", type=int, default=1000)
    ap.add_argument("--every", type=int, default=100)
    args = ap.parse_args()

    w = subprocess.Popen([args.fxray, "worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    hello = json.loads(w.stdout.readline())
    assert hello.get("ready"), hello
    request = {"graph": {"address": args.graph}, "options": {"device": args.device, "timing": False}}
    samples = []  # (replays done, rss KiB, device MiB)
    start = time.perf_counter()
    for k in range(1, args.replays + 1):
        request["id"] = k
        w.stdin.write(json.dumps(request) + "\n")
        w.stdin.flush()
        while True:
            msg = json.loads(w.stdout.readline())
            if "report" in msg or "error" in msg:
                break
        if "error" in msg or msg["report"]["verdict"] != "pass":
            sys.exit(f"replay {k} did not pass: {msg.get('error') or msg['report']['verdict']}")
        if k == 1 or k % args.every == 0:
            samples.append((k, rss_kib(w.pid), device_mib(w.pid) if args.device.startswith("cuda") else -1))
    seconds = time.perf_counter() - start
    w.stdin.close()
    w.wait(timeout=60)

    print(f"{args.replays} replays of {os.path.basename(args.graph)} on {args.device} in one worker: {seconds:.1f} s "
          f"({1000 * seconds / args.replays:.2f} ms each)")
    print(f"{'replays':>8} {'RSS MiB':>9} {'device MiB':>11}")
    for k, rss, dev in samples:
        print(f"{k:>8} {rss / 1024:>9.1f} {dev:>11}")
    # The first replay warms allocators and caches: the slope is taken from the second sample on.
    steady = samples[1:] if len(samples) > 2 else samples
    xs = [s[0] for s in steady]
    print(f"RSS slope: {slope(xs, [s[1] for s in steady]) * 1000 / 1024:+.2f} MiB per 1,000 replays")
    if args.device.startswith("cuda"):
        print(f"device memory slope: {slope(xs, [s[2] for s in steady]) * 1000:+.2f} MiB per 1,000 replays")


if __name__ == "__main__":
    main()
