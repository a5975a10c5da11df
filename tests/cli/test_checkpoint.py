"""Activation checkpointing (issue 21), on a real capture (tests/data/checkpoint, written by make_checkpoint.py there):
AOTAutograd wraps every random op of a checkpointed region in torch.ops.higher_order.run_and_save_rng_state(op, ...)
in the forward and run_with_rng_state(state, op, ...) in the backward's recompute, passing the op as a value.
- the graphs load (an operator as an argument value) and print it back;
- both run natively with their eager semantics: the forward returns the generator state before the op and the
  op's result, the recompute sets the generator to the state it is given, so a saved-input replay of the backward
  equals eager by value even without any generator state restored for it (its masks come from the states alone);
- a backward replayed alone on generated inputs gets valid generator states (random bytes are no state);
- dynamo's graphs hold each checkpointed region as torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, ...)
  (tests/data/checkpoint/checkpoint_trace.log, written by make_checkpoint_trace.py): the body runs where it is
  called, so every graph of the log replays, and stage compare agrees with the dropout inside the bodies (their
  random calls take the next aligned draws, as AOTAutograd inlines them) and finds a change planted in a body."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, edit_trace_payload, fxray_json, have_worker, main  # noqa: E402

DUMPS = os.path.join(SOURCE, "tests", "data", "checkpoint", "ckpt_mlp")
LOG = os.path.join(SOURCE, "tests", "data", "checkpoint", "checkpoint_trace.log")
TMP = tempfile.mkdtemp(prefix="fxray-ckpt-")


def report(*args):
    out = fxray_json("replay", *args)
    return out["reports"][0] if "reports" in out else out


def hop_nodes(r):
    return [n for n in r["nodes"] if "rng_state" in n["target"]]


@check
def checkpoint_graphs_load_with_the_op_passed_as_a_value():
    info = fxray_json("info", DUMPS, codes=(0,))
    assert len(info["graphs"]) == 3 and not info.get("errors"), info
    p = subprocess.run([FXRAY, "show", os.path.join(DUMPS, "ckpt_mlp_backward_0")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "run_with_rng_state(rng_state_output_0, torch.ops.aten.native_dropout.default, gelu, 0.25, True)" in p.stdout, p.stdout


if have_worker():
    @check
    def the_forward_saves_the_state_and_draws_what_eager_drew():
        r = report(os.path.join(DUMPS, "ckpt_mlp_forward_0"), "--inputs", "saved", "--expected", "auto")
        assert r["verdict"] == "pass", (r["verdict"], r["unsupported"], r["comparisons"])
        hops = hop_nodes(r)
        assert len(hops) == 2 and all(n["status"] == "passed" for n in hops), hops
        # every output by value: the saved generator states (u8), the dropout mask and the drop-path keep mask
        assert r["comparisons"] and all(c["compared"] and c["ok"] and not c.get("by_rate") for c in r["comparisons"]), r["comparisons"]
        assert any(c["what"].startswith("u8") for c in r["comparisons"]), r["comparisons"]

    @check
    def the_recompute_draws_from_the_state_it_is_given():
        bwd = os.path.join(TMP, "ckpt_mlp_backward_0")
        shutil.copytree(os.path.join(DUMPS, "ckpt_mlp_backward_0"), bwd)
        # No generator state for the backward itself: its masks can only come from run_with_rng_state's states.
        os.remove(os.path.join(bwd, "ckpt_mlp_backward_0.rng.pt"))
        r = report(bwd, "--inputs", "saved", "--expected", "auto")
        assert r["verdict"] == "pass", (r["verdict"], r["unsupported"], r["comparisons"])
        hops = hop_nodes(r)
        assert len(hops) == 2 and all(n["status"] == "passed" for n in hops), hops
        assert r["comparisons"] and all(c["compared"] and c["ok"] and not c.get("by_rate") for c in r["comparisons"]), r["comparisons"]

    @check
    def a_backward_alone_on_generated_inputs_gets_valid_generator_states():
        alone = os.path.join(TMP, "alone", "ckpt_mlp_backward_0")
        shutil.copytree(os.path.join(DUMPS, "ckpt_mlp_backward_0"), alone)
        r = report(alone)
        assert r["verdict"] == "pass", (r["verdict"], [n for n in r["nodes"] if n["status"] != "passed"][:3])
        assert all(n["status"] == "passed" for n in hop_nodes(r)), hop_nodes(r)

    @check
    def dynamos_checkpointed_bodies_run_where_they_are_called():
        reports = fxray_json("replay", LOG)["reports"]
        bad = [(r["graph"], r["verdict"], r["unsupported"]) for r in reports if r["verdict"] != "pass" or r["unsupported"]]
        assert len(reports) >= 12 and not bad, bad
        dynamo = next(r for r in reports if r["address"].endswith("dynamo_output_graph"))
        tags = [n for n in dynamo["nodes"] if n["target"] == "higher_order.tag_activation_checkpoint"]
        assert len(tags) == 2 and all(n["status"] == "passed" for n in tags), tags

    @check
    def stage_compare_agrees_through_checkpointed_dropout_and_finds_a_change_in_a_body():
        r = fxray_json("compare", LOG + "#0/0", "--no-output-code")
        assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))
        # The first body's dropout keeps more: dynamo's draw differs from the AOT graph's, which the log left as is.
        planted = edit_trace_payload(LOG, os.path.join(TMP, "planted.log"), "dynamo_output_graph",
                                     "torch.nn.functional.dropout(gelu, 0.2, True, False)",
                                     "torch.nn.functional.dropout(gelu, 0.5, True, False)")
        r = fxray_json("compare", planted + "#0/0", "--no-output-code")
        assert r["verdict"] == "diverge" and r["first_divergent_stage"] == "aot_forward", (r["verdict"], r.get("reason"))


if __name__ == "__main__":
    main()
