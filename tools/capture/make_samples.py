#!/usr/bin/env python3
"""Regenerate fxray's committed CPU samples into samples/cpu/ (deletes and rewrites that directory).

    ~/.cache/fxray/venv/bin/python tools/capture/make_samples.py [--out DIR] [--no-trace] [--no-compile-debug]

Writes, on CPU with fixed seeds and tiny shapes:
    dumps/<model>/<model>_<forward|backward|joint>_<i>/   seed layout via fxray_capture (real inputs in .pt)
        mlp                dynamic shapes (SymInt placeholders, f32[s.., 32] annotations), two batch sizes
        embed_ce           embedding + cross-entropy, int64 index inputs
        cnn_channels_last  conv2d + batch_norm + relu + max_pool, channels_last
    trace/mlp_inductor.log                  TORCH_TRACE log of the MLP under inductor (subprocess)
    trace/compiled_autograd*.log            compiled-autograd training steps (compiled_autograd_samples.py)
    compile_debug/run_<date>-pid_<pid>/...  TORCH_COMPILE_DEBUG=1 directory of the MLP under inductor (subprocess)
    torchscript/  ltc/                      TorchScript and lazy-tensor IR fixtures (ir_samples.py)
    MANIFEST.json                           every file written, node/placeholder counts per graph

Absolute paths of this machine (repository root, site-packages) are stripped from comments, stack traces
and trace records (trace payload md5s are recomputed); module.py keeps functorch's absolute torch.load path
(fxray resolves state_dict.pt next to module.py). Bytes are not fully reproducible (torch.save writes a random
serialization id; the compile-debug run directory carries date and pid); values, graphs and layout are.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_OUT = REPO / "samples" / "cpu"
KINDS = ("forward", "backward", "joint")
TRACE_NAME = "mlp_inductor.log"
SIZE_BUDGET = 3 * 1024 * 1024

sys.path.insert(0, str(HERE))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


# ----------------------------------------------------------------------------------------------------
# the sample models (tiny: everything runs in seconds on 2 cores)
# ----------------------------------------------------------------------------------------------------
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class EmbedCE(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx, targets):
        logits = self.head(self.emb(idx))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(torch.flatten(y, 1))


def run_mlp(compile_fn):
    """Dynamic shapes, two batch sizes (a recompile, if any, shows up as forward_1/backward_1/joint_1)."""
    torch.manual_seed(0)
    model = MLP()
    compiled = compile_fn(model, dynamic=True)
    for batch in (8, 5):
        x, target = torch.randn(batch, 32), torch.randn(batch, 10)
        (compiled(x) * target).sum().backward()


def run_embed_ce(compile_fn):
    torch.manual_seed(0)
    model = EmbedCE()
    compiled = compile_fn(model, dynamic=False)
    idx = torch.randint(0, 100, (4, 8), dtype=torch.int64)
    targets = torch.randint(0, 100, (4, 8), dtype=torch.int64)
    compiled(idx, targets).backward()


def run_cnn_channels_last(compile_fn):
    torch.manual_seed(0)
    model = ConvNet().to(memory_format=torch.channels_last)
    compiled = compile_fn(model, dynamic=False)
    x = torch.randn(2, 3, 8, 8).to(memory_format=torch.channels_last)
    target = torch.randn(2, 10)
    (compiled(x) * target).sum().backward()


# name -> runner; the names are the dump folder names
SAMPLES = {
    "mlp": run_mlp,
    "embed_ce": run_embed_ce,
    "cnn_channels_last": run_cnn_channels_last,
}


def graph_files(stem: str) -> list[str]:
    """Files of one seed-layout graph directory."""
    return ["module.py", "__init__.py", "state_dict.pt", f"{stem}.input", f"{stem}.pt", f"{stem}.readable.py"]


# ----------------------------------------------------------------------------------------------------
# path scrubbing
# ----------------------------------------------------------------------------------------------------
def _scrub_prefixes() -> list[str]:
    site = str(Path(torch.__file__).resolve().parents[1]) + "/"
    return [site, str(REPO) + "/"]


# (path, replacement) pairs for this run's random temporary directories
_TEMP_RENAMES: list[tuple[str, str]] = []


def scrub(text: str) -> str:
    for p in _scrub_prefixes():
        text = text.replace(p, "")
    for p, r in _TEMP_RENAMES:
        text = text.replace(p, r)
    return text


_MD5 = re.compile(r'"has_payload": "([0-9a-f]{32})"')


def scrub_trace(text: str) -> str:
    """Scrub a TORCH_TRACE log record by record, recomputing each payload's md5."""
    out: list[str] = []
    header: str | None = None
    payload: list[str] = []

    def flush():
        if header is None:
            return
        h = scrub(header)
        if payload:
            body = scrub("\n".join(line[1:] for line in payload))
            h = _MD5.sub(f'"has_payload": "{hashlib.md5(body.encode("utf-8")).hexdigest()}"', h)
            out.append(h)
            out.extend("\t" + line for line in body.split("\n"))
        else:
            out.append(h)

    for line in text.split("\n"):
        if line.startswith("\t"):
            payload.append(line)
            continue
        flush()
        header, payload = line, []
    flush()
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------------
# children (run in subprocesses so TORCH_TRACE / TORCH_COMPILE_DEBUG apply from import time)
# ----------------------------------------------------------------------------------------------------
def _child(mode: str, out_dir: str) -> None:
    if mode == "compile_debug":
        torch._dynamo.config.debug_dir_root = out_dir

    def compile_fn(model, dynamic):
        return torch.compile(model, backend="inductor", dynamic=dynamic)

    run_mlp(compile_fn)


