"""Runs the fxray CLI over corpus folders and returns its JSON, never raising: an fxray process that crashes,
hangs or prints no JSON is itself a finding (returned as {"crash": reason}), and a batch whose process died is
retried one graph folder at a time so that one bad graph costs one graph."""
import json
import os
import subprocess

DEFAULT_FXRAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "app", "cli", "fxray")


def _run(fxray: str, args: list, timeout: float) -> tuple[int, str, str]:
    try:
        p = subprocess.run([fxray, *args], capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return -999, "", f"timed out after {timeout:.0f} s: {(e.stderr or b'')[-300:]!r}"


def _crash(cmd: list, code: int, err: str) -> dict:
    what = "timeout" if code == -999 else f"exit {code}" + (f" (signal {-code})" if code < 0 else "")
    tail = " | ".join(err.strip().splitlines()[-2:])[:300]
    return {"crash": f"fxray {' '.join(cmd[:1])} {what}: {tail}", "command": cmd}


def info(fxray: str, path: str, timeout: float = 600) -> dict:
    """`fxray info <path> --json`: {"graphs": [...], "errors": [...]} or {"crash": ...}."""
    args = ["info", path, "--json"]
    code, out, err = _run(fxray, args, timeout)
    try:
        return json.loads(out)
    except ValueError:
        return _crash(args, code, err)


def _reports(out: str) -> list:
    d = json.loads(out)
    return d["reports"] if "reports" in d else [d]


def replay(fxray: str, path: str, extra: list, device: str, graph_timeout: float, timeout: float) -> list:
    """`fxray replay <path> --json ...`: the reports, plus {"crash": ...} entries for processes that died."""
    args = ["replay", path, "--json", "--device", device, "--timeout", str(graph_timeout), *extra]
    code, out, err = _run(fxray, args, timeout)
    if code in (0, 1):
        try:
            return _reports(out)
        except (ValueError, KeyError):
            pass
    crash = _crash(args, code, err)
    crash["path"] = path
    subdirs = _graph_folders(path)
    if len(subdirs) <= 1:
        return [crash]
    # Localise: one process per graph folder, so the batch's other graphs still get their reports.
    reports = [{**crash, "batch": True}]
    for d in subdirs:
        reports += replay(fxray, d, extra, device, graph_timeout, timeout)
    return reports


def _graph_folders(path: str) -> list:
    """Seed-layout graph folders (holding module.py) under path."""
    if os.path.isfile(os.path.join(path, "module.py")) or os.path.isfile(path):
        return [path]
    found = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        if "module.py" in files:
            found.append(root)
            dirs[:] = []
    return found
