"""Constructs of real models the corpus lacked, found on models new to it (session 22: Gemma, BLOOM, DeBERTa), on
tests/data/model_patterns/model_patterns.log (make_model_patterns.py there: one CPU training step through all three):
- a value the model calls `output` loads, and the graph's own output node is FX's `output_1` (Gemma's dynamo graphs
  stopped at "duplicate name 'output'");
- a custom torch.autograd.Function (dynamo's higher_order.autograd_function_apply, BLOOM's GeLUFunction) runs its
  forward body where it is called, and the dynamo stage agrees with the AOT ones (the dynamo graphs were
  `unsupported`);
- a tensor constant the log holds no value for is generated within its consumers' domain (DeBERTa's
  sqrt(torch.tensor(head_dim) * 3): a negative draw made the joint graph `nan`), on every seed tried."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, fxray_json, have_worker, main, replay_reports  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

LOG = os.path.join(SOURCE, "tests", "data", "model_patterns", "model_patterns.log")


@check
def a_value_named_output_leaves_the_output_node_output_1():
    (r,) = replay_reports(LOG + "#0/0/dynamo_output_graph")
    names = [n["name"] for n in r["nodes"]]
    assert r["verdict"] == "pass" and names[-1] == "output_1" and "output" in names[:-1], (r["verdict"], names[-3:])


@check
def a_custom_autograd_function_runs_its_forward_body_and_the_stages_agree():
    (r,) = replay_reports(LOG + "#0/0/dynamo_output_graph")
    (apply,) = [n for n in r["nodes"] if n["name"] == "autograd_function_apply"]
    assert apply["status"] == "passed" and "fwd_body_0(*args)[0]" in apply["schema"], apply
    c = fxray_json("compare", LOG + "#0/0", "--no-output-code", codes=(0,))
    assert c["verdict"] == "agree" and c["stages"][0]["stage"] == "dynamo", (c["verdict"], c.get("reason"))


@check
def a_generated_constant_stays_in_its_consumers_domain_on_every_seed():
    for seed in range(6):
        (r,) = replay_reports(LOG + "#0/0/aot_joint_graph", "--seed", str(seed))
        assert r["verdict"] == "pass", (seed, r["verdict"], r.get("first_nan_node"))
        assert any(c.startswith("_tensor_constant0 positive") for c in r["constraints"]), r["constraints"]


@check
def every_graph_of_the_log_replays_clean():
    bad = [(r["address"], r["verdict"]) for r in replay_reports(LOG) if r["verdict"] != "pass" or r["unsupported"]]
    assert not bad, bad


if __name__ == "__main__":
    main()