def _child_env(extra: dict) -> dict:
    env = dict(os.environ)
    # 8-lane (AVX2) C++ kernels in the inductor samples: they run on AVX2 and AVX-512 CPUs alike.
    env.setdefault("ATEN_CPU_CAPABILITY", "avx2")
    for k in ("TORCH_TRACE", "TORCH_COMPILE_DEBUG", "TORCH_LOGS"):
        env.pop(k, None)
    env.update(
        TORCHINDUCTOR_FORCE_DISABLE_CACHES="1",  # a cache hit would skip the very artifacts we want
        TORCHINDUCTOR_COMPILE_THREADS="1",  # no worker pool on a small machine
        **extra,
    )
    return env


def _start_child(mode: str, out_dir: Path, cache: Path, env_extra: dict) -> subprocess.Popen:
    env = _child_env({"TORCHINDUCTOR_CACHE_DIR": str(cache), **env_extra})
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child", mode, str(out_dir)], env=env, cwd=str(REPO)
    )


def make_inductor_samples(out: Path, trace: bool, compile_debug: bool) -> tuple[list[Path], list[Path]]:
    """TORCH_TRACE log and TORCH_COMPILE_DEBUG directory, both from the MLP under inductor on CPU.

    Two children run side by side (each compiles with one thread; g++ dominates).
    """
    trace_files: list[Path] = []
    debug_files: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="fxray_make_samples_") as tmp:
        _TEMP_RENAMES.append((tmp, "/tmp/fxray_make_samples"))  # stable across regenerations
        tmp = Path(tmp)
        children = {}
        if trace:
            (tmp / "trace").mkdir()
            children["trace"] = _start_child("trace", tmp / "trace", tmp / "cache_trace", {"TORCH_TRACE": str(tmp / "trace")})
        if compile_debug:
            (tmp / "debug").mkdir()
            children["compile_debug"] = _start_child(
                "compile_debug", tmp / "debug", tmp / "cache_debug", {"TORCH_COMPILE_DEBUG": "1"}
            )
        for mode, proc in children.items():
            try:
                rc = proc.wait(timeout=600)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise
            if rc != 0:
                raise RuntimeError(f"make_samples child '{mode}' failed with exit code {rc}")

        if trace:
            logs = sorted((tmp / "trace").glob("dedicated_log_torch_trace_*.log"))
            if len(logs) != 1:
                raise RuntimeError(f"expected one TORCH_TRACE log, got {logs}")
            dest = out / "trace"
            dest.mkdir(parents=True)
            (dest / TRACE_NAME).write_text(scrub_trace(logs[0].read_text()))
            trace_files.append(dest / TRACE_NAME)

        if compile_debug:
            runs = [r for r in sorted((tmp / "debug").rglob("run_*-pid_*")) if r.is_dir()]
            if len(runs) != 1:
                raise RuntimeError(f"expected one compile-debug run directory, got {runs}")
            dest = out / "compile_debug"
            shutil.copytree(runs[0], dest / runs[0].name)
            for f in sorted(dest.rglob("*")):
                if f.is_file():
                    try:
                        f.write_text(scrub(f.read_text()))
                    except UnicodeDecodeError:
                        pass
                    debug_files.append(f)
    return trace_files, debug_files


