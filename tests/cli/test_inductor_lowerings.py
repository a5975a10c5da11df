"""Inductor's post-grad lowering patterns (issue 21: the corpus' max-autotune recipe on the H100 stopped at
`torch__inductor_fx_passes_post_grad_mm_plus_mm(...)` in every post-grad graph with `mm(a, b) + mm(c, d)`), on
tests/data/inductor_lowerings/lowerings.log (written by make_lowerings.py there: a CPU compile under
max-autotune-no-cudagraphs). The post-grad graph holds each handler as a Python call; fxray runs the aten ops it
replaced: both mm_plus_mm calls (the second named `..._mm_plus_mm_1` by FX) and cat_slice_cat replay with nothing
unsupported, stage compare agrees, and a change planted in one handler's arguments diverges at post_grad."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, edit_trace_payload, fxray_json, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

LOG = os.path.join(SOURCE, "tests", "data", "inductor_lowerings", "lowerings.log")
POST_GRAD = LOG + "#0/0/inductor_post_grad_graph"
TMP = tempfile.mkdtemp(prefix="fxray-lowerings-")


@check
def the_lowering_handlers_run_as_the_aten_ops_they_replaced():
    out = fxray_json("replay", POST_GRAD)
    r = out["reports"][0] if "reports" in out else out
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])
    ran = {n["name"]: n for n in r["nodes"]}
    for name in ("mm_plus_mm", "mm_plus_mm_1", "cat_slice_cat"):
        assert ran[name]["status"] == "passed", ran[name]
        assert ran[name]["schema"].startswith("inductor lowering "), ran[name]["schema"]


@check
def every_graph_of_the_log_replays_with_nothing_unsupported():
    bad = [(r["graph"], r["verdict"], r["unsupported"]) for r in fxray_json("replay", LOG)["reports"]
           if r["verdict"] != "pass" or r["unsupported"]]
    assert not bad, bad


@check
def stage_compare_agrees_and_finds_a_change_planted_in_a_handlers_arguments():
    r = fxray_json("compare", LOG + "#0/0", "--no-output-code")
    assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))
    # The second sum's (c * 2) @ d becomes c @ d: same shapes, half the value (c kept alive for it).
    planted = os.path.join(TMP, "planted.log")
    edit_trace_payload(LOG, planted, "inductor_post_grad_graph",
                       "aten.mul.Tensor(arg2_1, 2);  arg2_1 = None", "aten.mul.Tensor(arg2_1, 2)")
    edit_trace_payload(planted, planted, "inductor_post_grad_graph", "mat3 = mul_1,", "mat3 = arg2_1,")
    r = fxray_json("compare", planted + "#0/0", "--no-output-code")
    assert r["verdict"] == "diverge" and r["first_divergent_stage"] == "post_grad", (r["verdict"], r.get("reason"))


if __name__ == "__main__":
    main()
