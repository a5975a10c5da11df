#!/usr/bin/env python3
"""Write fxray's compiled-autograd TORCH_TRACE samples (only these files; the other samples are left alone).

    ~/.cache/fxray/venv/bin/python tools/capture/compiled_autograd_samples.py [--out samples/cpu] [--device cpu|cuda]

Each sample is one training step of a tiny MLP whose backward runs under compiled autograd
(`torch._dynamo.compiled_autograd._enable(torch.compile(backend="eager"))`), traced in a subprocess with
TORCH_TRACE set from import time:
    trace/compiled_autograd.log           forward compiled (aot_eager) too: the backward graph is inlined through
                                          call_aot_bwd_prologue; no hooks (its aten part replays)
    trace/compiled_autograd_hook.log      the same step with a tensor hook on fc1.weight: the graph gains call_hook
    trace/compiled_autograd_eager.log     forward in eager mode, GELU, loss scaled by a 0-dim CPU tensor: the graph
                                          holds the autograd nodes' aten ops and a CPU scalar input
The compiled-autograd graph itself carries no metadata (compiled autograd deletes it before printing); the
dynamo_output_graph that the CA graph's compile logs with the same compiled_autograd_id annotates the same node
names, which is where fxray takes input and node metadata from. Compiling the CA graph with backend "eager" keeps
the logs small (no AOT graphs of the CA graph; the forward's own AOT graphs are there).

With --device cuda (on a GPU machine) the model and activations live on the GPU while the loss scale stays a
CPU 0-dim tensor: the case where a CUDA replay moves CPU scalars to the device, as compiled autograd does.
Paths are scrubbed and payload md5s recomputed with make_samples' scrubber. Records no fxray feature reads and
that dominate these logs' size (symbol creation, guards, chromium events, compilation metrics: dynamic=True makes
hundreds of them) are dropped whole, so what is left is still a well-formed log.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

# name -> (forward compiled?, hook on fc1.weight?, activation)
VARIANTS = {
    "compiled_autograd": (True, False, "relu"),
    "compiled_autograd_hook": (True, True, "relu"),
    "compiled_autograd_eager": (False, False, "gelu"),
}


# record kinds dropped from the samples (see the docstring)
NOISE = {
    "compilation_metrics", "bwd_compilation_metrics", "guard_added_fast", "guard_added", "chromium_event",
    "create_symbol", "create_unbacked_symbol", "symbolic_shape_specialization", "dynamo_cpp_guards_str", "str",
    "propagate_real_tensors_provenance", "missing_fake_kernel", "expression_created",
}
_KIND = re.compile(r'^[VIWEC]\d{4} [^\]]*\] \{"([A-Za-z0-9_]+)"')


def drop_noise(text: str) -> str:
    out: list[str] = []
    keep = True
    for line in text.split("\n"):
        if not line.startswith("\t"):
            m = _KIND.match(line)
            keep = not (m and m.group(1) in NOISE)
        if keep:
            out.append(line)
    return "\n".join(out)


def _child(name: str, device: str) -> None:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    compiled_forward, hook, act = VARIANTS[name]

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 16)
            self.fc2 = nn.Linear(16, 4)

        def forward(self, x):
            h = self.fc1(x)
            return self.fc2(F.relu(h) if act == "relu" else F.gelu(h))

    torch.manual_seed(0)
    model = MLP().to(device)
    if hook:
        model.fc1.weight.register_hook(lambda g: g * 0.5)
    x = torch.randn(4, 8, device=device)
    scale = torch.tensor(2.5)  # a CPU 0-dim tensor even on a GPU: MulBackward0 saves it, CA lifts it as an input

    def step():
        loss = (model(x) * scale).sum()
        loss.backward()

    ca = torch._dynamo.compiled_autograd
    with ca._enable(torch.compile(backend="eager")):
        if compiled_forward:
            torch.compile(step, backend="aot_eager")()
        else:
            step()


def make(out: Path, device: str = "cpu") -> list[Path]:
    """Runs every variant in its own traced subprocess; returns the logs written under out/trace."""
    import make_samples

    written = []
    dest = out / "trace"
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fxray_ca_samples_") as tmp:
        make_samples._TEMP_RENAMES.append((tmp, "/tmp/fxray_ca_samples"))
        for name in VARIANTS:
            trace_dir = Path(tmp) / name
            trace_dir.mkdir()
            env = make_samples._child_env(
                {"TORCH_TRACE": str(trace_dir), "TORCHINDUCTOR_CACHE_DIR": str(Path(tmp) / "cache")}
            )
            subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", name, "--device", device],
                env=env, cwd=str(REPO), check=True, timeout=600,
            )
            logs = sorted(trace_dir.glob("dedicated_log_torch_trace_*.log"))
            if len(logs) != 1:
                raise RuntimeError(f"expected one TORCH_TRACE log for {name}, got {logs}")
            text = make_samples.scrub_trace(drop_noise(logs[0].read_text()))
            if "compiled_autograd_graph" not in text:
                raise RuntimeError(f"{name}: the trace holds no compiled_autograd_graph record")
            path = dest / f"{name}.log"
            path.write_text(text)
            written.append(path)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "samples" / "cpu")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda on a GPU machine")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.device)
        return 0
    for p in make(args.out.resolve(), args.device):
        print(f"  {p.stat().st_size:>9}  {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
