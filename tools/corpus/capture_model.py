"""Captures one corpus model under one training recipe in this process (recipes.py: the plain step is a training
step (forward, loss, backward) and a bf16 autocast inference (eval, no_grad); others add autocast training, dynamic
shapes, checkpointing, flex_attention, a compiled optimizer, gradient accumulation, inductor modes).

  --mode capture   backend = fxray_capture: forward/backward/joint/inference graphs with real inputs (.pt) and
                   eager outputs (.expected.pt) under <out>/dumps
  --mode trace     backend = inductor; the parent sets TORCH_TRACE=<out>/trace (read when torch is imported)

Writes <out>/<mode>.json: what ran, how long, what failed (each step is tried on its own: a failing training
step does not stop the inference step), graph breaks, and for capture the graphs written and the capture errors.
One model per process: a crash or a hang costs one model (run_corpus.py runs this with a timeout)."""
import argparse
import dataclasses
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "capture")]

import torch  # noqa: E402

import models  # noqa: E402
import recipes  # noqa: E402
from sizes import SIZES  # noqa: E402


def _configure_dynamo() -> None:
    # Real models recompile (train vs eval, grad vs no_grad) and break graphs; never fall back to eager for that.
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 256)


def _graph_breaks() -> dict:
    from torch._dynamo.utils import counters
    return {"unique_graphs": int(counters["stats"]["unique_graphs"]),
            "graph_breaks": {str(k).splitlines()[0]: int(v) for k, v in counters["graph_break"].items()}}


def run(args) -> dict:
    library, build = models.MODELS[args.model]
    torch.manual_seed(0)
    t0 = time.time()
    size = SIZES[args.size]
    if args.layers:
        size = dataclasses.replace(size, layers=args.layers)
    keep_dropout = not args.no_dropout
    built = build(size, keep_dropout)
    built.model.to(args.device)
    name = recipes.entry(args.model, args.recipe)
    report = {"model": args.model, "recipe": args.recipe, "entry": name, "library": library, "mode": args.mode,
              "device": args.device, "size": args.size, "dropout": keep_dropout, "torch": torch.__version__,
              "steps": {}, "parameters": sum(p.numel() for p in built.model.parameters()),
              "build_s": round(time.time() - t0, 2)}
    why = recipes.skip(args.recipe, built.model, args.device)
    if why:
        report["skipped"] = why
        return report
    backend = "inductor"
    if args.mode == "capture":
        import fxray_capture
        backend = fxray_capture.backend(name, os.path.join(args.out, "dumps"))
    ctx = recipes.Ctx(built.model, built, library, args.device, backend, args.mode)
    torch.manual_seed(0)  # the steps' random draws (dropout) do not depend on how much building drew
    try:
        steps = recipes.RECIPES[args.recipe](ctx)
    except Exception as e:  # noqa: BLE001 - setting the recipe up failed: one failed step, reported
        steps = [("setup", _raiser(e))]
    for step, fn in steps:
        t = time.time()
        try:
            value = fn()
            loss = value if isinstance(value, float) else None
            report["steps"][step] = {"ok": True, "seconds": round(time.time() - t, 2), "loss": loss}
        except Exception as e:  # noqa: BLE001 - one step's failure is a finding, the next step still runs
            report["steps"][step] = {"ok": False, "seconds": round(time.time() - t, 2),
                                     "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                                     "traceback": traceback.format_exc()}
    report.update(_graph_breaks())
    if args.mode == "capture":
        report["written"] = [os.path.relpath(d, args.out) for d in backend.written]
        report["capture_errors"] = backend.errors
    return report


def _raiser(e: Exception):
    def again():
        raise e
    return again


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, choices=sorted(models.MODELS))
    p.add_argument("--out", required=True, help="this model's folder (dumps/, trace/, <mode>.json)")
    p.add_argument("--mode", choices=("capture", "trace"), default="capture")
    p.add_argument("--device", default="cpu")
    p.add_argument("--size", choices=sorted(SIZES), default="tiny")
    p.add_argument("--layers", type=int, default=0, help="layers of the model (default: the size's); e.g. 24 for a "
                   "deep model to look at in the GUI's module hierarchy")
    p.add_argument("--recipe", choices=recipes.ALL, default="plain", help="how the model is trained (recipes.py)")
    p.add_argument("--no-dropout", action="store_true", help="dropout / drop-path / layerdrop set to 0 (default: "
                   "the configs' values; the RNG state in <stem>.rng.pt lets replays draw what eager drew)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    _configure_dynamo()
    report = run(args)
    with open(os.path.join(args.out, f"{args.mode}.json"), "w") as f:
        json.dump(report, f, indent=1)
    bad = [s for s, r in report["steps"].items() if not r["ok"]]
    if report.get("skipped"):
        print(f"{args.model} {args.recipe} {args.mode}: skipped: {report['skipped']}")
    print(f"{report['entry']} {args.mode}: " + ", ".join(f"{s} {r['seconds']}s{'' if r['ok'] else ' FAILED'}"
                                                    for s, r in report["steps"].items()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
