"""Captures a 2-rank distributed training step (CPU with Gloo, or one GPU per rank with NCCL) in this process tree.

  capture_distributed.py --recipe tp    --out <dir> [--mode capture|trace] [--device cpu|cuda]
  capture_distributed.py --recipe fsdp2 --out <dir> ...
  capture_distributed.py --recipe ddp_ca --out <dir> ...
  capture_distributed.py --recipe fsdp2_ca --out <dir> --mode trace --device cuda

  tp     a pre-norm transformer block (attention + MLP, width 64, 4 heads) tensor-parallel over 2 ranks with
         DTensor: parallelize_module, ColwiseParallel on q/k/v and the MLP's up projection, RowwiseParallel on the
         attention output and the MLP's down projection; compiled, one training step (forward, loss, backward)
  fsdp2  a 2-block MLP stack sharded with FSDP2 (fully_shard per block and at the root); compiled, one training
         step, then an eager SGD step and a second training step (parameters resharded and gathered again).
         Dynamo skips FSDP2's hooks (skip_fsdp_hooks, the default): the all-gathers and reduce-scatters run eagerly
         around one graph of both blocks' compute, which holds no collective; the second training step recompiles
         it. Traced hooks (skip_fsdp_hooks=False) on the CPU in torch 2.11 (tried): the forward graphs still hold
         no collective, and compiled autograd (fullgraph, as FSDP2's queue_callback demands) stops at
         "NotImplementedError: UserDefinedObjectVariable(Stream)"; so FSDP2's custom ops (fsdp.all_gather_copy_in,
         chunk_cat) are not in this corpus yet.
  ddp_ca a 2-layer MLP under DistributedDataParallel with compiled autograd (torch._dynamo.config.compiled_autograd
         = True, torch 2.11's switch) and optimize_ddp="python_reducer": DDP's C++ reducer steps aside and its Python
         reducer's gradient all-reduces are traced into the compiled-autograd graph as _c10d_functional calls. (In
         the other modes DDP's C++ reducer all-reduces from its own autograd hooks and no graph holds a
         collective.) Each rank trains on its own batch; one training step.
  fsdp2_ca traceable FSDP2 (torch's own recipe, test_fully_shard_compile._test_traceable_fsdp): a 2-layer MLP under
         fully_shard (reshard_after_forward), torch._dynamo.config compiled_autograd=True with fullgraph,
         skip_fsdp_hooks=False, inline_inbuilt_nn_modules, functorch recompute_views; one eager warm-up step (FSDP2's
         lazy init) then one compiled step: the forward graph holds fsdp.all_gather_copy_in /
         all_gather_into_tensor / fsdp.split_with_sizes_copy, the compiled-autograd backward also chunk_cat /
         reduce_scatter_tensor. CUDA only in torch 2.11: on the CPU dynamo cannot trace FSDP2's streams
         (torch.cpu.Stream is a plain Python class, not a torch.Stream: "Failed to convert args/kwargs to proxy ...
         UserDefinedObjectVariable(Stream)" at `with device_handle.stream(all_gather_copy_in_stream)`,
         _fsdp_collectives.py:248; torch.Stream(device="cpu") in its place fails eagerly, "cpu backend doesn't
         support events"). The CPU run records that error as the step's finding.

Each rank runs the same step: --mode capture with fxray_capture (dumps under <out>/dumps/<entry>_rank<N>/, real
inputs, eager outputs, RNG state), --mode trace with inductor (or --backend); the parent sets TORCH_TRACE and torch
names each rank's log dedicated_log_torch_trace_rank_<N>_*.log. Writes <out>/<mode>.json: per-rank steps (keys
"rank<N>:<step>"), the graphs written, capture errors, graph breaks, and the collective ops the graphs hold
(c10d_functional / fsdp custom ops, counted in the dumps' module.py and the trace logs)."""
import argparse
import collections
import glob
import json
import os
import re
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "capture")]

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

WORLD = 2
ENTRIES = {"tp": "dtensor_tp", "fsdp2": "fsdp2", "ddp_ca": "ddp_compiled_autograd", "fsdp2_ca": "fsdp2_traceable"}
COMPILED_AUTOGRAD = ("ddp_ca", "fsdp2_ca")  # recorded with --mode trace only (see main)
# an op call as graph code prints it: torch.ops._c10d_functional.all_reduce.default(...), torch.ops.fsdp.chunk_cat...
COLLECTIVE = re.compile(r"torch\.ops\.((?:_c10d_functional|c10d_functional|_dtensor|fsdp|c10d)\.\w+)")


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.head_dim = dim // heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))

    def forward(self, x):
        b, s, _ = x.shape
        # Under tensor parallelism q/k/v hold this rank's heads: the head count comes from the local width.
        q, k, v = (t.view(b, s, -1, self.head_dim).transpose(1, 2) for t in (self.q(x), self.k(x), self.v(x)))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(b, s, -1))


