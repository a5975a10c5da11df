"""Stage compare over a corpus of TORCH_TRACE logs: `fxray compare <log> --json` for every log found under the
given folders, logs or .tgz archives (unpacked to a temporary folder), then one row per model/log -- compiles,
stages compared, all agree / diverge / failed, time -- totals, and the divergences' and failures' reasons grouped.

    PY=~/.cache/fxray/venv/bin/python
    $PY tools/corpus/stage_compare_corpus.py samples tests/data /tmp/wt16-corpus/traces
    $PY tools/corpus/stage_compare_corpus.py /work/shared/corpora/tlparse_test_inputs.tgz --json /tmp/tlparse.json

Exit 0 when every compile agrees, 1 otherwise (2 when fxray itself could not be run)."""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FXRAY = os.path.join(HERE, "..", "..", "build", "app", "cli", "fxray")
HEADER = re.compile(r"^[VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\] \{")


def is_trace_log(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip():
                    return bool(HEADER.match(line))
    except OSError:
        pass
    return False


def find_logs(paths, scratch):
    """(log path, label) pairs: the label is the log's path relative to the folder or archive given, with the
    folder's (or archive's) own name first -- traces/<model>/<log> reads "<model>/<log>"."""
    logs = {}
    for p in paths:
        root = p
        if p.endswith((".tgz", ".tar.gz", ".txz", ".tar.xz")):
            root = tempfile.mkdtemp(prefix="unpacked-", dir=scratch)
            with tarfile.open(p) as t:
                t.extractall(root, filter="data")
        name = re.sub(r"\.(tgz|tar\.gz|txz|tar\.xz)$", "", os.path.basename(os.path.normpath(p)))
        if os.path.isfile(root):
            if is_trace_log(root):
                logs[root] = name
            continue
        for where, _, files in os.walk(root):
            for f in sorted(files):
                full = os.path.join(where, f)
                if is_trace_log(full):
                    logs[full] = os.path.join(name, os.path.relpath(full, root))
    return sorted(logs.items(), key=lambda kv: kv[1])


def generic(reason):
    """A reason with its numbers, paths and node names made generic, to group alike reasons."""
    r = re.sub(r"/\S+\.log#\S+", "<graph>", reason)
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", r)
    return r[:160]


# --progress: each fxray compare's verdicts appended as it ends (JSON lines), so that a run stopped at a deadline
# (the GPU machine's 10-minute calls) still tells what it compared.
PROGRESS = {"path": None, "lock": threading.Lock()}


def note_progress(address, d):
    if not PROGRESS["path"]:
        return
    lines = [{"address": c.get("address", address), "verdict": c.get("verdict"), "reason": c.get("reason", "")}
             for c in d.get("compiles", [d])] if "error" not in d else [{"address": address, "error": d["error"]}]
    with PROGRESS["lock"], open(PROGRESS["path"], "a") as f:
        for line in lines:
            f.write(json.dumps({**line, "seconds": round(d["seconds"], 1)}) + "\n")


def compare_log(fxray, log, device, seed, timeout, stage_timeout, output_code=True):
    d = _compare_log(fxray, log, device, seed, timeout, stage_timeout, output_code)
    note_progress(log, d)
    return d


def _compare_log(fxray, log, device, seed, timeout, stage_timeout, output_code=True):
    cmd = [fxray, "compare", log, "--json", "--device", device, "--seed", str(seed), "--timeout", str(stage_timeout)]
    if not output_code:
        cmd.append("--no-output-code")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout} s", "seconds": time.time() - t0}
    seconds = time.time() - t0
    if p.returncode not in (0, 1):
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1][:300], "seconds": seconds}
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return {"error": "no JSON: " + p.stderr[-300:], "seconds": seconds}
    d["seconds"] = seconds
    return d


def compile_addresses(fxray, log):
    """The log's compiles as `fxray compare` addresses (<log>#<frame>/<compile>, in the log's order), from `fxray
    info --json`; None when fxray cannot list them (the whole log is then compared in one process)."""
    p = subprocess.run([fxray, "info", log, "--json"], capture_output=True, text=True)
    try:
        graphs = json.loads(p.stdout)["graphs"]
    except (ValueError, KeyError):
        return None
    seen = []
    for g in graphs:
        t = g.get("trace") or {}
        key = (t.get("rank", -1), t.get("frame_id"), t.get("frame_compile_id"))
        if key[1] is not None and key not in seen:
            seen.append(key)
    return [f"{log}#{f}/{c}" for _, f, c in seen] or None


