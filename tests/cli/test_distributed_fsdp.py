"""Traceable FSDP2 in a distributed replay (issue 22): tests/data/distributed/fsdp2_ca holds the graph records of a real
2-rank run of tools/corpus/capture_distributed.py --recipe fsdp2_ca (fully_shard, compiled autograd, compiled
collectives; CUDA, NCCL, 2 H100s, aot_eager), cut with tests/data/rng/slice_trace.py LOG all OUT, and replayed here on
the CPU over Gloo (the graphs' cuda devices map to the replay device). It protects:
- dynamo's BackwardState input (`dynamo_backward_state`, the AOT graphs' `primals_10`), a Python object with no
  metadata, loads as an opaque value: the graphs run, `_register_hook_trampoline` runs as a no-op and the backward's
  trace_wrapped (a Python hook held in the BackwardState) is named unsupported; the parameters FSDP2 frees after the
  forward (storage resized to 0) make the nodes that read them skipped with that reason, not a crash or an error;
  auto_functionalized_v2 runs FSDP2's split_with_sizes_copy / chunk_cat, so every collective runs on both ranks;
  CUDA streams and events (ordered already on one stream), version counters and .itemsize plan, so the forward
  graphs pass whole;
- one graph's fatal error costs that graph only: a graph with collectives that one rank cannot start (planted: rank
  1's forward loses an input's annotation) is skipped on every rank, decided before anything runs, and the job goes
  on; graphs that no rank can start (--inputs saved on a log) each fail alone and the job goes on."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, edit_trace_payload, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

FSDP = os.path.join(SOURCE, "tests", "data", "distributed", "fsdp2_ca")
TMP = tempfile.mkdtemp(prefix="fxray-fsdp-test-")
GRAPHS = ["0/0_1/dynamo_output_graph", "0/0_1/aot_joint_graph", "0/0_1/aot_forward_graph", "0/0_1/aot_backward_graph",
          "!0/compiled_autograd_graph", "2/0/dynamo_output_graph", "2/0/aot_inference_graph"]


def fxray(*args, timeout=120):
    """(exit code, stdout, stderr, seconds) of one fxray run."""
    t = time.time()
    p = subprocess.run([FXRAY, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.time() - t


def rank_log(rank):
    return glob.glob(os.path.join(FSDP, f"dedicated_log_torch_trace_rank_{rank}_*.log"))[0]


def job(folder, *extra):
    """The distributed part of `fxray replay folder --json`, and {(rank, graph): report}. A hang would fail fast."""
    code, out, err, seconds = fxray("replay", folder, "--json", "--collective-timeout", "5", *extra)
    assert seconds < 60, seconds
    d = json.loads(out)["distributed"]
    reports = {(r["rank"], rep["address"].split(":", 2)[-1]): rep for r in d["ranks"] for rep in r["reports"]}
    return code, d, reports


def node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


@check
def the_backward_state_input_loads_as_an_opaque_value_and_every_graph_runs_on_both_ranks():
    code, d, reports = job(FSDP)
    assert not d["stopped_early"] and d["skipped"] == [], (d["why"], d["skipped"])
    for rank in (0, 1):
        assert [k[1] for k in reports if k[0] == rank] == GRAPHS
        for g in GRAPHS:
            assert not reports[(rank, g)].get("fatal"), (rank, g, reports[(rank, g)].get("fatal"))
        dyn = reports[(rank, "0/0_1/dynamo_output_graph")]
        assert any("'dynamo_backward_state' is a Python object the graph only passes along" in n for n in dyn["notes"]), dyn["notes"]
        assert node(dyn, "_register_hook_trampoline")["status"] == "passed", node(dyn, "_register_hook_trampoline")
        assert node(dyn, "all_gather_output")["status"] == "passed"
        # The forward's all_gather of the sharded parameters, a real Gloo collective between the two workers.
        assert node(dyn, "tensor")["status"] == "passed" and node(dyn, "res")["status"] == "passed"
        bwd = reports[(rank, "0/0_1/aot_backward_graph")]
        tw = node(bwd, "trace_wrapped")
        assert tw["status"] == "unsupported" and "BackwardState (bw_state=primals_10)" in tw["error"], tw
        # primals_8, freed by the forward (FSDP2's reshard), is read before the hook would gather it again.
        t1 = node(bwd, "t_1")
        assert t1["status"] == "skipped" and "'primals_8' has no storage for its elements" in t1["error"], t1
        # The forward's all_gather of the flat shards, then auto_functionalized_v2(fsdp.split_with_sizes_copy): both
        # ranks generated the same shard (one seed), so the unsharded parameter is that shard twice over.
        fwd = reports[(rank, "0/0_1/aot_forward_graph")]
        assert node(fwd, "auto_functionalized_v2")["status"] == "passed", node(fwd, "auto_functionalized_v2")
        shard, whole = node(fwd, "primals_2")["outputs"][0], node(fwd, "getitem_3")["outputs"][0]
        assert whole["numel"] == 2 * shard["numel"] == 4096, (shard, whole)
        assert all(abs(whole[k] - shard[k]) <= 1e-6 for k in ("min", "max", "mean")), (shard, whole)
        # CUDA streams and events order nothing on one stream; version counters and itemsize are plain values: the
        # forward's graphs and the compiled-autograd compile's inference graph pass whole.
        for g in ("0/0_1/dynamo_output_graph", "0/0_1/aot_forward_graph", "2/0/aot_inference_graph"):
            assert reports[(rank, g)]["verdict"] == "pass", (rank, g, reports[(rank, g)]["unsupported"])
        assert node(dyn, "wait_stream")["status"] == "passed" and "one stream" in node(dyn, "wait_stream")["schema"]
    runs = [(r["collectives_run"], r["collectives_total"]) for r in d["ranks"]]
    assert runs == [(7, 7), (7, 7)], runs
    assert code == 1  # the Python hooks (trace_wrapped) and DTensor's from_local stay unsupported


@check
def a_graph_with_collectives_one_rank_cannot_start_is_skipped_on_every_rank_and_the_job_goes_on():
    planted = os.path.join(TMP, "planted")
    os.makedirs(planted)
    shutil.copy(rank_log(0), planted)
    r1 = rank_log(1)
    edit_trace_payload(r1, os.path.join(planted, os.path.basename(r1)), "aot_forward_graph",
                       'primals_2: "f32[2048][1]cuda:1",', "primals_2,")
    code, d, reports = job(planted)
    assert not d["stopped_early"], d["why"]
    assert [(s["graph"], s["rank"]) for s in d["skipped"]] == [("[0/0_1] aot_forward_graph", 1)], d["skipped"]
    assert "input 'primals_2' has no recorded metadata" in d["skipped"][0]["reason"], d["skipped"]
    for rank in (0, 1):
        fwd = reports[(rank, "0/0_1/aot_forward_graph")]
        assert fwd["fatal"].startswith("skipped on every rank: rank 1 cannot start it"), fwd["fatal"]
        # Its backward does not replay it for the saved activations on one rank and not the other.
        bwd = reports[(rank, "0/0_1/aot_backward_graph")]
        assert any("was skipped on every rank" in n for n in bwd["notes"]), bwd["notes"]
        for g in GRAPHS[3:]:
            assert not reports[(rank, g)].get("fatal"), (rank, g, reports[(rank, g)]["fatal"])
    # Both ranks make the same collectives, the skipped forward's all_gather left out.
    runs = [(r["collectives_run"], r["collectives_total"]) for r in d["ranks"]]
    assert runs == [(6, 6), (6, 6)], runs
    code, out, err, _ = fxray("replay", planted, "--check-only")
    assert "skipped on every rank: [0/0_1] aot_forward_graph: rank 1 cannot start it" in out, out


@check
def graphs_no_rank_can_start_each_cost_themselves_only():
    # A trace log holds no saved inputs: every graph fails before it starts, on both ranks alike (which the static
    # check does not foresee). No rank entered a collective, so each graph is reported and the next one runs.
    code, d, reports = job(FSDP, "--inputs", "saved")
    assert code == 1 and not d["stopped_early"], d["why"]
    for rank in (0, 1):
        for g in GRAPHS:
            assert "has no saved inputs" in reports[(rank, g)]["fatal"], (rank, g, reports[(rank, g)]["fatal"])
        assert any("could not start on any rank" in n for n in reports[(rank, GRAPHS[0])]["notes"])


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
