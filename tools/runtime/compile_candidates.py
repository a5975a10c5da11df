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
On start it prints {"ready": true, "torch": "2.11.0"}; exit 3 when this Python has no torch.
"""
from __future__ import annotations

import ast
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


def literal(text: str):
    """A config value as the log's fx_graph_runnable or the user wrote it: a Python literal, else the text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


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
    config = {k: literal(v) for k, v in (req.get("config") or {}).items()}
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


def handle(req: dict) -> dict:
    start = time.perf_counter()
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