def compare_log_per_compile(pool, fxray, log, device, seed, timeout, stage_timeout, output_code):
    """compare_log's answer for a whole log, its compiles compared at once (one fxray process each): a log of many
    compiles (BART's graph breaks: 24) is otherwise one long sequential run of Python children."""
    addresses = compile_addresses(fxray, log)
    if not addresses:
        return compare_log(fxray, log, device, seed, timeout, stage_timeout, output_code)
    answers = [f.result() for f in [pool.submit(compare_log, fxray, a, device, seed, timeout, stage_timeout, output_code)
                                    for a in addresses]]
    compiles, errors = [], []
    for a, d in zip(addresses, answers):
        if "error" in d:
            compiles.append({"address": a, "verdict": "failed", "reason": "fxray compare: " + d["error"], "stages": []})
        else:
            compiles.append({k: v for k, v in d.items() if k != "seconds"})
    return {"compiles": compiles, "seconds": max(d["seconds"] for d in answers)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="folders, TORCH_TRACE logs or .tgz archives of them")
    ap.add_argument("--fxray", default=os.environ.get("FXRAY_BIN", DEFAULT_FXRAY))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=3600, help="per log (seconds)")
    ap.add_argument("--stage-timeout", type=float, default=300, help="per stage replay (seconds)")
    ap.add_argument("--json", help="write every compile's report and the summary here")
    ap.add_argument("--jobs", type=int, default=1,
                    help="logs compared at once (each an fxray process; on a GPU machine they share the GPU)")
    ap.add_argument("--per-compile", action="store_true",
                    help="one fxray process per compile (they run --jobs at once) instead of one per log")
    ap.add_argument("--progress", help="append each compare's verdicts here as it ends (JSON lines)")
    ap.add_argument("--no-output-code", action="store_true",
                    help="leave out the last stage, inductor's generated code (a Python child per compile)")
    args = ap.parse_args()
    if not os.path.exists(args.fxray):
        print(f"no fxray at {args.fxray} (build it, or --fxray)", file=sys.stderr)
        return 2
    PROGRESS["path"] = args.progress
    scratch = tempfile.mkdtemp(prefix="fxray-stage-corpus-")
    try:
        logs = find_logs(args.paths, scratch)
        rows, everything = [], []
        diverge_reasons, fail_reasons, torch_reasons = collections.Counter(), collections.Counter(), collections.Counter()
        # "torch failed": compiles torch itself gave up on after dynamo (the frame ran eagerly): nothing to compare.
        fmt = "%-52s %8s %7s %6s %8s %7s %12s %8s"
        print(fmt % ("model/log", "compiles", "stages", "agree", "diverge", "failed", "torch failed", "time s"))
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        if args.per_compile:
            # The logs' threads only wait on their compiles' futures, so they get a pool of their own.
            log_pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(logs)))
            futures = [log_pool.submit(compare_log_per_compile, pool, args.fxray, log, args.device, args.seed, args.timeout,
                                       args.stage_timeout, not args.no_output_code) for log, _ in logs]
        else:
            futures = [pool.submit(compare_log, args.fxray, log, args.device, args.seed, args.timeout, args.stage_timeout,
                                   not args.no_output_code) for log, _ in logs]
        # Rows print in the logs' order as their compares finish (the threads only wait on fxray processes).
        for (log, name), future in zip(logs, futures):
            d = future.result()
            if "error" in d and "no compile with graphs" in d["error"]:
                d = {"compiles": [], "seconds": d["seconds"]}  # an export log, or one without compiles: nothing to do
            if "error" in d:
                row = {"log": name, "compiles": 0, "stages": 0, "agree": 0, "diverge": 0, "failed": 0, "not compiled": 0,
                       "seconds": d["seconds"], "error": d["error"]}
                fail_reasons["fxray compare: " + generic(d["error"])] += 1
            else:
                compiles = d["compiles"]
                stages = sum(1 for c in compiles for s in c["stages"] if s["verdict"] in ("reference", "agree", "diverge"))
                row = {"log": name, "compiles": len(compiles), "stages": stages, "seconds": d["seconds"],
                       **{k: sum(1 for c in compiles if c["verdict"] == k) for k in ("agree", "diverge", "failed", "not compiled")}}
                for c in compiles:
                    if c["verdict"] == "diverge":
                        diverge_reasons[generic(c["reason"])] += 1
                    elif c["verdict"] == "failed":
                        fail_reasons[generic(c["reason"])] += 1
                    elif c["verdict"] == "not compiled":
                        torch_reasons[generic(c["reason"])] += 1
                    everything.append({"log": name, **c})
            rows.append(row)
            print(fmt % (name[-52:], row["compiles"], row["stages"], row["agree"], row["diverge"], row["failed"],
                         row["not compiled"], "%.1f" % row["seconds"]) + (f"  error: {row['error']}" if "error" in row else ""), flush=True)
        total = {k: sum(r[k] for r in rows)
                 for k in ("compiles", "stages", "agree", "diverge", "failed", "not compiled", "seconds")}
        print(fmt % ("total (%d logs)" % len(rows), total["compiles"], total["stages"], total["agree"], total["diverge"],
                     total["failed"], total["not compiled"], "%.1f" % total["seconds"]))
        # The last stage on its own: how many compiles' generated code ran and agreed with the reference.
        oc = [s for c in everything for s in c["stages"] if s["stage"] == "output_code"]
        if oc:
            verdicts = collections.Counter(s["verdict"] for s in oc)
            print("\noutput_code stages: %d (%s)" % (len(oc), ", ".join(f"{n} {v}" for v, n in verdicts.most_common())))
            for s in oc:
                if s.get("kernel", {}).get("found"):
                    print("  first divergent kernel %s (post-grad %s) at %s" % (s["kernel"]["kernel"], s["kernel"]["node"],
                                                                                 s["kernel"]["origin"]))
        for title, reasons in (("divergences", diverge_reasons), ("failures", fail_reasons),
                               ("compiles torch failed (not compared)", torch_reasons)):
            if reasons:
                print(f"\n{title} by reason:")
                for reason, n in reasons.most_common():
                    print(f"  {n:5d}  {reason}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"rows": rows, "total": total, "divergences": dict(diverge_reasons),
                           "failures": dict(fail_reasons), "compiles": everything}, f, indent=1)
        return 0 if total["diverge"] + total["failed"] == 0 and all("error" not in r for r in rows) else 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