class Mlp(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.up, self.down = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class Block(nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn, self.mlp = Attention(dim, heads), Mlp(dim)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


def _tp_model(mesh):
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
    plan = {"attn.q": ColwiseParallel(), "attn.k": ColwiseParallel(), "attn.v": ColwiseParallel(),
            "attn.o": RowwiseParallel(), "mlp.up": ColwiseParallel(), "mlp.down": RowwiseParallel()}
    return parallelize_module(Block(), mesh, plan)


def _fsdp2_model(mesh):
    from torch.distributed.fsdp import fully_shard
    model = nn.Sequential(Block(), Block())
    for block in model:
        fully_shard(block, mesh=mesh)
    return fully_shard(model, mesh=mesh)


def _fsdp2_ca_model(mesh):
    from torch.distributed.fsdp import fully_shard
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64))
    return fully_shard(model, mesh=mesh, reshard_after_forward=True)


def _traceable_fsdp2_config() -> None:
    """torch's traceable-FSDP2 switches (test_fully_shard_compile._test_traceable_fsdp), for the whole process."""
    torch._dynamo.config.compiled_autograd = True
    torch._dynamo.config.compiled_autograd_kwargs_override = {"fullgraph": True}
    torch._dynamo.config.inline_inbuilt_nn_modules = True
    torch._dynamo.config.skip_fsdp_hooks = False
    torch._functorch.config.enable_autograd_cache = False
    torch._functorch.config.recompute_views = True
    torch._inductor.config.force_disable_caches = True


def _ddp_model(mesh):
    from torch.nn.parallel import DistributedDataParallel
    model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 64))
    return DistributedDataParallel(model)


def _steps(recipe: str, model, compiled, device: str, backend) -> list:
    # The same batch on every rank (TP) / this rank's own (DDP: the gradients differ until all-reduced).
    g = torch.Generator().manual_seed(7 + (torch.distributed.get_rank() if recipe in ("ddp_ca", "fsdp2_ca") else 0))
    x = torch.randn(2, 16, 64, generator=g).to(device)

    def train():
        model.train()
        loss = compiled(x).square().mean()
        if recipe == "ddp_ca":
            # Compiled autograd over the backward (what torch._dynamo.config.compiled_autograd = True does for a
            # backward called inside a compiled function), compiled with the forward's backend.
            from torch._dynamo import compiled_autograd
            with compiled_autograd._enable(torch.compile(backend=backend, fullgraph=True)):
                loss.backward()
        else:
            loss.backward()
        return float(loss.detach())

    if recipe in ("tp", "ddp_ca"):
        return [("train", train)]
    if recipe == "fsdp2_ca":
        opt = torch.optim.SGD(model.parameters(), lr=1e-2)

        def fwd_bwd(inp):
            loss = model(inp).square().mean()
            loss.backward()  # dynamo breaks the graph here; config.compiled_autograd compiles the backward
            return loss
        # The forward and loss.backward() in one compiled function, as torch's test does; the first step eagerly
        # (FSDP2's lazy init).
        fwd_bwd_compiled = torch.compile(fwd_bwd, backend=backend)

        def step(stance: str):
            def run():
                torch.compiler.set_stance(stance)
                try:
                    loss = fwd_bwd_compiled(x)
                finally:
                    torch.compiler.set_stance("default")
                opt.step()
                opt.zero_grad(set_to_none=True)
                return float(loss.detach())
            return run
        return [("warmup_eager", step("force_eager")), ("train", step("default"))]
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    return [("train", train), ("sgd_step", opt.step), ("train2", train)]


