#!/usr/bin/env python3
"""Trace logs indexed first, a graph parsed when opened (issue 23: "a 1 GB TORCH_TRACE log opens in seconds").

A big log made by gen_trace_log.py (a real log's compiles repeated with new frame ids; default 1 GiB, deleted
afterwards unless --keep or --log names one), then, in one run, each side as its own process with its wall time
and peak RSS (wait4):
  open      `fxray show 'LOG#<last compile>/aot_joint_graph' --outline`: index the log, parse the one graph
            (what the GUI does when the log is opened and a graph shown)
  info      `fxray info LOG`: the index, then every graph of the log parsed (node counts, inputs, op histograms)
  report    `fxray report LOG --json`: the compile report (every compile, its guards, cache events, output code)
  python    the tlparse-like reference: Python reading the log line by line, `json.loads` of every record header
  python+md5  the same, also hashing every payload against its header's MD5 (what fxray's index checks)
--before BIN runs `open` and `report` with another fxray too (e.g. a build of main), with --before-timeout.

usage: bench/trace_index_bench.py [--fxray build/app/cli/fxray] [--mib 1024] [--log LOG] [--keep]
                                  [--before BIN] [--before-timeout 300] [--skip info]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import info_bench  # noqa: E402  (bench/ is the script's own folder)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

REFERENCE = r'''
import hashlib, json, sys
records = graphs = 0
md5 = sys.argv[2] == "md5"
kinds = {"dynamo_output_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph"}
h = expected = None
def close():
    if h is not None and h.hexdigest() != expected:
        sys.exit("md5 mismatch")
with open(sys.argv[1], "rb") as f:
    first = True
    for line in f:
        if line.startswith(b"\t"):
            if h is not None:
                if not first:
                    h.update(b"\n")
                h.update(line[1:].rstrip(b"\n"))
                first = False
            continue
        at = line.find(b"] {")
        if at < 0:
            continue
        close()
        header = json.loads(line[at + 2:])
        records += 1
        graphs += next(iter(header)) in kinds
        h = hashlib.md5() if md5 and "has_payload" in header else None
        expected = header.get("has_payload")
        first = True
    close()
print(records, graphs)
'''


def timed(cmd, timeout=None):
    """(seconds, peak RSS MiB) of one child process; (None, None) past the timeout. Exit 2 (fxray info found a
    damaged record: none here) is still a full run."""
    seconds, rss, _ = info_bench.timed(cmd, timeout, ok_codes=(0, 2))
    return seconds, rss


def last_frame(log):
    """The largest frame_id of the log's headers (read from its tail)."""
    with open(log, "rb") as f:
        f.seek(max(0, os.path.getsize(log) - (4 << 20)))
        frames = [int(m) for m in re.findall(rb'"frame_id": (\d+)', f.read())]
    return max(frames)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fxray", default=os.path.join(ROOT, "build/app/cli/fxray"))
    ap.add_argument("--mib", type=float, default=1024.0)
    ap.add_argument("--log", help="an existing log (not deleted)")
    ap.add_argument("--keep", action="store_true", help="keep the generated log")
    ap.add_argument("--before", help="another fxray binary to time on open and report")
    ap.add_argument("--before-timeout", type=float, default=300.0)
    ap.add_argument("--skip", default="", help="comma-separated: info, report, python, python+md5")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    tmp = None
    log = args.log
    if not log:
        tmp = tempfile.mkdtemp(prefix="fxray-trace-bench-")
        log = os.path.join(tmp, "dedicated_log_torch_trace_big.log")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_trace_log.py"), log, "--mib", str(args.mib)], check=True)
    try:
        size = os.path.getsize(log) / 2**20
        # The joint graph of the last compile (the mlp_encoder sample compiles frame 1 with a joint graph).
        frame = last_frame(log)
        address = f"{log}#{frame}/0/aot_joint_graph"
        print(f"log: {size:.0f} MiB; open: {os.path.basename(address)}")
        print(f"{'side':<34} {'seconds':>9} {'peak RSS':>10}")

        def row(name, cmd, timeout=None):
            s, rss = timed(cmd, timeout)
            if s is None:
                print(f"{name:<34} {'> %.0f s' % timeout:>9} {'-':>10}")
            else:
                print(f"{name:<34} {s:9.2f} {rss:8.0f} MiB")
            return s

        sides = [("fxray open (index + one graph)", [args.fxray, "show", address, "--outline"], None)]
        if "report" not in skip:
            sides.append(("fxray report (compile report)", [args.fxray, "report", log, "--json"], None))
        if "info" not in skip:
            sides.append(("fxray info (index + every graph)", [args.fxray, "info", log], None))
        if args.before:
            sides.append(("before: open", [args.before, "show", address, "--outline"], args.before_timeout))
            if "report" not in skip:
                sides.append(("before: report", [args.before, "report", log, "--json"], args.before_timeout))
        times = {}
        for name, cmd, timeout in sides:
            times[name] = row(name, cmd, timeout)
        for name, mode in (("python json.loads headers", "plain"), ("python json.loads + md5", "md5")):
            if name.split()[0] + ("+md5" if mode == "md5" else "") in skip:
                continue
            times[name] = row(name, [sys.executable, "-c", REFERENCE, log, mode])
        ref = times.get("python json.loads headers")
        if ref:
            for name, s in times.items():
                if s and not name.startswith("python"):
                    print(f"ratio {name}: {s / ref:.2f}x the python header pass")
    finally:
        if tmp and not args.keep:
            os.remove(log)
            os.rmdir(tmp)


if __name__ == "__main__":
    main()
