"""Compiled-autograd graphs replayed on CUDA: a training step traced now on this GPU
(tools/capture/compiled_autograd_samples.py --device cuda: the model on the GPU, the loss scale a CPU 0-dim
tensor) replays its hook-free graph clean, and the CPU 0-dim inputs whose users are all aten/prims ops (or
compiled_autograd.ops calls) are moved to the GPU, as compiled autograd does, with a note naming each one.
The expected moves are worked out here from `fxray show`, independently of fxray's C++ rule.
Exits 77 (skipped) without a CUDA device or without a torch that sees one."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import SOURCE, check, main, run, torch_has_cuda  # noqa: E402

GENERATOR = os.path.join(SOURCE, "tools", "capture", "compiled_autograd_samples.py")
_TMP = tempfile.TemporaryDirectory(prefix="fxray_ca_cuda_")


def ca(log):
    return os.path.join(_TMP.name, "trace", log) + "#!0/compiled_autograd_graph"


def expected_moves(address):
    """inputs[k] that are 0-dim CPU tensors read only by aten/prims ops or compiled_autograd.ops (not CppNode*) calls,
    when some input is on CUDA: read off the printed graph."""
    code, out, err = run("show", address)
    assert code == 0, err
    gets = dict(re.findall(r'^\s+(getitem(?:_\d+)?): "([^"]*)" = inputs\[\d+\]', out, re.M))
    index = dict(re.findall(r'^\s+(getitem(?:_\d+)?)(?:: "[^"]*")? = inputs\[(\d+)\]', out, re.M))
    if not any("cuda" in meta for meta in gets.values()):
        return []
    body = [line for line in out.splitlines() if " = " in line and "= inputs[" not in line]
    moves = []
    for name, meta in gets.items():
        if not re.fullmatch(r"\w+\[\](\[\])?cpu", meta):
            continue
        users = [line.split(";")[0] for line in body if re.search(rf"\b{name}\b", line.split(";")[0].split(" = ", 1)[1])]
        ok = all("torch.ops.aten." in u or "torch.ops.prims." in u or
                 ("torch__dynamo_compiled_autograd_ops_" in u and "_ops_CppNode" not in u) for u in users)
        if ok:
            moves.append(f"inputs[{index[name]}] ({name})")
    return sorted(moves)


def moved_notes(report):
    return sorted(m.group(1) for n in report["notes"] if (m := re.match(r"moved (inputs\[\d+\] \(\w+\))", n)))


@check
def hook_free_graph_replays_clean_on_cuda_with_torchs_scalar_moves():
    code, out, err = run("replay", ca("compiled_autograd.log"), "--json", "--device", "cuda", timeout=900)
    assert code in (0, 1), err
    r = json.loads(out)
    assert r["verdict"] == "pass", (r["verdict"], r.get("fatal"), r["unsupported"],
                                    [(n["name"], n.get("error"), n.get("mismatches")) for n in r["nodes"]
                                     if n["status"] != "passed"][:5])
    assert moved_notes(r) == expected_moves(ca("compiled_autograd.log")), (r["notes"])


@check
def cpu_loss_scale_read_by_an_autograd_node_is_moved_to_the_gpu():
    # eager forward: MulBackward0 reads the CPU scale directly (the graph needs Python for its autograd nodes, so
    # the replay stops, but the inputs are made first and the note is there)
    code, out, err = run("replay", ca("compiled_autograd_eager.log"), "--json", "--device", "cuda", timeout=900)
    assert code in (0, 1), err
    r = json.loads(out)
    want = expected_moves(ca("compiled_autograd_eager.log"))
    assert want, "the CUDA trace has no CPU 0-dim input read by ops: the fixture no longer shows the case"
    assert moved_notes(r) == want, (r["notes"], want)


if __name__ == "__main__":
    if not torch_has_cuda():
        print("skipped: no CUDA device visible to torch")
        sys.exit(77)
    subprocess.run([sys.executable, GENERATOR, "--device", "cuda", "--out", _TMP.name], check=True, timeout=900)
    main()