def rank_main(rank: int, args) -> None:
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    cuda = args.device.startswith("cuda")
    if cuda:
        torch.cuda.set_device(rank)
    dist.init_process_group("nccl" if cuda else "gloo", init_method=f"file://{args.store}", rank=rank,
                            world_size=WORLD)
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 256)
    report = {"rank": rank, "steps": {}}
    entry = ENTRIES[args.recipe]
    backend = args.backend
    try:
        device = f"cuda:{rank}" if cuda else "cpu"
        mesh = init_device_mesh("cuda" if cuda else "cpu", (WORLD,))
        torch.manual_seed(0)  # every rank builds the same full model before it is sharded
        with torch.device(device):
            if args.recipe == "ddp_ca":  # read by DDP's constructor: set before the model is wrapped
                torch._dynamo.config.compiled_autograd = True
                torch._dynamo.config.optimize_ddp = "python_reducer"
                # Inductor's FX graph cache is shared by the ranks' processes: the rank that compiles second hits
                # the first one's entry and logs fewer records (no before/after post-grad graphs), and the ranks'
                # logs then differ for no fault of the run. Each rank compiles (and logs) for itself.
                torch._inductor.config.fx_graph_cache = False
            if args.recipe == "fsdp2_ca":
                _traceable_fsdp2_config()
            model = {"tp": _tp_model, "fsdp2": _fsdp2_model, "ddp_ca": _ddp_model,
                     "fsdp2_ca": _fsdp2_ca_model}[args.recipe](mesh)
        if args.mode == "capture":
            import fxray_capture
            backend = fxray_capture.backend(f"{entry}_rank{rank}", os.path.join(args.out, "dumps"))
        compiled = torch.compile(model, backend=backend)
        steps = _steps(args.recipe, model, compiled, device, backend)
    except Exception as e:  # noqa: BLE001
        report["steps"]["setup"] = {"ok": False, "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
        steps = []
    for step, fn in steps:
        t = time.time()
        try:
            value = fn()
            report["steps"][step] = {"ok": True, "seconds": round(time.time() - t, 2),
                                     "loss": value if isinstance(value, float) else None}
        except Exception as e:  # noqa: BLE001 - a failed step is a finding; the next one still runs
            report["steps"][step] = {"ok": False, "seconds": round(time.time() - t, 2),
                                     "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                                     "traceback": traceback.format_exc()}
    from torch._dynamo.utils import counters
    report["unique_graphs"] = int(counters["stats"]["unique_graphs"])
    report["graph_breaks"] = {str(k).splitlines()[0]: int(v) for k, v in counters["graph_break"].items()}
    if args.mode == "capture" and not isinstance(backend, str):
        report["written"] = [os.path.relpath(d, args.out) for d in backend.written]
        report["capture_errors"] = backend.errors
    with open(os.path.join(args.out, f"{args.mode}.rank{rank}.json"), "w") as f:
        json.dump(report, f, indent=1)
    dist.destroy_process_group()


def collectives(out: str, trace_dir: str | None) -> dict:
    """{op: count} of the collective / distributed ops named in the dumps' graphs and in the trace logs."""
    counts = {"dumps": collections.Counter(), "trace": collections.Counter()}
    for path in glob.glob(os.path.join(out, "dumps", "**", "module.py"), recursive=True):
        counts["dumps"].update(COLLECTIVE.findall(open(path).read()))
    if trace_dir:
        for path in glob.glob(os.path.join(trace_dir, "*.log")):
            counts["trace"].update(COLLECTIVE.findall(open(path, errors="replace").read()))
    return {k: dict(sorted(v.items())) for k, v in counts.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--recipe", choices=sorted(ENTRIES), required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--mode", choices=("capture", "trace"), default="capture")
    p.add_argument("--device", default="cpu", help="cpu (Gloo) | cuda (NCCL, one GPU per rank)")
    p.add_argument("--backend", default="inductor",
                   help="--mode trace: the torch.compile backend (inductor; aot_eager logs the dynamo and AOT graphs "
                        "only, in a fraction of the time)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.recipe in COMPILED_AUTOGRAD and args.mode == "capture":
        report = {"entry": ENTRIES[args.recipe], "recipe": args.recipe, "mode": args.mode, "steps": {},
                  "skipped": "compiled autograd hands the backend list inputs, which fxray's capture backend does not "
                             "flatten: this recipe is recorded with --mode trace"}
    elif args.device.startswith("cuda") and torch.cuda.device_count() < WORLD:
        report = {"entry": ENTRIES[args.recipe], "recipe": args.recipe, "mode": args.mode, "steps": {},
                  "skipped": f"{WORLD} ranks need {WORLD} GPUs; this machine has {torch.cuda.device_count()}"}
    else:
        args.store = os.path.join(tempfile.mkdtemp(prefix="fxray-dist-"), "store")
        t = time.time()
        torch.multiprocessing.spawn(rank_main, args=(args,), nprocs=WORLD, join=True)
        report = {"entry": ENTRIES[args.recipe], "recipe": args.recipe, "model": ENTRIES[args.recipe],
                  "library": "torch.distributed", "mode": args.mode, "device": args.device, "world_size": WORLD,
                  "torch": torch.__version__, "steps": {}, "graph_breaks": {}, "written": [], "capture_errors": [],
                  "seconds": round(time.time() - t, 1)}
        for rank in range(WORLD):
            path = os.path.join(args.out, f"{args.mode}.rank{rank}.json")
            r = json.load(open(path)) if os.path.exists(path) else {"steps": {"run": {"ok": False, "error": "no report"}}}
            report["steps"].update({f"rank{rank}:{k}": v for k, v in r["steps"].items()})
            report["graph_breaks"].update({f"rank{rank}: {k}": v for k, v in r.get("graph_breaks", {}).items()})
            report["written"] += r.get("written", [])
            report["capture_errors"] += r.get("capture_errors", [])
        report["collectives"] = collectives(args.out, os.environ.get("TORCH_TRACE") if args.mode == "trace" else None)
    with open(os.path.join(args.out, f"{args.mode}.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(f"{report['entry']} {args.mode}: " + (report.get("skipped") or ", ".join(
        f"{s} {r.get('seconds')}s{'' if r['ok'] else ' FAILED: ' + r.get('error', '')}" for s, r in report["steps"].items())))
    print("collectives:", json.dumps(report.get("collectives", {})))
    return 1 if any(not r["ok"] for r in report["steps"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
