"""Shared bits of the CLI end-to-end tests: run the built fxray, collect named checks, print the closing line.

Each test script registers checks with @check and calls main(); a check is one behaviour, named after it."""
import json
import os
import re
import subprocess
import sys
import traceback

# Absolute: checks run children in other working directories (a relative FXRAY_SOURCE_DIR=. broke test_sweep).
FXRAY = os.environ.get("FXRAY_BIN", "fxray")
FXRAY = os.path.abspath(FXRAY) if os.sep in FXRAY else FXRAY
SOURCE = os.path.abspath(os.environ.get("FXRAY_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))
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


def fxray_json(*args, codes=(0, 1)):
    """`fxray ARGS --json`, its exit code one of `codes`: the parsed report."""
    p = subprocess.run([FXRAY, *args, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in codes, (args, p.returncode, p.stderr[-2000:])
    return json.loads(p.stdout)


def replay_reports(address, *extra):
    """`fxray replay ADDRESS --json`: its reports as a list (one for a graph, every graph's for a folder or log)."""
    out = fxray_json("replay", address, *extra)
    return out["reports"] if "reports" in out else [out]


def aten_ops(dump):
    """The aten op names in a dump folder's module.py forward, in program order."""
    module = open(os.path.join(dump, "module.py")).read()
    return re.findall(r"torch\.ops\.aten\.(\w+)\.", module[module.index("def forward"):])


def equals_recorded_eager(c):
    """An output comparison against eager outputs recorded with a dump: compared, within tolerance, and as close as
    two CPUs' eager runs get. Not bit-equal: the recording machine's BLAS picks its own GEMM kernels (an AVX-512
    machine rounds the same f32 linear 1.2e-7 away from the AVX2 one these fixtures were recorded on), so 1e-6, a few
    f32 ulps at the magnitudes of these small models' outputs."""
    return c["compared"] and c["ok"] and c["max_abs"] <= 1e-6


def cpu_stages_agreeing(address):
    """`fxray compare ADDRESS` on the CPU without the generated code: asserts the compile agrees, every stage after
    the reference compared at least one output and agreed; returns those stages."""
    p = subprocess.run([FXRAY, "compare", address, "--json", "--device", "cpu", "--no-output-code"],
                       capture_output=True, text=True, timeout=300)
    r = json.loads(p.stdout)
    assert p.returncode == 0 and r["verdict"] == "agree", (address, r.get("reason"), p.stderr[-2000:])
    later = r["stages"][1:]
    assert later and all(s["verdict"] == "agree" and s["compared"] >= 1 for s in later), (address, later)
    return later


def edit_trace_payload(src, dst, record, old, new):
    """Copies a TORCH_TRACE log, replacing `old` by `new` in the payload of its first `record`, with the MD5 that
    the header announces recomputed (the reader checks it)."""
    import hashlib
    with open(src) as f:
        lines = f.read().split("\n")
    head = next(i for i, l in enumerate(lines) if '"%s"' % record in l and "has_payload" in l)  # kind or artifact name
    end = head + 1
    while end < len(lines) and lines[end].startswith("\t"):
        end += 1
    body = "\n".join(l[1:] for l in lines[head + 1:end])
    assert old in body, old
    body = body.replace(old, new).split("\n")  # `new` may span lines
    digest = hashlib.md5("\n".join(body).encode()).hexdigest()
    lines[head] = re.sub(r'"has_payload": "[0-9a-f]+"', '"has_payload": "%s"' % digest, lines[head])
    lines[head + 1:end] = ["\t" + l for l in body]
    with open(dst, "w") as f:
        f.write("\n".join(lines))
    return dst


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
