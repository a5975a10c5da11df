"""Compiles the minimizer's candidate graphs with inductor, for `fxray minimize --until diverge:output_code`.

fxray starts this once per minimize run, with the user's Python (FXRAY_PYTHON / --python), and sends it one request
per candidate on stdin; it answers one JSON line each on stdout. One long-lived process because a Python start
costs torch's import and inductor's CPU probing (tens of seconds on a small machine) while a small graph compiles in
about a second once those are done. It imports nothing from fxray; run_output_code.py (same folder) finds the kernel.

A request (one JSON line):
    {"module": "cand/repro.py", "graph": "cand/graph.readable.py", "inputs": "cand/in.pt", "out": "cand/out.pt",
     "device": "cpu", "config": {"cpp.inject_relu_bug_TESTING_ONLY": "'accuracy'"}}
`module` is the candidate as fxray's repro writer writes it (a `Repro` nn.Module whose forward is the graph);
`inputs` the values fxray's checked replay ran it on (LibTorch pickle_save); `config` inductor config entries,
values as Python literals. The candidate is compiled exactly as its repro.py compiles it (`compile_repro`:
inductor's compile_fx on the traced module, what torch.compile's inductor backend runs after dynamo; without dynamo,
whose graph would take the inputs in the order they are first used, so the generated call(args) takes the graph's
placeholders in order), under no_grad, run on the inputs, [outputs, inputs as the call left them] written to
`out` for fxray to compare with its replay, and the first divergent kernel looked for (run_output_code.localize)
against the candidate's graph run eagerly. The answer:
    {"ok": true, "outputs": N, "kernels": K, "seconds": S, "kernel": {localize's finding}}
    {"ok": false, "error": "..."}          the candidate did not compile or run (not the failure fxray keeps)
For `fxray minimize --until diverge:post_grad` a request with "mode": "post_grad" (and "post_grad": where to write,
"inference": whether the graph is an inference graph) stops before lowering: the candidate goes through inductor's
joint-graph and post-grad passes only (the module's post_grad_repro, custom passes of the config included), the
post-grad graph is written as FX code (print_readable, the text a TORCH_TRACE log holds for it) for fxray to replay
natively on the same inputs, and the first divergent node is looked for (localize_post_grad):
    {"ok": true, "post_grad": PATH, "nodes": N, "seconds": S, "node": {"found": true, "node": "erf", "op": ..., ...}}
On start it prints {"ready": true, "torch": "2.11.0"}; exit 3 when this Python has no torch.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import re
import sys
import time
import traceback
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_output_code as roc  # noqa: E402  (exits 3 itself when torch cannot be imported)

torch = roc.torch


def load_candidate(path: str):
    spec = importlib.util.spec_from_file_location("fxray_candidate_" + hashlib.md5(path.encode()).hexdigest()[:8], path)
    if spec is None or spec.loader is None:
        raise roc.BadInput(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "Repro") or not hasattr(module, "compile_repro"):
        raise roc.BadInput(f"{path}: not a candidate written by fxray (no Repro / compile_repro)")
    return module


# Compiled candidates by (module text, config, device): the minimizer replays the final graph on other seeds and
# those must not pay inductor again.
_compiled: dict[str, tuple] = {}


def compile_candidate(req: dict, module, inputs: list):
    config = module.config_values()  # req["config"] as the module has it, custom passes imported
    # The module's SEED line is the only thing that differs between seeds of one graph: not part of the key.
    text = re.sub(r"^SEED = .*$", "", Path(req["module"]).read_text(), flags=re.M)
    key = hashlib.md5((text + json.dumps(req.get("config") or {}, sort_keys=True) + req.get("device", "cpu")).encode()).hexdigest()
    if key in _compiled:
        return _compiled[key] + (None,)
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    mod = module.Repro().to(req.get("device", "cpu"))
    with inductor_config.patch(config), torch.no_grad():
        # run_and_get_code keeps the generated module's source for the kernel search.
        fn, codes = run_and_get_code(module.compile_repro, mod, inputs)
        outputs = fn(*inputs)
    if not codes:
        raise RuntimeError("inductor wrote no code for the candidate (nothing compiled)")
    _compiled[key] = (fn, config, codes[-1])
    return _compiled[key] + (outputs,)


def node_values(gm, inputs: list) -> dict:
    """Every node's value of gm run eagerly on (copies of) the inputs, by node name."""
    values = {}

    class Keep(torch.fx.Interpreter):
        def run_node(self, n):
            values[n.name] = super().run_node(n)
            return values[n.name]

    with torch.no_grad():
        Keep(gm, garbage_collect_values=False).run(*[t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
    return values


def agrees(a, b) -> bool:
    """fxray's tolerances (run_output_code.difference), bit-equal tensors (most nodes) without the arithmetic."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return True
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return torch.equal(a, b) or roc.difference(a, b)[0]


def graph_shape(gm) -> tuple[dict, list]:
    """Per node name its (op, target, input node names), and the output node names: what localize_post_grad needs of
    the graph before the passes change it in place."""
    nodes = {n.name: (n.op, n.target, [x.name for x in n.all_input_nodes]) for n in gm.graph.nodes}
    outs = [getattr(x, "name", None) for x in next(n for n in gm.graph.nodes if n.op == "output").args[0]]
    return nodes, outs


def localize_post_grad(shape: tuple, old: dict, after, inputs: list) -> dict:
    """Where the post-grad graph first computes something else than the graph it was made from (`shape`, `old`: its
    graph_shape and node values). A pass leaves the names of the nodes it does not touch, so a node of both graphs
    (same name, same op) is the same computation: the first such node whose value differs is where the divergence
    shows, and the node the pass rewrote (one the post-grad graph no longer has) that feeds it is the root cause. No
    such node: the first graph output that differs, the graph's own node there."""
    nodes, outs = shape
    new = node_values(after, inputs)
    news = [getattr(x, "name", None) for x in next(n for n in after.graph.nodes if n.op == "output").args[0]]
    if all(agrees(new.get(n), old.get(o)) for o, n in zip(outs, news)):
        return {"found": False, "why": "the post-grad graph's outputs agree with the graph's"}
    shown = value = None
    for n in after.graph.nodes:
        before = nodes.get(n.name)
        if n.op == "call_function" and before and before[1] == n.target and not agrees(new[n.name], old.get(n.name)):
            shown, value = n.name, new[n.name]
            break
    if shown is None:  # the outputs: position k of both graphs is output k
        shown, value = next((o, new.get(n)) for o, n in zip(outs, news) if not agrees(new.get(n), old.get(o)))
    kept = {n.name for n in after.graph.nodes}
    rewritten = [x for x in nodes[shown][2] if x not in kept and nodes[x][0] != "placeholder"]
    root = rewritten[-1] if rewritten else shown
    ref = old[shown].detach()
    ok, max_abs, bad = roc.difference(value, ref) if value.shape == ref.shape else (False, math.inf, ref.numel())
    finite = ref[torch.isfinite(ref)] if ref.is_floating_point() else ref.double()
    return {"found": True, "node": root, "op": str(nodes[root][1]), "shown_at": shown, "max_abs": max_abs,
            "ref_max": float(finite.abs().max()) if finite.numel() else 0.0, "mismatched": bad, "elements": ref.numel()}


def handle_post_grad(req: dict, module, inputs: list, start: float) -> dict:
    """diverge:post_grad: the candidate through inductor's passes up to its post-grad graph (the repro's
    post_grad_repro), written as graph text for fxray to replay, and the first divergent node."""
    import torch._inductor.config as inductor_config

    gm = module.traced(module.Repro().to(req.get("device", "cpu")))
    shape, old = graph_shape(gm), node_values(gm, inputs)
    with inductor_config.patch(module.config_values()):
        after = module.post_grad_repro(gm, inputs, bool(req.get("inference")))
    text = after.print_readable(print_output=False, include_stride=True, include_device=True)
    Path(req["post_grad"]).write_text(text)
    answer = {"ok": True, "post_grad": req["post_grad"], "nodes": sum(1 for n in after.graph.nodes if n.op == "call_function")}
    try:
        answer["node"] = localize_post_grad(shape, old, after, inputs)
    except Exception as e:  # noqa: BLE001 - the search failing leaves the post-grad graph usable
        answer["node"] = {"found": False, "why": f"{type(e).__name__}: {e}".splitlines()[0]}
    answer["seconds"] = round(time.perf_counter() - start, 3)
    return answer


def handle(req: dict) -> dict:
    start = time.perf_counter()
    if req.get("mode") == "post_grad":
        return handle_post_grad(req, load_candidate(req["module"]), roc.load_inputs(req["inputs"], req.get("device", "cpu")),
                                start)
    device = req.get("device", "cpu")
    module = load_candidate(req["module"])
    inputs = roc.load_inputs(req["inputs"], device)
    fn, config, code, outputs = compile_candidate(req, module, inputs)
    if outputs is None:  # compiled before (another seed of the same graph)
        import torch._inductor.config as inductor_config

        with inductor_config.patch(config), torch.no_grad():
            outputs = fn(*inputs)
    # The inputs as the call left them go back too: fxray compares an input the code mutates in place.
    roc.synchronize(device)
    if not isinstance(outputs, (list, tuple)):
        outputs = [outputs]
    torch.save([roc.to_cpu(list(outputs)), roc.to_cpu(inputs)], req["out"])
    code_path = str(Path(req["out"]).with_suffix(".output_code.py"))
    Path(code_path).write_text(code)
    answer = {"ok": True, "outputs": len(outputs), "code": code_path}
    try:
        args = SimpleNamespace(inputs=req["inputs"], graph=req["graph"], code=code_path, device=device)
        answer["kernel"] = roc.localize(args)
    except Exception as e:  # noqa: BLE001 - the kernel search failing leaves the outputs usable
        answer["kernel"] = {"found": False, "why": f"{type(e).__name__}: {e}".splitlines()[0]}
    answer["kernels"] = answer["kernel"].get("kernels", 0)
    answer["seconds"] = round(time.perf_counter() - start, 3)
    return answer


def finite(v):
    """JSON has no NaN / Infinity: such numbers go as strings (fxray's JSON reader is strict)."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict):
        return {k: finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [finite(x) for x in v]
    return v


def main() -> int:
    # fxray reads answers from stdout: inductor's and torch's own prints go to stderr.
    out = sys.stdout
    sys.stdout = sys.stderr
    import torch._inductor.config as inductor_config
    import torch._functorch.config as functorch_config

    # Our own cache of compiled candidates above; inductor's FX graph cache would skip the code the kernel search
    # needs. Its C++ / Triton kernel caches stay on: candidates share most kernels.
    inductor_config.fx_graph_cache = False
    functorch_config.enable_autograd_cache = False
    print(json.dumps({"ready": True, "torch": torch.__version__}), file=out, flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = handle(json.loads(line))
        except Exception as e:  # noqa: BLE001 - a candidate inductor cannot compile is an answer, not the end
            tb = traceback.format_exc().strip().splitlines()
            answer = {"ok": False, "error": (f"{type(e).__name__}: {e}".splitlines() or ["?"])[0][:400],
                      "traceback": "\n".join(tb[-6:])}
        print(json.dumps(finite(answer)), file=out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
