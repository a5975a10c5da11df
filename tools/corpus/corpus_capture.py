"""Runs the capture side of the corpus in child processes: one process per model and mode (capture with
fxray_capture, trace with inductor + TORCH_TRACE), and OpInfo in parts whose processes are restarted after the op
that killed them. Every child has a timeout; its output goes to <out>/logs/."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _child(cmd: list, log_path: str, timeout: float, env: dict | None = None) -> tuple[int, float]:
    """(exit code, seconds); -999 when it ran past timeout (killed). Niced: the machine may have two cores."""
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    t = time.time()
    with open(log_path, "w") as log:
        p = subprocess.Popen(["nice", "-n", "10", sys.executable, *cmd], stdout=log, stderr=subprocess.STDOUT,
                             env={**os.environ, **(env or {})}, start_new_session=True)
        try:
            code = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)  # its own session: the compile workers it started go too
            p.wait()
            code = -999
    return code, round(time.time() - t, 1)


def capture_entry(e: dict, out: str, opts, trace: bool) -> dict:
    """Captures one corpus entry (a model under a recipe, or a distributed recipe) and its inductor trace when
    asked; returns what each child reported."""
    model = e["entry"]
    mdir = os.path.join(out, "models", model)
    if e["distributed"]:
        base = [os.path.join(HERE, "capture_distributed.py"), "--recipe", e["recipe"], "--out", mdir,
                "--device", opts.device]
    else:
        base = [os.path.join(HERE, "capture_model.py"), "--model", e["model"], "--recipe", e["recipe"], "--out", mdir,
                "--device", opts.device, "--size", opts.size] + (["--no-dropout"] if opts.no_dropout else [])
    result = {}
    modes = ["capture"] + (["trace"] if trace else [])
    for mode in modes:
        # Traces live beside the models, not in them: replaying models/ must not pick the logs up.
        env = {"TORCH_TRACE": os.path.join(out, "traces", model)} if mode == "trace" else {}
        code, secs = _child(base + ["--mode", mode], os.path.join(out, "logs", f"{model}.{mode}.log"),
                            opts.model_timeout, env)
        report_path = os.path.join(mdir, f"{mode}.json")
        report = json.load(open(report_path)) if os.path.exists(report_path) and code != -999 else {}
        if code not in (0, 1) or not report:
            why = "timed out" if code == -999 else f"exit code {code}"
            report = {**report, "process_error": f"{mode} process {why} after {secs} s (log: logs/{model}.{mode}.log)"}
        report["wall_s"] = secs
        result[mode] = report
        note = report.get("process_error") or (f"skipped: {report['skipped']}" if report.get("skipped") else "")
        print(f"  {model} {mode}: {secs} s" + (f"  {note}" if note else ""), flush=True)
        if report.get("skipped"):
            break  # the trace would skip for the same reason
    return result


def _progress(path: str) -> list:
    if not os.path.exists(path):
        return []
    events = []
    for line in open(path):
        try:
            events.append(json.loads(line))
        except ValueError:
            pass  # a line cut short by a crash
    return events


def capture_opinfo_part(part: str, start: int, stop: int, out: str, opts) -> list:
    """Captures op_db[start:stop] into <out>/opinfo/<part>; returns the per-op results (crashes included)."""
    pdir = os.path.join(out, "opinfo", part)
    progress = os.path.join(pdir, "progress.jsonl")
    i, attempt = start, 0
    while i < stop:
        cmd = [os.path.join(HERE, "capture_opinfo.py"), "--out", pdir, "--device", opts.device,
               "--start", str(i), "--stop", str(stop)] + (["--only", *opts.opinfo_ops] if opts.opinfo_ops else [])
        code, secs = _child(cmd, os.path.join(out, "logs", f"opinfo.{part}.{attempt}.log"),
                            opts.opinfo_op_timeout * (stop - i) + 60)
        attempt += 1
        if code == 0:
            break
        events = _progress(progress)
        done = {e["i"] for e in events if e["event"] == "done"}
        started = [e for e in events if e["event"] == "start" and e["i"] >= i and e["i"] not in done]
        if not started:  # died before its first op (an import error): nothing to skip past
            with open(progress, "a") as f:
                f.write(json.dumps({"i": i, "op": f"<part {part}>", "event": "done", "status": "crashed",
                                    "reason": f"process exit code {code} before the first op"}) + "\n")
            break
        bad = started[0]
        why = "timed out" if code == -999 else f"killed the capture process (exit code {code})"
        with open(progress, "a") as f:
            f.write(json.dumps({"i": bad["i"], "op": bad["op"], "event": "done", "status": "crashed",
                                "reason": why}) + "\n")
        i = bad["i"] + 1
    return [e for e in _progress(progress) if e["event"] == "done"]
