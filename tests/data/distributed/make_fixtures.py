"""Regenerates the 2-rank TORCH_TRACE logs of this folder (CPU, Gloo; a minute on 2 busy cores).

  ~/.cache/fxray/venv/bin/python tests/data/distributed/make_fixtures.py [--out DIR]

Writes DIR/<case>/dedicated_log_torch_trace_rank_<N>_*.log per trace case (default: this folder), with absolute paths in
the logs replaced by relative ones:
  allreduce  a compiled function calling torch.distributed._functional_collectives.all_reduce on the world group
             (forward only, no autograd): matmul -> all_reduce -> relu.
  tp_mlp     a 2-layer MLP tensor-parallel with DTensor (ColwiseParallel up, RowwiseParallel down), compiled with
             aot_eager, one training step: the forward's all_reduce and the backward's collectives.
  ddp_ca     a 2-layer MLP (Linear, GELU, Linear) under DistributedDataParallel with compiled autograd and
             optimize_ddp="python_reducer" (as tools/corpus/capture_distributed.py --recipe ddp_ca, at a smaller
             width and with aot_eager): each rank's own batch, one training step; the compiled-autograd graph's
             compile holds DDP's gradient all-reduces (4 per graph).
  tp_mlp_dumps  the same step captured with tools/capture (seed dumps per rank, tp_mlp_rank<N>/, with real inputs
             and eager outputs).
The backend is aot_eager: the dynamo and AOT graphs are what fxray replays; inductor's code is not needed.
Not written by this script:
  fsdp2_ca   traceable FSDP2 (tools/corpus/capture_distributed.py --recipe fsdp2_ca --mode trace --backend aot_eager),
             CUDA-only in torch 2.11: the logs of a 2-H100 NCCL run (scripts/distributed-device.sh, section 2d), cut
             to their graph records with `python tests/data/rng/slice_trace.py LOG all OUT dynamo_output_graph
             aot_joint_graph aot_forward_graph aot_backward_graph aot_inference_graph compiled_autograd_graph`."""
import argparse
import glob
import hashlib
import os
import re
import shutil
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn

WORLD = 2
HERE = os.path.dirname(os.path.abspath(__file__))


def case_allreduce(rank: int):
    import torch.distributed._functional_collectives as funcol

    def f(x, w):
        y = x @ w
        y = funcol.all_reduce(y, "sum", dist.group.WORLD)
        return torch.relu(y) * 2

    torch.manual_seed(rank)
    f = torch.compile(f, backend="aot_eager", fullgraph=True)
    f(torch.randn(4, 8), torch.randn(8, 16))


def case_tp_mlp(rank: int):
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
    mesh = init_device_mesh("cpu", (WORLD,))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
    model = parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    compiled = torch.compile(model, backend="aot_eager")
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(7))
    compiled(x).square().mean().backward()


def case_ddp_ca(rank: int):
    from torch._dynamo import compiled_autograd
    from torch.nn.parallel import DistributedDataParallel
    # Read by DDP's constructor: python_reducer traces the gradient all-reduces into compiled autograd's graph.
    torch._dynamo.config.compiled_autograd = True
    torch._dynamo.config.optimize_ddp = "python_reducer"
    torch.manual_seed(0)
    model = DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16)))
    compiled = torch.compile(model, backend="aot_eager")
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(7 + rank))
    loss = compiled(x).square().mean()
    with compiled_autograd._enable(torch.compile(backend="aot_eager", fullgraph=True)):
        loss.backward()


