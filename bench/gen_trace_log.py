#!/usr/bin/env python3
"""A big TORCH_TRACE log for the trace-index benchmark (issue 23: "a 1 GB TORCH_TRACE log opens in seconds"): a
real log's records repeated, each copy's compiles renumbered (frame_id + copy * (largest frame_id + 1)), so the
result reads as one long run of distinct compiles. Payloads are copied byte for byte, so their MD5s still hold.

usage: bench/gen_trace_log.py OUT.log [--source samples/h100/trace/mlp_encoder_inductor.log] [--mib 1024]"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FRAME = re.compile(rb'"frame_id": (\d+)')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--source", default=os.path.join(ROOT, "samples/h100/trace/mlp_encoder_inductor.log"))
    ap.add_argument("--mib", type=float, default=1024.0, help="stop once the log is at least this big")
    args = ap.parse_args()
    with open(args.source, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    frames = [int(m.group(1)) for line in lines if not line.startswith(b"\t") for m in FRAME.finditer(line)]
    if not frames:
        sys.exit(f"gen_trace_log: {args.source} has no frame_id in its headers")
    stride = max(frames) + 1
    # Header lines with their frame_id split out, so each copy only formats numbers.
    parts = []
    for line in lines:
        if line.startswith(b"\t") or FRAME.search(line) is None:
            parts.append((line, None, None))
        else:
            m = FRAME.search(line)
            parts.append((line[: m.start(1)], int(m.group(1)), line[m.end(1):]))
    target = int(args.mib * 1024 * 1024)
    written = copies = 0
    with open(args.out, "wb") as out:
        while written < target:
            shift = copies * stride
            chunk = b"".join(head if frame is None else head + str(frame + shift).encode() + tail for head, frame, tail in parts)
            out.write(chunk)
            written += len(chunk)
            copies += 1
    print(f"{args.out}: {written / 2**20:.0f} MiB, {copies} copies of {os.path.basename(args.source)} "
          f"({copies * stride} frames)")


if __name__ == "__main__":
    main()
