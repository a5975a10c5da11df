"""Captures PyTorch's OpInfo database (torch.testing._internal.common_methods_invocations.op_db) with
fxray_capture: the first float32 sample input of each op, called once with grad (forward, loss, backward:
forward/backward/joint graphs) and once under no_grad (inference graph).

Runs op_db[--start:--stop] in this process, one op at a time (torch._dynamo.reset() between ops, each op in its
own try/except). Before each op it appends {"i", "op", "event": "start"} to <out>/progress.jsonl and after it the
op's result, so that when an op kills the process (a segfault, an abort) run_corpus.py knows which op it was,
records it as a crash and starts a new process after it. Needs the `expecttest` package (imported by
torch.testing._internal)."""
import argparse
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "capture")]

import torch  # noqa: E402
from torch.utils._pytree import tree_flatten, tree_unflatten  # noqa: E402


def op_name(op) -> str:
    """A folder-safe unique name: nn.functional.conv2d -> nn_functional_conv2d, variants appended."""
    name = op.name + (f"_{op.variant_test_name}" if op.variant_test_name else "")
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def _as_function(op, sample):
    """fn(*tensors) calling op on the sample, with every tensor of the sample as an argument (a graph input)."""
    leaves, spec = tree_flatten((sample.input, sample.args, sample.kwargs))
    where = [i for i, v in enumerate(leaves) if isinstance(v, torch.Tensor)]

    def fn(*tensors):
        vals = list(leaves)
        for i, t in zip(where, tensors):
            vals[i] = t
        inp, args, kwargs = tree_unflatten(vals, spec)
        return op(inp, *args, **kwargs)

    return fn, [leaves[i] for i in where]


def _loss(out):
    """A scalar from every differentiable output (complex outputs through their real part), or None."""
    leaves, _ = tree_flatten(out)
    parts = [(t.real if t.is_complex() else t).sum() for t in leaves if isinstance(t, torch.Tensor) and t.requires_grad]
    return sum(parts) if parts else None


def capture_op(op, device: str, dumps: str) -> dict:
    import fxray_capture
    if torch.float32 not in op.supported_dtypes(device):
        return {"status": "skipped", "reason": f"float32 not supported on {device}"}
    torch.manual_seed(0)
    sample = next(iter(op.sample_inputs(device, torch.float32, requires_grad=op.supports_autograd)))
    fn, tensors = _as_function(op, sample)
    cap = fxray_capture.backend(op_name(op), dumps)
    compiled = torch.compile(fn, backend=cap)
    result = {"status": "ok", "steps": {}}
    for step in ("grad", "no_grad") if op.supports_autograd else ("no_grad",):
        try:
            if step == "grad":
                loss = _loss(sample.output_process_fn_grad(compiled(*tensors)))
                if loss is not None:
                    loss.backward()
            else:
                with torch.no_grad():
                    compiled(*tensors)
            result["steps"][step] = "ok"
        except Exception as e:  # noqa: BLE001 - a dynamo/AOT failure of one op is a result, not the end
            result["steps"][step] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            result["status"] = "step failed"
    result["written"] = [os.path.basename(d) for d in cap.written]
    result["capture_errors"] = cap.errors
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder: dumps/ and progress.jsonl")
    p.add_argument("--device", default="cpu")
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--stop", type=int, default=None)
    p.add_argument("--only", nargs="*", help="op names (as op_name() writes them) to capture, others skipped")
    args = p.parse_args()
    from torch.testing._internal.common_methods_invocations import op_db
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 64)
    os.makedirs(args.out, exist_ok=True)
    progress = open(os.path.join(args.out, "progress.jsonl"), "a", buffering=1)
    stop = len(op_db) if args.stop is None else min(args.stop, len(op_db))
    for i in range(args.start, stop):
        op = op_db[i]
        if args.only and op_name(op) not in args.only:
            continue
        progress.write(json.dumps({"i": i, "op": op_name(op), "event": "start"}) + "\n")
        os.fsync(progress.fileno())  # the start line must survive a crash of this op
        t = time.time()
        torch._dynamo.reset()
        try:
            r = capture_op(op, args.device, os.path.join(args.out, "dumps"))
        except Exception as e:  # noqa: BLE001 - sample generation etc.: recorded, next op
            r = {"status": "error", "reason": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300],
                 "traceback": traceback.format_exc()[-2000:]}
        progress.write(json.dumps({"i": i, "op": op_name(op), "event": "done", "seconds": round(time.time() - t, 2),
                                   **r}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
