"""What real models' graphs need from `fxray replay` (issue: real models, end to end), on the CPU:
intended -inf (attention masks) is not a NaN failure while NaN from finite inputs is; saved inputs keep their
views' layout and equal eager; random and empty*() outputs are not compared; uint64 statistics are no error;
custom ops registered from Python are named; a renamed dump folder keeps its metadata; diff warns when a side
has none; a crashing worker costs one graph of a batch, not the batch."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, check, edit_trace_payload, have_worker, main, run  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

import real_model_fixtures as fx  # noqa: E402  (needs torch: FXRAY_PYTHON)

TMP = tempfile.mkdtemp(prefix="fxray-real-traits-")


def replay_json(path, *extra, env=None):
    p = subprocess.run([FXRAY, "replay", path, "--json", *extra], capture_output=True, text=True, timeout=300,
                       env={**os.environ, **(env or {})})
    assert p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}"
    return p.returncode, json.loads(p.stdout)


def node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


@check
def inf_from_masks_and_fills_is_not_a_nan_failure():
    code, r = replay_json(fx.write_py(TMP, "masks", fx.MASKS))
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r["first_nan_node"])
    assert node(r, "scalar_tensor").get("nonfinite_constant") and node(r, "masked_fill").get("nonfinite_constant")
    assert not any(n.get("nan_origin") for n in r["nodes"])
    assert not node(r, "where").get("nonfinite_constant")  # its -inf came in through an input


@check
def nan_from_finite_inputs_is_a_failure_at_its_origin():
    code, r = replay_json(fx.write_py(TMP, "nan_from_finite", fx.NAN_FROM_FINITE))
    assert code == 1 and r["verdict"] == "nan" and r["first_nan_node"] == "log", (r["verdict"], r["first_nan_node"])
    assert node(r, "log").get("nan_origin") and not node(r, "log").get("nonfinite_constant")
    _, out, _ = run("replay", os.path.join(TMP, "nan_from_finite.py"))
    assert "NaN/Inf from finite inputs first appears at node 'log'" in out, out


@check
def generated_inputs_respect_value_domains_and_list_them():
    # Random running_var would be negative half the time (rsqrt -> NaN); ids + 2 index a 7-row table.
    for seed in ("0", "1", "2"):
        code, r = replay_json(fx.write_py(TMP, "batch_norm", fx.BATCH_NORM), "--seed", seed)
        assert code == 0 and r["verdict"] == "pass", (seed, r["verdict"], r["first_nan_node"], r.get("fatal"))
    constraints = r["constraints"]
    assert any(c.startswith("var positive") for c in constraints), constraints
    assert any(c.startswith("ids in [-2, 5)") for c in constraints), constraints


@check
def structured_inputs_get_offsets_lengths_and_positive_definite_matrices():
    # Unconstrained random offsets/lengths make segment_reduce raise and CUDA's embedding_bag assert; a random
    # matrix has no Cholesky factor; acosh/xlogy give NaN below their domains.
    for seed in ("0", "1", "2", "3"):
        code, r = replay_json(fx.write_py(TMP, "structured", fx.STRUCTURED_DOMAINS), "--seed", seed)
        assert code == 0 and r["verdict"] == "pass", (seed, r["verdict"], r["first_nan_node"], r.get("fatal"),
                                                      [n.get("message") for n in r["nodes"] if n.get("message")])
    c = r["constraints"]
    for want in ("offsets sorted offsets in [0, 12]", "lengths lengths summing to 9", "spd symmetric positive-definite",
                 "x greater than 1", "y positive", "indices in [0, 10)"):
        assert any(x.startswith(want) for x in c), (want, c)


@check
def backward_graphs_take_their_saved_activations_from_their_forward():
    from cli_harness import SAMPLES
    d = os.path.join(SAMPLES, "cpu", "dumps", "cnn_channels_last", "cnn_channels_last_backward_0")
    code, r = replay_json(d)
    assert code == 0 and r["chained_from"].endswith("cnn_channels_last_forward_0"), r.get("chained_from")
    assert "convolution" in r["chained_inputs"] and not any(n.startswith("tangents") for n in r["chained_inputs"])
    assert not any(c.startswith("convolution ") for c in r["constraints"])  # chained, not generated
    code, r = replay_json(d, "--no-chain")
    assert code == 0 and "chained_from" not in r
    trace = os.path.join(SAMPLES, "cpu", "trace", "mlp_inductor.log") + "#0/0/aot_backward_graph"
    code, r = replay_json(trace)
    assert code == 0 and r["chained_from"].endswith("#0/0/aot_forward_graph") and "relu" in r["chained_inputs"], r
    # Inductor's backward post-grad graph (the compile's second) reads the first one's outputs; CLIP's gathered
    # token indices were out of range when generated.
    for record in ("inductor_post_grad_graph", "fx_graph_runnable"):
        code, r = replay_json(trace.replace("aot_backward_graph", record + ".1"))
        assert code == 0 and r["chained_from"].endswith("#0/0/" + record) and "relu" in r["chained_inputs"], r
    code, r = replay_json(trace.replace("aot_backward_graph", "inductor_post_grad_graph"))
    assert "chained_from" not in r, r  # the forward has no forward


@check
def chained_activations_arrive_in_the_layout_the_backward_records():
    root = os.path.join(TMP, "layout")
    fx.write_dump(root, "lay_forward_0", fx.LAYOUT_FORWARD)
    code, r = replay_json(fx.write_dump(root, "lay_backward_0", fx.LAYOUT_BACKWARD))
    assert r["chained_inputs"] == ["primals_1", "relu"], r.get("chained_inputs")
    assert code == 0 and r["verdict"] == "pass", [(n["name"], n.get("mismatches")) for n in r["nodes"] if n.get("mismatches")]


@check
def fx_graph_runnable_nodes_are_checked_against_the_annotated_graph_of_the_compile():
    # The runnable's code has no annotations: its nodes take those of the same graph logged annotated, so a recorded
    # stride that the replay does not produce is found in the runnable too (and gather/index ranges inferred).
    from cli_harness import SAMPLES
    log = edit_trace_payload(os.path.join(SAMPLES, "cpu", "trace", "mlp_inductor.log"), os.path.join(TMP, "edited.log"),
                             "before_post_grad_graph", 'relu: "f32[s77, 64][64, 1]cpu"', 'relu: "f32[s77, 64][1, 64]cpu"')
    code, r = replay_json(log + "#0/0/fx_graph_runnable")
    bad = [n["name"] for n in r["nodes"] if n.get("mismatches")]
    assert code == 1 and bad == ["relu"], (code, bad)


@check
def fx_graph_runnable_views_of_padded_inputs_run_as_inductor_runs_them():
    # DeiT's backward runnable views attention weights that inductor saved padded ([1312, 324, 18, 1]): eager's
    # view refuses that layout, inductor's view_to_reshape pass makes it a reshape before lowering.
    from cli_harness import SAMPLES
    edited = os.path.join(TMP, "padded.log")
    edit_trace_payload(os.path.join(SAMPLES, "cpu", "trace", "mlp_inductor.log"), edited, "before_post_grad_graph",
                       'primals_1: "f32[64, 32][32, 1]cpu", primals_2', 'primals_1: "f32[64, 32][40, 1]cpu", primals_2')
    edit_trace_payload(edited, edited, "fx_graph_runnable",
                       "permute = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None",
                       "view_x = torch.ops.aten.view.default(primals_1, [2048]);  primals_1 = None\n"
                       "        view_y = torch.ops.aten.view.default(view_x, [64, 32]);  view_x = None\n"
                       "        permute = torch.ops.aten.permute.default(view_y, [1, 0]);  view_y = None")
    code, r = replay_json(edited + "#0/0/fx_graph_runnable")
    assert code == 0 and r["verdict"] == "pass", [(n["name"], n.get("error")) for n in r["nodes"] if n.get("error")]
    assert "aten::reshape" in node(r, "view_x")["schema"], node(r, "view_x")
    assert any("view runs as aten.reshape" in n for n in r["notes"]), r["notes"]


@check
def trace_graphs_iota_and_unlogged_constants_replay():
    code, r = replay_json(fx.write_py(TMP, "trace_traits", fx.TRACE_TRAITS))
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("unsupported"), r.get("fatal"))
    assert "arange" in node(r, "iota")["schema"], node(r, "iota")
    assert any("self._tensor_constant0 generated" in n for n in r["notes"]), r["notes"]


@check
def inductor_prims_fma_and_online_softmax_replay_as_inductor_defines_them():
    # On the H100, 46 HF trace graphs (inductor post-grad and after) stopped at "prims.fma/prepare_softmax_online
    # exists only in Python".
    d = fx.write_inductor_prims_dump(os.path.join(TMP, "prims"))
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("unsupported"), r.get("fatal"))
    assert all(c["compared"] and c["ok"] for c in r["comparisons"]), r["comparisons"]
    assert "a * b + c" in node(r, "fma")["schema"], node(r, "fma")


@check
def saved_view_inputs_keep_their_layout_and_outputs_equal_eager():
    d = fx.write_views_dump(os.path.join(TMP, "views"))
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("fatal"),
                                                  [(n["name"], n.get("mismatches")) for n in r["nodes"] if n.get("mismatches")])
    for ph in ("a", "b", "c"):
        assert node(r, ph)["status"] == "passed", node(r, ph)
    mul, dropped, empty = r["comparisons"]
    assert mul["compared"] and mul["ok"] and mul["max_abs"] == 0, mul
    # Without a recorded generator state the dropout's draws cannot be reproduced: compared by keep/zero rate.
    assert dropped["compared"] and dropped["by_rate"] and dropped["ok"], dropped
    assert "random op aten.native_dropout.default" in dropped["note"], dropped
    assert not empty["compared"] and "uninitialised memory" in empty["note"], empty


@check
def saved_conjugate_and_negative_views_keep_their_bits():
    # Read as plain bytes, the conjugated input and output differed from eager by max_rel 2 (OpInfo fft_ifft).
    d = fx.write_conj_dump(os.path.join(TMP, "conj"))
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("fatal"))
    for c in r["comparisons"]:
        assert c["compared"] and c["ok"] and c["max_abs"] == 0, c


@check
def expected_auto_without_saved_outputs_says_so():
    d = fx.write_views_dump(os.path.join(TMP, "no_expected"))
    os.remove(os.path.join(d, "views_forward_0.expected.pt"))
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    assert code == 0 and not r.get("comparisons") and any("no saved eager outputs" in n for n in r["notes"]), r["notes"]


@check
def a_renamed_dump_folder_keeps_its_metadata_with_a_warning():
    src = fx.write_views_dump(os.path.join(TMP, "renamed_src"))
    dst = os.path.join(TMP, "renamed", "copy_forward_0")
    shutil.copytree(src, dst)
    code, r = replay_json(dst, "--inputs", "saved")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("fatal"))
    assert node(r, "a")["status"] == "passed"
    _, out, _ = run("info", dst, "--json")
    warnings = json.loads(out)["graphs"][0]["warnings"]
    assert any("views_forward_0" in w and "copy_forward_0" in w for w in warnings), warnings


@check
def uint64_statistics_are_not_a_node_error():
    code, r = replay_json(fx.write_py(TMP, "uint64", fx.UINT64))
    assert code == 0 and r["verdict"] == "pass", r["verdict"]
    n = node(r, "_to_copy")
    assert "error" not in n and n["outputs"][0]["max"] >= n["outputs"][0]["min"], n


@check
def a_custom_op_registered_from_python_is_named_as_such():
    code, r = replay_json(fx.write_py(TMP, "custom", fx.CUSTOM_OP))
    assert code == 1 and r["verdict"] == "unsupported"
    assert any("transformers::grouped_mm_fallback_backward" in u and "registered from Python" in u
               for u in r["unsupported"]), r["unsupported"]


@check
def diff_warns_when_a_side_has_no_recorded_metadata():
    a = fx.write_py(TMP, "plain_a", fx.PLAIN)
    b = fx.write_py(TMP, "plain_b", fx.PLAIN)
    code, out, _ = run("diff", a, b, "--json")
    assert code == 0, code
    warnings = json.loads(out)["warnings"]
    assert len(warnings) == 2 and all("no recorded metadata" in w for w in warnings), warnings


@check
def a_crashing_worker_costs_one_graph_and_the_batch_goes_on():
    batch = os.path.join(TMP, "batch")
    os.makedirs(batch, exist_ok=True)
    fx.write_dump(batch, "a_forward_0", fx.MASKS)
    nan = fx.write_dump(batch, "b_forward_0", fx.NAN_FROM_FINITE)
    code, r = replay_json(batch, env={"FXRAY_WORKER_FAULT": "abort:masked_fill"})
    first, second = r["reports"]
    assert first["verdict"] == "error" and "masked_fill" in first["fatal"], first.get("fatal")
    assert second["verdict"] == "nan" and second["first_nan_node"] == "log", second["verdict"]
    # --in-process replays in this process: the same graphs, no worker
    code, r = replay_json(nan, "--in-process")
    assert r["verdict"] == "nan"


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
