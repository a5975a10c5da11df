"""TORCH_TRACE logs of a tiny Linear/ReLU/Linear model under inductor, with and without inductor's planted relu
bug (`cpp.inject_relu_bug_TESTING_ONLY = "accuracy"` on the CPU, `triton.` on CUDA: relu(x) becomes x + 1).

    python tools/runtime/make_output_code_traces.py --out DIR [--device cpu|cuda] [--layers N] [--width W]
writes DIR/correct.log and DIR/planted.log (one inference compile each, frame 0/0), and DIR/layout.log: a Linear
under bf16 autocast whose second input is an expanded mask (stride 0, as BART's and Whisper's attention masks are),
the two things the GPU corpus' correct compiles first failed on in the output_code stage. Each compile runs in a child
process of its own so that TORCH_TRACE and the inductor config apply from import time and nothing is cached
between the two (a fresh inductor cache dir per child). The stage-compare tests and scripts/output-code-cuda.sh use
it; tests/data/output_code holds the CPU pair it generated (scrubbed of this machine's paths).
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r'''
import sys, torch
device, planted, layers, width = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), int(sys.argv[4])
variant = sys.argv[5] if len(sys.argv) > 5 else "mlp"
import torch._inductor.config as cfg
if planted:
    if device == "cpu":
        cfg.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"
    else:
        cfg.triton.inject_relu_bug_TESTING_ONLY = "accuracy"
torch.manual_seed(0)
if variant == "layout":
    lin = torch.nn.Linear(width, width).to(device)
    def f(x, mask):
        with torch.autocast(device, dtype=torch.bfloat16):
            h = lin(x)
        return torch.relu(h).float() * mask + 1.0
    x = torch.randn(4, width, device=device)
    mask = torch.rand(width, device=device).expand(4, width)  # strides (0, 1)
    with torch.no_grad():
        out = torch.compile(f)(x, mask)
        ref = f(x, mask)
    print("max abs vs eager:", (out - ref).abs().max().item())
    sys.exit(0)
mods = []
for _ in range(layers):
    mods += [torch.nn.Linear(width, width), torch.nn.ReLU()]
mods.append(torch.nn.Linear(width, 8))
model = torch.nn.Sequential(*mods).to(device)
x = torch.randn(4, width, device=device)
with torch.no_grad():
    out = torch.compile(model)(x)
    ref = model(x)
print("max abs vs eager:", (out - ref).abs().max().item())
'''

_MD5 = re.compile(r'"has_payload": "[0-9a-f]{32}"')


def scrub(text: str, paths: list[str]) -> str:
    """Replace this machine's paths in every record, drop the chromium_event timing records (most of the log's
    size, nothing fxray reads for a compare), and recompute each payload's md5 so the log stays valid."""
    for p in sorted(paths, key=len, reverse=True):
        text = text.replace(p, "/scrubbed")
    out: list[str] = []
    header: str | None = None
    payload: list[str] = []

    def flush():
        if header is None or '{"chromium_event"' in header:
            return
        h = header
        if payload:
            body = "\n".join(line[1:] for line in payload)
            h = _MD5.sub(f'"has_payload": "{hashlib.md5(body.encode("utf-8")).hexdigest()}"', h)
        out.append(h)
        out.extend(payload)

    for line in text.split("\n"):
        if line.startswith("\t"):
            payload.append(line)
            continue
        flush()
        header, payload = line, []
    flush()
    return "\n".join(out)


def capture(device: str, planted: bool, layers: int, width: int, dest: Path, variant: str = "mlp") -> None:
    with tempfile.TemporaryDirectory(prefix="fxray_oc_") as tmp:
        env = dict(os.environ, TORCH_TRACE=os.path.join(tmp, "trace"), TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "cache"))
        env.pop("TORCH_COMPILE_DEBUG", None)
        # AVX2's 8-lane C++ kernels run on AVX2 and AVX-512 CPUs alike; an AVX-512 machine's 16-lane ones only on
        # AVX-512 (the fixtures must run on whichever machine runs the tests).
        env.setdefault("ATEN_CPU_CAPABILITY", "avx2")
        r = subprocess.run([sys.executable, "-c", CHILD, device, "1" if planted else "0", str(layers), str(width), variant],
                           env=env, capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise SystemExit(f"capture failed ({'planted' if planted else 'correct'}):\n{r.stderr[-4000:]}")
        print(("planted" if planted else "correct") + ": " + r.stdout.strip())
        logs = glob.glob(os.path.join(tmp, "trace", "*.log"))
        if len(logs) != 1:
            raise SystemExit(f"expected one TORCH_TRACE log, got {logs}")
        import torch
        site = str(Path(torch.__file__).parent.parent)
        text = Path(logs[0]).read_text()
        dest.write_text(scrub(text, [tmp, site, str(Path.cwd())]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--width", type=int, default=16)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    capture(a.device, False, a.layers, a.width, out / "correct.log")
    capture(a.device, True, a.layers, a.width, out / "planted.log")
    capture(a.device, False, a.layers, a.width, out / "layout.log", "layout")


if __name__ == "__main__":
    main()
