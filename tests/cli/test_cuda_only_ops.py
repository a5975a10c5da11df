"""Ops with a CUDA kernel and no CPU one, replayed on a machine without a GPU (issue 21, cross-device replay), on
tests/data/cross_device/cuda_only_ops.log: bf16/f32 training steps captured on an H200 (make_cuda_only_ops.py there):
- SDPA under `sdpa_kernel(CUDNN_ATTENTION)`: the dynamo graph's region runs (its SDPA under the region, which on the
  CPU cannot force a CUDA backend and says so), and cuDNN attention's forward and backward in the AOT graphs run
  through the CPU stand-in, in cuDNN's output layout (no stride difference);
- nn.GRUCell / nn.LSTMCell, which CUDA turns into _thnn_fused_gru_cell / _thnn_fused_lstm_cell and their backwards,
  run as ATen's CUDA kernels compute them: every graph replays, and stage compare finds the AOT forward equal to the
  dynamo graph's CPU cells;
and on sdpa_region_cpu.log (a CPU compile with `sdpa_kernel(MATH)` around one SDPA call): the region's SDPA runs
under the MATH backend, the call after the region as usual."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, edit_trace_payload, fxray_json, have_worker, main, replay_reports  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

DATA = os.path.join(SOURCE, "tests", "data", "cross_device")
LOG = os.path.join(DATA, "cuda_only_ops.log")
REGION = os.path.join(DATA, "sdpa_region_cpu.log")
TMP = tempfile.mkdtemp(prefix="fxray-cuda-only-")
CUDNN = "torch.ops.aten._scaled_dot_product_cudnn_attention.default(primals_1, primals_2, primals_3, None, True, 0.0, True)"


def nodes(address):
    (r,) = replay_reports(address)
    return {n["name"]: n for n in r["nodes"]}


@check
def every_graph_of_the_gpu_log_replays_on_the_cpu():
    rs = replay_reports(LOG)
    bad = [(r["address"], r["verdict"], r["unsupported"]) for r in rs if r["verdict"] != "pass" or r["unsupported"]]
    assert len(rs) == 48 and not bad, (len(rs), bad)


@check
def cudnn_attention_runs_through_the_cpu_stand_in_in_its_own_layout():
    fwd = nodes(LOG + "#0/0/aot_forward_graph")
    op = fwd["_scaled_dot_product_cudnn_attention"]
    assert op["status"] == "passed" and "CUDA-only: run on the CPU" in op["schema"], op
    assert not any(n.get("cross_device_layouts") or n.get("mismatches") for n in fwd.values()), fwd
    bwd = nodes(LOG + "#0/0/aot_backward_graph")
    assert bwd["_scaled_dot_product_cudnn_attention_backward"]["status"] == "passed", bwd
    r = fxray_json("compare", LOG + "#0/0", "--no-output-code")
    assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))


def with_dropout(p_aot, p_post_grad):
    """The log with cuDNN attention's dropout_p set in its AOT forward and post-grad graphs, and SDPA's in the dynamo
    graph to p_aot."""
    out = os.path.join(TMP, "dropout-%s-%s.log" % (p_aot, p_post_grad))
    edit_trace_payload(LOG, out, "aot_forward_graph", CUDNN, CUDNN.replace("0.0, True)", "%s, True)" % p_aot))
    edit_trace_payload(out, out, "inductor_post_grad_graph", CUDNN, CUDNN.replace("0.0, True)", "%s, True)" % p_post_grad))
    return edit_trace_payload(out, out, "dynamo_output_graph", "is_causal = True)", "dropout_p = %s, is_causal = True)" % p_aot)


@check
def cudnn_attention_dropout_takes_the_aligned_draws_under_stage_compare():
    r = fxray_json("compare", with_dropout(0.3, 0.3) + "#0/0", "--no-output-code")
    assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))
    r = fxray_json("compare", with_dropout(0.3, 0.5) + "#0/0", "--no-output-code")
    assert r["verdict"] == "diverge" and r["first_divergent_stage"] == "post_grad", (r["verdict"], r.get("reason"))


@check
def an_sdpa_kernel_region_runs_and_says_a_cuda_backend_cannot_be_forced_on_the_cpu():
    dyn = nodes(LOG + "#0/0/dynamo_output_graph")
    assert dyn["_sdpa_kernel"]["status"] == "passed" and dyn["_sdpa_kernel_1"]["status"] == "passed", dyn
    sdpa = dyn["scaled_dot_product_attention"]
    assert sdpa["status"] == "passed", sdpa
    assert sdpa["schema"].endswith("[under sdpa_kernel(CUDNN_ATTENTION): CUDA backends only, the CPU picks its own kernel]"), sdpa


@check
def a_cpu_sdpa_kernel_region_applies_to_the_calls_inside_it_only():
    dyn = nodes(REGION + "#0/0/dynamo_output_graph")
    assert all(n["status"] == "passed" for n in dyn.values()), dyn
    assert dyn["inside"]["schema"].endswith("[under sdpa_kernel(MATH)]"), dyn["inside"]
    assert "sdpa_kernel" not in dyn["scaled_dot_product_attention_1"]["schema"], dyn["scaled_dot_product_attention_1"]


@check
def fused_rnn_cells_run_as_cudas_kernels_compute_them():
    for graph in ("aot_forward_graph", "aot_backward_graph", "aot_joint_graph"):
        ran = nodes(LOG + "#2/0/" + graph)
        cells = {name: n for name, n in ran.items() if name.startswith("_thnn_fused_")}
        assert len(cells) >= 2 and all(n["status"] == "passed" and "CUDA-only" in n["schema"] for n in cells.values()), (graph, cells)
    r = fxray_json("compare", LOG + "#2/0", "--no-output-code")
    assert r["verdict"] == "agree", (r["verdict"], r.get("reason"))


if __name__ == "__main__":
    main()