def case_tp_mlp_dumps(rank: int, out: str):
    """The tp_mlp step captured with tools/capture's backend: per-rank seed dumps with their real inputs and eager
    outputs (<out>/tp_mlp_rank<N>/...), so a replay can compare every rank's outputs with eager's."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "tools", "capture"))
    import fxray_capture
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
    mesh = init_device_mesh("cpu", (WORLD,))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
    model = parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    compiled = torch.compile(model, backend=fxray_capture.backend(f"tp_mlp_rank{rank}", out))
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(7))
    compiled(x).square().mean().backward()


CASES = {"allreduce": case_allreduce, "tp_mlp": case_tp_mlp, "ddp_ca": case_ddp_ca, "tp_mlp_dumps": case_tp_mlp_dumps}


def rank_main(rank: int, case: str, store: str, out: str):
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=WORLD)
    if case.endswith("_dumps"):
        CASES[case](rank, out)
    else:
        CASES[case](rank)
    dist.destroy_process_group()


DROPPED = ("chromium_event", "dynamo_cpp_guards_str")  # bulky and not read by fxray's replay: left out
# ddp_ca's log is mostly compiled autograd's shape bookkeeping: its guards, metrics and side records go too, and so do
# the create_symbol records of its capture (no frame_id); those of a dynamo compile stay (the size hints fxray reads).
DROPPED_MORE = {"ddp_ca": ("guard_added_fast", "compilation_metrics", "symbolic_shape_specialization", "dump_file",
                           "aot_forward_graph_fw_metadata", "compiled_autograd_graph_pre_reordering",
                           "dynamo_side_effects", "torch._functorch.config")}


def records(text: str):
    """(header line, payload lines) of each record of a TORCH_TRACE log."""
    out = []
    for line in text.split("\n"):
        if line.startswith("\t") and out:
            out[-1][1].append(line)
        elif line:
            out.append((line, []))
    return out


def rehash(text: str) -> str:
    """The log with each record's has_payload MD5 recomputed (torch hashes the payload lines joined by newlines):
    a log edited on purpose (scrubbed paths, a planted mismatch) still loads without an MD5 warning."""
    lines = []
    for header, payload in records(text):
        digest = hashlib.md5("\n".join(p[1:] for p in payload).encode()).hexdigest()
        lines.append(re.sub(r'"has_payload": "[0-9a-f]+"', f'"has_payload": "{digest}"', header))
        lines += payload
    return "\n".join(lines) + "\n"


def dropped(header: str, case: str) -> bool:
    names = DROPPED + DROPPED_MORE.get(case, ())
    if any(f'{{"{name}"' in header or f'"name": "{name}"' in header for name in names):  # a kind or an artifact
        return True
    return case in DROPPED_MORE and '{"create_symbol"' in header and '"frame_id"' not in header


def scrub(path: str, roots: list, case: str = "") -> None:
    """Absolute paths of this checkout and of the venv become relative (the logs are committed); bulky records
    fxray does not read are dropped."""
    text = open(path, encoding="utf-8", errors="replace").read()
    for root, repl in roots:
        text = text.replace(root, repl)
    kept = [(h, p) for h, p in records(text) if not dropped(h, case)]
    text = "\n".join("\n".join([h] + p) for h, p in kept) + "\n"
    open(path, "w", encoding="utf-8").write(rehash(text))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=HERE)
    p.add_argument("--cases", default=",".join(CASES))
    args = p.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    venv = os.path.dirname(os.path.dirname(torch.__file__))
    for case in args.cases.split(","):
        out = os.path.join(args.out, case)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        tmp = tempfile.mkdtemp(prefix="fxray-dist-")
        if case.endswith("_dumps"):
            os.environ.pop("TORCH_TRACE", None)
        else:
            os.environ["TORCH_TRACE"] = out
        torch.multiprocessing.spawn(rank_main, args=(case, os.path.join(tmp, "store"), out), nprocs=WORLD, join=True)
        for log in glob.glob(os.path.join(out, "*.log")):
            scrub(log, [(repo + "/", ""), (venv + "/", "")], case)
        for text in glob.glob(os.path.join(out, "**", "*.py"), recursive=True) + \
                glob.glob(os.path.join(out, "**", "*.json"), recursive=True):
            content = open(text, encoding="utf-8").read()
            open(text, "w", encoding="utf-8").write(content.replace(repo + "/", "").replace(venv + "/", ""))
        print(case, sorted(os.path.basename(x) for x in glob.glob(os.path.join(out, "*.log"))))
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
