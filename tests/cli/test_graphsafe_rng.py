"""Activation checkpointing on CUDA (issue 21): AOTAutograd passes one torch.Generator per recomputed random op
(fwd_rng_state_<k>, bwd_rng_state_<k>) into higher_order.graphsafe_run_with_rng_state(op, *args, rng_state=G).
Before, the capture lost every such graph ("unsupported graph input of type Generator") and fxray could not build
the input ("has no recorded metadata"): Qwen2, DistilBERT, BART, T5, wav2vec2 and ViT under the checkpoint recipe
on an H100. Now the capture records the input ((torch.Generator, device) in .input, its state in .pt) and fxray
runs the op drawing from G: G's state put into the device's generator, G advanced by the draws, the device's
generator put back, as rng_prims does.

The dump is written here on the CPU through the capture backend's own writers, from a hand-built GraphModule that
calls the op as the CUDA graphs do (the capture and the replay are device-agnostic); its expected outputs are
eager's draws from those generator states."""
import json
import operator
import pickle
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, cpu_stages_agreeing, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

sys.path.insert(0, os.path.join(SOURCE, "tools", "capture"))
import torch  # noqa: E402
import torch.fx as fx  # noqa: E402

import fxray_capture  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-graphsafe-")
HOP = torch.ops.higher_order.graphsafe_run_with_rng_state
DROPOUT = torch.ops.aten.native_dropout.default


def eager(x, g0, g1):
    """What the graph computes: dropout twice from g0 (the second continues g0's stream), once from g1."""
    user = torch.get_rng_state()
    try:
        torch.set_rng_state(g0.get_state())
        a, mask = DROPOUT(x, 0.5, True)
        b, _ = DROPOUT(a, 0.5, True)
        torch.set_rng_state(g1.get_state())
        c, _ = DROPOUT(x, 0.5, True)
    finally:
        torch.set_rng_state(user)
    return a, mask, b, c


def checkpointed_graph(values):
    g = fx.Graph()
    x = g.placeholder("primals_1")
    s0 = g.placeholder("fwd_rng_state_0")
    s1 = g.placeholder("fwd_rng_state_1")
    x.meta["val"] = values["x"]
    run0 = g.call_function(HOP, (DROPOUT, x, 0.5, True), {"rng_state": s0})
    a = g.call_function(operator.getitem, (run0, 0))
    mask = g.call_function(operator.getitem, (run0, 1))
    run1 = g.call_function(HOP, (DROPOUT, a, 0.5, True), {"rng_state": s0})
    b = g.call_function(operator.getitem, (run1, 0))
    run2 = g.call_function(HOP, (DROPOUT, x, 0.5, True), {"rng_state": s1})
    c = g.call_function(operator.getitem, (run2, 0))
    for node, key in ((a, "a"), (mask, "mask"), (b, "b"), (c, "c")):
        node.meta["val"] = values[key]
    g.output((b, mask, c))
    return fx.GraphModule(torch.nn.Module(), g)


def write_dump():
    torch.manual_seed(0)
    x = torch.randn(256)
    g0, g1 = torch.Generator().manual_seed(11), torch.Generator().manual_seed(12)
    a, mask, b, c = eager(x, g0, g1)
    gm = checkpointed_graph({"x": x, "a": a, "mask": mask, "b": b, "c": c})
    cap = fxray_capture.backend("gs", TMP)
    args = [x, g0, g1]
    d = cap._write_graph(gm, args, "forward", 0)
    cap._save_real(d, "forward", 0, cap._copies(args))
    cap._save_real(d, "forward", 0, [b, mask, c], ".expected.pt")
    cap._save_rng(d, "forward", 0, fxray_capture.rng_state())  # outputs compared by value, not by keep-rate
    return d


DUMP = write_dump()


def replay(*extra):
    p = subprocess.run([FXRAY, "replay", DUMP, "--json", *extra], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


@check
def the_capture_records_a_generator_input_by_its_device_and_its_state():
    meta = pickle.load(open(os.path.join(DUMP, "gs_forward_0.input"), "rb"))
    assert meta[1] == (torch.Generator, "cpu") and meta[2] == (torch.Generator, "cpu"), meta
    saved = torch.load(os.path.join(DUMP, "gs_forward_0.pt"))
    assert saved[1].dtype == torch.uint8 and saved[1].numel() > 0, saved[1]


@check
def saved_inputs_draw_from_each_generator_what_eager_drew_and_advance_it():
    r = replay("--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass", (r["verdict"], r.get("fatal"), r["comparisons"])
    # every output by value: the second dropout continues g0's stream, the third draws g1's
    cs = r["comparisons"]
    assert len(cs) == 3 and all(c["compared"] and c["ok"] and not c.get("by_rate") for c in cs), cs
    schemas = [n.get("schema") or "" for n in r["nodes"] if n["name"].startswith("graphsafe_run_with_rng_state")]
    assert len(schemas) == 3 and all("drawn from the generator rng_state" in s for s in schemas), schemas


@check
def random_inputs_make_a_generator_for_each_rng_state_input():
    r = replay()
    assert r["verdict"] == "pass", (r["verdict"], r.get("fatal"))
    assert not r.get("unsupported"), r["unsupported"]


@check
def a_cuda_checkpointed_attention_with_dropout_agrees_at_every_stage():
    """T5 under the checkpoint recipe on an H100 (compile 9/1, cut by tests/data/rng/slice_trace.py): the AOT forward
    runs efficient attention with dropout 0.1 inside graphsafe_run_with_rng_state, between inductor's dropout draws.
    Before, the rng_state inputs could not be built; then the draws after the attention were numbered one too low
    (the wrapped attention was not counted among the draws), and the stage diverged at max abs 3.44."""
    cpu_stages_agreeing(os.path.join(SOURCE, "tests", "data", "rng", "cuda_t5_checkpoint_graphsafe.log") + "#9/1")


@check
def the_output_code_runner_rebuilds_a_generator_from_fxrays_record():
    """fxray hands inductor's generated code its inputs through LibTorch's pickler, which writes no generator: a
    generator goes as ("fxray.generator", device, state) and tools/runtime/run_output_code.py makes it again."""
    sys.path.insert(0, os.path.join(SOURCE, "tools", "runtime"))
    import run_output_code as runner

    g = torch.Generator().manual_seed(5)
    record = runner.to_cpu(g)
    assert runner.is_generator_record(record) and record[1] == "cpu", record
    again = runner.generator_of(record, torch.device("cpu"))
    assert torch.equal(torch.rand(8, generator=again), torch.rand(8, generator=torch.Generator().manual_seed(5)))


if __name__ == "__main__":
    main()
