"""Ops whose CPU kernel has no bfloat16 kernel while CUDA's has (issue 21, cross-device replay: a bf16 training graph
recorded on a GPU, replayed on a machine without one), on tests/data/dtype_gaps/bf16_gaps.log (make_bf16_gaps.py
there: a bf16 CPU compile through avg_pool3d, antialiased upsampling, multi_margin_loss and trace):
- the kernel's refusal makes fxray run the op in float32 and cast its results back, and the node says so; every graph
  of the log then replays clean, at the dynamo level (torch functions) and in AOT's forward, backward and joint graphs;
- the widened results equal the op in float32 rounded to bfloat16 (the dtype checks pass, stage compare agrees);
- random inputs give multi_margin_loss targets that are classes of its input (they were out of range before)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, fxray_json, have_worker, main, replay_reports  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

LOG = os.path.join(SOURCE, "tests", "data", "dtype_gaps", "bf16_gaps.log")
WIDENED = "[CPU: no BFloat16 kernel; ran in float32, results cast back to BFloat16]"


@check
def ops_without_a_bf16_cpu_kernel_run_widened_and_say_so():
    rs = replay_reports(LOG)
    assert len(rs) == 9 and all(r["verdict"] == "pass" for r in rs), [(r["address"], r["verdict"]) for r in rs]
    widened = {(r["address"].rsplit("/", 1)[1], n["name"]) for r in rs for n in r["nodes"] if n.get("schema", "").endswith(WIDENED)}
    for graph, name in (("dynamo_output_graph", "pooled"), ("dynamo_output_graph", "small"),
                        ("dynamo_output_graph", "multi_margin_loss"), ("dynamo_output_graph", "trace"),
                        ("aot_forward_graph", "avg_pool3d"), ("aot_forward_graph", "_upsample_bilinear2d_aa"),
                        ("aot_backward_graph", "avg_pool3d_backward")):
        assert (graph, name) in widened, (graph, name, sorted(widened))
    # ops with a bf16 CPU kernel run as they are
    assert not any(name in ("mul", "mm", "add") for _, name in widened), sorted(widened)


@check
def widened_results_keep_the_recorded_dtype_and_the_stages_agree():
    (fwd,) = replay_reports(LOG + "#0/0/aot_forward_graph")
    (pool,) = [n for n in fwd["nodes"] if n["name"] == "avg_pool3d"]
    assert pool["status"] == "passed" and pool["outputs"][0]["meta"].startswith("bf16[2, 3, 2, 4, 4]"), pool
    r = fxray_json("compare", LOG + "#0/0", "--no-output-code", codes=(0,))
    assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))


@check
def random_multi_margin_targets_are_classes_of_the_input():
    for seed in ("0", "1", "2"):
        (r,) = replay_reports(LOG + "#0/0/dynamo_output_graph", "--seed", seed)
        (loss,) = [n for n in r["nodes"] if n["name"] == "multi_margin_loss"]
        assert loss["status"] == "passed", (seed, loss.get("error"))


if __name__ == "__main__":
    main()