# ----------------------------------------------------------------------------------------------------
# dumps
# ----------------------------------------------------------------------------------------------------
def make_dumps(out: Path) -> dict:
    import fxray_capture

    dumps = out / "dumps"
    manifest: dict = {}
    for name, runner in SAMPLES.items():
        torch._dynamo.reset()
        cap = fxray_capture.backend(name, str(dumps), strict=True)

        def compile_fn(model, dynamic, cap=cap):
            return torch.compile(model, backend=cap, dynamic=dynamic)

        runner(compile_fn)
        graphs = {}
        for d in cap.written:
            d = Path(d)
            stem = d.name
            readable = d / f"{stem}.readable.py"
            readable.write_text(scrub(readable.read_text()))
            graphs[stem] = {**cap.graph_info[str(d)], "files": graph_files(stem)}
        manifest[name] = graphs
    torch._dynamo.reset()
    return manifest


def check_real_inputs(out: Path) -> list[str]:
    """.pt values must agree with the .input metadata (sizes, strides, dtype; ints equal hints)."""
    import pickle

    problems = []
    for inp in sorted((out / "dumps").rglob("*.input")):
        meta = pickle.loads(inp.read_bytes())
        pt = inp.with_suffix(".pt")
        if not pt.exists():
            problems.append(f"{pt.relative_to(out)}: missing")
            continue
        vals = torch.load(pt, weights_only=True)
        if len(vals) != len(meta):
            problems.append(f"{pt.relative_to(out)}: {len(vals)} values for {len(meta)} placeholders")
            continue
        for i, (m, v) in enumerate(zip(meta, vals)):
            if len(m) == 5:
                got = (tuple(v.shape), tuple(v.stride()), v.dtype)
                want = (tuple(m[1]), tuple(m[2]), m[3])
                # strides only matter where size > 1 (FORMATS.md §2 "significant strides")
                sig = all(a == b or s <= 1 for s, a, b in zip(want[0], got[1], want[1]))
                if got[0] != want[0] or got[2] != want[2] or not sig:
                    problems.append(f"{pt.relative_to(out)}[{i}]: {got} != {want}")
            elif m[0] is int and v != m[1]:
                problems.append(f"{pt.relative_to(out)}[{i}]: int {v} != hint {m[1]}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--no-trace", action="store_true", help="skip the TORCH_TRACE log (inductor compile)")
    ap.add_argument("--no-compile-debug", action="store_true", help="skip the TORCH_COMPILE_DEBUG directory")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(*args.child)
        return 0

    out: Path = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    manifest = {"torch": torch.__version__.split("+")[0], "dumps": make_dumps(out)}
    trace_files, debug_files = make_inductor_samples(out, not args.no_trace, not args.no_compile_debug)
    if not args.no_trace:  # compiled-autograd logs (compiled_autograd_samples.py writes only its own files)
        import compiled_autograd_samples

        trace_files += compiled_autograd_samples.make(out)
    if trace_files:
        manifest["trace"] = [str(p.relative_to(out)) for p in trace_files]
    if debug_files:
        manifest["compile_debug"] = [str(p.relative_to(out)) for p in debug_files]
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    import ir_samples  # noqa: E402  TorchScript and lazy-tensor IR fixtures (torchscript/, ltc/), their MANIFEST keys

    ir_samples.main(["--out", str(out)])

    problems = check_real_inputs(out)
    total = 0
    print(f"wrote {out}:")
    for f in sorted(out.rglob("*")):
        if f.is_file():
            total += f.stat().st_size
            print(f"  {f.stat().st_size:>9}  {f.relative_to(out)}")
    for model, graphs in manifest["dumps"].items():
        for stem, info in graphs.items():
            print(f"  {stem:<34} {info['nodes']:>4} nodes, {info['placeholders']:>3} placeholders")
    print(f"total {total} bytes ({total / 1024 / 1024:.2f} MiB)")
    for p in problems:
        print("WARNING: real input mismatch:", p)
    if total > SIZE_BUDGET:
        print(f"WARNING: samples exceed the {SIZE_BUDGET} byte budget")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
