"""Shared bits of the CLI end-to-end tests: run the built fxray, collect named checks, print the closing line.

Each test script registers checks with @check and calls main(); a check is one behaviour, named after it."""
import os
import re
import subprocess
import sys
import traceback

FXRAY = os.environ.get("FXRAY_BIN", "fxray")
SOURCE = os.environ.get("FXRAY_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLES = os.path.join(SOURCE, "samples")
BAD = os.path.join(SOURCE, "tests", "data", "bad")
HAVE_GRAPHVIZ = os.environ.get("FXRAY_HAVE_GRAPHVIZ", "OFF") == "ON"

_checks = []


def check(fn):
    _checks.append(fn)
    return fn


def run(*args, timeout=300):
    """Runs fxray with args; returns (exit code, stdout, stderr)."""
    p = subprocess.run([FXRAY, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def have_worker():
    """Whether this fxray serves `fxray worker` (builds with LibTorch list it among their commands)."""
    _, out, _ = run("--help")
    return "\n  worker " in out


def torch_has_cuda():
    """Whether this Python's torch sees a CUDA device (the GPU tests make graphs and repros with it)."""
    code = subprocess.run([sys.executable, "-c", "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"],
                          capture_output=True).returncode
    return code == 0


def aten_ops(dump):
    """The aten op names in a dump folder's module.py forward, in program order."""
    module = open(os.path.join(dump, "module.py")).read()
    return re.findall(r"torch\.ops\.aten\.(\w+)\.", module[module.index("def forward"):])


def main():
    passed = failed = 0
    for fn in _checks:
        try:
            fn()
            passed += 1
            print(f"PASS {fn.__name__}")
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            failed += 1
            print(f"FAIL {fn.__name__}")
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
