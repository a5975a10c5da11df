"""Distributed graphs (issue 22): `fxray replay DIR` of per-rank TORCH_TRACE logs replays every rank together over
real Gloo process groups (tests/data/distributed, 2-rank logs written by make_fixtures.py there):
- every AOT graph of a compiled all_reduce and of a DTensor tensor-parallel MLP step passes on both ranks, with
  every collective executed; per-rank seed dumps of the TP step replay on their saved inputs and equal eager on both
  ranks; --ranks N replays one rank's log on N ranks;
- the TP step's ranks take their shards of one generated global input (cut by the recorded placements), and each
  rank's AOT forward equals the single-rank reference (the dynamo graph run unsharded on the global inputs); a
  sharding bug planted in one rank (its bias not divided for the Partial sum) differs from the reference on both;
  every rank's dynamo graph (DTensor's Python prims) runs as the unsharded computation on the reference's inputs
  and equals it, and one planted with another activation on rank 1 differs from it there;
- a 4-rank job on a 2x2 DeviceMesh whose logs name no group members: the recorded mesh gives them (tp groups
  {0,1} and {2,3}), so each pair all-reduces in its own group; without the mesh the job is refused;
- DDP with compiled autograd (python_reducer): both ranks run every graph of the compiled-autograd compile with its
  gradient all-reduces (8/8 collectives per rank), autograd nodes as LibTorch's own nodes; the raw compiled-autograd
  graph runs all but DDP's Python hooks;
- a collective-order mismatch planted in one rank's log is named before anything runs (exit 1);
- a planted hang (rank 1's graph no longer calls the all_reduce; or rank 1 hangs inside a kernel) is reported
  within the collective timeout with both ranks' pending nodes, and no worker process is left behind."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, edit_trace_payload, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

DATA = os.path.join(SOURCE, "tests", "data", "distributed")
TMP = tempfile.mkdtemp(prefix="fxray-dist-test-")
ALL_REDUCE = "torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0')"


def fxray(*args, env=None, timeout=120):
    """(exit code, stdout, stderr, seconds) of one fxray run; env adds variables."""
    t = time.time()
    p = subprocess.run([FXRAY, *args], capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr, time.time() - t


def rank_log(case, rank):
    return glob.glob(os.path.join(DATA, case, f"dedicated_log_torch_trace_rank_{rank}_*.log"))[0]


def planted(name, new):
    """A copy of the all_reduce case whose rank 1 runs `new` in place of its AOT graph's all_reduce."""
    out = os.path.join(TMP, name)
    os.makedirs(out)
    shutil.copy(rank_log("allreduce", 0), out)
    r1 = rank_log("allreduce", 1)
    edit_trace_payload(r1, os.path.join(out, os.path.basename(r1)), "aot_inference_graph", ALL_REDUCE, new)
    return out


def processes_with(tag):
    """Pids of live processes whose environment holds tag (the workers inherit fxray's environment)."""
    pids = []
    for env in glob.glob("/proc/[0-9]*/environ"):
        try:
            with open(env, "rb") as f:
                if tag.encode() in f.read():
                    pids.append(int(env.split("/")[2]))
        except OSError:
            pass
    return pids


@check
def every_collective_of_a_compiled_all_reduce_runs_on_both_ranks():
    code, out, err, _ = fxray("replay", os.path.join(DATA, "allreduce"), "--json")
    assert code == 0, out + err
    d = json.loads(out)["distributed"]
    assert d["world"] == 2 and d["backend"] == "gloo" and d["check"]["ok"], d["check"]
    assert d["check"]["groups"] == {"0": [0, 1]}, d["check"]["groups"]
    for r in d["ranks"]:
        assert [rep["verdict"] for rep in r["reports"]] == ["pass", "pass"], r
        # The dynamo graph's and the AOT graph's all_reduce, each a real Gloo all_reduce between the two workers.
        assert r["collectives_run"] == r["collectives_total"] == 2, r


@check
def replicated_inputs_agree_across_ranks_and_the_all_reduce_really_sums_them():
    code, out, err, _ = fxray("replay", os.path.join(DATA, "allreduce"), "--json")
    assert code == 0, out + err
    stats = {}
    for r in json.loads(out)["distributed"]["ranks"]:
        nodes = {n["name"]: n["outputs"][0] for n in r["reports"][1]["nodes"] if n.get("outputs")}
        stats[r["rank"]] = nodes
    # Both ranks generate the same inputs (one seed, same placeholders): the matmul before the collective agrees...
    assert stats[0]["mm"] == stats[1]["mm"], (stats[0]["mm"], stats[1]["mm"])
    # ...and the waited all_reduce holds the sum of the two ranks' values: twice each rank's own, exactly.
    for rank in (0, 1):
        mm, reduced = stats[rank]["mm"], stats[rank]["wait_tensor"]
        for key in ("min", "max", "mean"):
            assert abs(reduced[key] - 2 * mm[key]) <= 1e-6 * max(1.0, abs(mm[key])), (rank, key, mm, reduced)


@check
def a_dtensor_tensor_parallel_step_replays_its_aot_graphs_with_their_collectives():
    code, out, err, _ = fxray("replay", os.path.join(DATA, "tp_mlp"))
    lines = out.splitlines()
    rows = {l.split()[1]: l for l in lines if l.startswith("[0/0]")}
    verdicts = {record: [w for w in row.split() if w in ("pass", "unsupported", "error", "mismatch")]
                for record, row in rows.items()}
    for record in ("aot_joint_graph", "aot_forward_graph", "aot_backward_graph"):
        assert verdicts[record] == ["pass", "pass"], rows[record]
    # The dynamo-level graph holds DTensor's Python prims (from_local, redistribute): rank 0's runs as the
    # single-rank reference (unsharded), and every rank's runs as that unsharded computation on the reference's
    # global inputs, its outputs equal to the reference's.
    assert verdicts["dynamo_output_graph"] == ["pass", "pass"], out
    assert rows["dynamo_output_graph"].count("=ref") == 2, rows["dynamo_output_graph"]
    assert "single-rank reference of compile 0/0 (dynamo graph, unsharded, on the global inputs): pass 15/15" in out, out
    assert "collectives run: rank 0 2/2 rank 1 2/2" in out, out
    assert code == 0


@check
def ddp_with_compiled_autograd_runs_its_gradient_all_reduces_through_autograd_nodes_on_both_ranks():
    # DDP (python_reducer) under compiled autograd: the compiled-autograd compile's dynamo graph calls autograd nodes
    # (MeanBackward0, PowBackward0, AccumulateGrad: LibTorch's own, natively) and DDP's hook inlined after each
    # AccumulateGrad: grad / world, all_reduce, wait, copy_ into .grad.
    code, out, err, _ = fxray("replay", os.path.join(DATA, "ddp_ca"), "--json")
    d = json.loads(out)["distributed"]
    assert d["check"]["ok"], d["check"]
    for r in d["ranks"]:
        by = {rep["address"].split(":", 2)[-1]: rep for rep in r["reports"]}
        assert r["collectives_run"] == r["collectives_total"] == 8, r  # 4 all_reduces in each of 2 graphs
        for g in ("0/0/dynamo_output_graph", "0/0/aot_forward_graph", "0/0/aot_backward_graph",
                  "1/0/dynamo_output_graph", "1/0/aot_inference_graph"):
            assert by[g]["verdict"] == "pass", (g, by[g]["verdict"], by[g].get("fatal"), by[g]["unsupported"])
        nodes = {n["name"]: n for n in by["1/0/dynamo_output_graph"]["nodes"]}
        assert nodes["mean_backward0"]["schema"].startswith("torch::autograd::generated::MeanBackward0::apply")
        # Both ranks generate the same inputs: the all-reduced mean of two equal gradients is the gradient itself.
        for grad, reduced in (("getitem_42", "gradient_1"), ("getitem_45", "gradient_7")):
            a, b = nodes[grad]["outputs"][0], nodes[reduced]["outputs"][0]
            for key in ("min", "max", "mean"):
                assert abs(a[key] - b[key]) <= 1e-6 * max(1.0, abs(a[key])), (r["rank"], grad, key, a, b)
        # The raw compiled-autograd graph starts (its `sizes` from the dynamo graph's L_sizes_<k>_ placeholders and
        # create_symbol hints) and runs every node but DDP's four post-accumulate-grad hooks, which are Python.
        ca = by["!0/compiled_autograd_graph"]
        assert not ca.get("fatal"), ca.get("fatal")
        assert ca["unsupported"] == ["needs Python: call_hook runs a user hook (post_acc_grad_hook): call_hook, "
                                     "call_hook_1, call_hook_2, call_hook_3"], ca["unsupported"]
        assert ca["counts"]["unsupported"] == 4 and ca["counts"]["passed"] == 71, ca["counts"]
    assert code == 1  # the hooks


def tp_mlp_with_rank1_edited(name, record, old, new):
    """A copy of the tp_mlp logs in which rank 1's `record` has `old` replaced by `new`; rank 0's as recorded."""
    out = os.path.join(TMP, name)
    os.makedirs(out)
    shutil.copy(rank_log("tp_mlp", 0), out)
    r1 = rank_log("tp_mlp", 1)
    edit_trace_payload(r1, os.path.join(out, os.path.basename(r1)), record, old, new)
    return out


def reference_run(folder, *extra):
    code, out, err, _ = fxray("replay", folder, "--json", *extra)
    assert code in (0, 1), out + err
    d = json.loads(out)["distributed"]
    forwards = {r["rank"]: next(rep for rep in r["reports"] if rep["address"].endswith("aot_forward_graph")) for r in d["ranks"]}
    return code, d, forwards


@check
def the_ranks_take_shards_of_one_global_input_and_equal_the_single_rank_reference():
    code, d, forwards = reference_run(os.path.join(DATA, "tp_mlp"))
    refs = d["references"]
    # Rank 0's dynamo graph, run unsharded (DTensor prims as identities) on the global inputs, cleanly.
    assert len(refs["graphs"]) == 1 and refs["graphs"][0]["saved"], refs
    assert refs["graphs"][0]["report"]["verdict"] == "pass", refs["graphs"][0]["report"]["nodes"]
    assert refs["rank_graphs"] == 2, refs
    stats = {}
    for rank, fwd in forwards.items():
        assert fwd["verdict"] == "pass", fwd
        assert fwd["reference"].startswith("single-rank reference"), fwd["reference"]
        compared = [c for c in fwd["comparisons"] if c["compared"]]
        assert len(compared) == 1 and compared[0]["ok"], fwd["comparisons"]  # the step's output, replicated
        stats[rank] = {n["name"]: n["outputs"][0] for n in fwd["nodes"] if n.get("outputs")}
    # The column-sharded weight's rank halves of one global tensor differ (the same seed alone would make them
    # equal); the replicated input is the same on both ranks.
    assert stats[0]["t"] != stats[1]["t"], (stats[0]["t"], stats[1]["t"])
    assert stats[0]["view"] == stats[1]["view"], (stats[0]["view"], stats[1]["view"])
    assert refs["unsharded_graphs"] == 2, refs
    assert code == 0


@check
def a_rank_whose_dynamo_graph_computes_another_step_differs_from_the_single_rank_reference():
    # Rank 1's record of the program has another activation: its dynamo graph, run unsharded on the reference's
    # global inputs, gives another output than rank 0's (the reference); rank 0's equals it.
    out = tp_mlp_with_rank1_edited("dynamo_bug", "dynamo_output_graph",
                                   "torch.nn.functional.relu(hook_result, inplace = False)",
                                   "torch.nn.functional.silu(hook_result, inplace = False)")
    code, d, _ = reference_run(out)
    assert code == 1
    dynamo = {r["rank"]: next(rep for rep in r["reports"] if rep["address"].endswith("dynamo_output_graph"))
              for r in d["ranks"]}
    for rank, ok in ((0, True), (1, False)):
        rep = dynamo[rank]
        assert rep["reference"] == "single-rank reference (the unsharded computation, whole)", rep["reference"]
        compared = [c for c in rep["comparisons"] if c["compared"]]
        assert len(compared) == 1 and compared[0]["ok"] == ok, (rank, rep["comparisons"])
        assert any("replayed as the unsharded computation" in n for n in rep["notes"]), rep["notes"]
    assert dynamo[1]["verdict"] != "pass", dynamo[1]["verdict"]


@check
def a_sharding_bug_on_one_rank_differs_from_the_single_rank_reference():
    # RowwiseParallel's bias is added once per rank before the Partial sum, so each rank adds bias / 2; rank 1 now
    # adds it whole: every node still runs, every collective matches, only the reference sees the wrong sum.
    out = tp_mlp_with_rank1_edited("bias_bug", "aot_forward_graph",
                                   "torch.ops.aten.div.Tensor(primals_5, 2)", "torch.ops.aten.div.Tensor(primals_5, 1)")
    code, d, forwards = reference_run(out)
    assert code == 1
    for rank, fwd in forwards.items():
        compared = [c for c in fwd["comparisons"] if c["compared"]]
        assert compared and not compared[0]["ok"], (rank, fwd["comparisons"])
        assert fwd["verdict"] != "pass", fwd["verdict"]
    # --no-reference: the old per-rank replay, which passes the forward on both ranks.
    _, d, forwards = reference_run(out, "--no-reference")
    assert d["references"]["graphs"] == [] and all(f["verdict"] == "pass" for f in forwards.values()), forwards


# A describe_tensor record as torch 2.11 writes it for a DTensor on a 2x2 mesh (only its ctx is read here).
MESH_RECORD = ('V1127 01:38:04.000000 1477 torch/_subclasses/meta_utils.py:499] {"describe_tensor": {"id": 99, "ndim": 1, '
               '"dtype": "torch.float32", "size": [4], "ctx": "(DTensorSpec(mesh=DeviceMesh((dp=2, tp=2), \'cpu\', '
               'stride=(2, 1)), placements=(Replicate(), Shard(dim=0)), ...)", "describer_id": 4}, "rank": %d, '
               '"frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n')


def four_ranks(name, mesh):
    """The all_reduce case on 4 ranks, each pair in its own tp group of a 2x2 mesh ("3": ranks 0-1, "4": ranks 2-3,
    torch's names for them), with the mesh recorded or not."""
    out = os.path.join(TMP, name)
    os.makedirs(out)
    for rank in range(4):
        group = "3" if rank < 2 else "4"
        tmp = os.path.join(out, "tmp.log")
        with open(rank_log("allreduce", 0)) as f:
            text = f.read().replace('"rank": 0,', '"rank": %d,' % rank)
        with open(tmp, "w") as f:
            f.write((MESH_RECORD % rank if mesh else "") + text)
        dst = os.path.join(out, f"dedicated_log_torch_trace_rank_{rank}_x.log")
        edit_trace_payload(tmp, tmp, "dynamo_output_graph", "all_reduce(y, 'sum', '0')", f"all_reduce(y, 'sum', '{group}')")
        edit_trace_payload(tmp, dst, "aot_inference_graph", "(mm, 'sum', '0')", f"(mm, 'sum', '{group}')")
        os.remove(tmp)
    return out


@check
def group_members_come_from_the_recorded_mesh_on_four_ranks():
    code, out, err, _ = fxray("replay", four_ranks("mesh4", True), "--json", timeout=300)
    assert code == 0, out + err
    d = json.loads(out)["distributed"]
    assert d["check"]["groups"] == {"3": [0, 1], "4": [2, 3]}, d["check"]
    assert any("mesh's sub-group" in n for n in d["check"]["notes"]), d["check"]["notes"]
    assert [r["collectives_run"] for r in d["ranks"]] == [2, 2, 2, 2], d["ranks"]
    # Every rank's wait_tensor holds its pair's sum: twice its own (equal inputs), not four times.
    for r in d["ranks"]:
        nodes = {n["name"]: n["outputs"][0] for n in r["reports"][1]["nodes"] if n.get("outputs")}
        assert abs(nodes["wait_tensor"]["max"] - 2 * nodes["mm"]["max"]) <= 1e-5 * max(1.0, abs(nodes["mm"]["max"])), nodes
    # Without the mesh nothing says who is in "3" and "4": every rank, which ranks 2 and 3 never call.
    code, out, err, _ = fxray("replay", four_ranks("nomesh4", False), "--check-only")
    assert code == 1 and "group '3'" in out, out


@check
def per_rank_seed_dumps_replay_on_their_saved_inputs_and_equal_eager_on_every_rank():
    # tools/capture's dumps of the TP step, one folder per rank: the real all_reduce of the replay gives what the
    # captured run's did, so every output of every rank equals eager's.
    code, out, err, _ = fxray("replay", os.path.join(DATA, "tp_mlp_dumps"), "--inputs", "saved", "--expected", "auto", "--json")
    assert code == 0, out + err
    d = json.loads(out)
    ranks = d["distributed"]["ranks"]
    assert [r["collectives_run"] for r in ranks] == [2, 2], ranks
    # Run order within a rank: forward, then backward, the joint graph last.
    assert [os.path.basename(rep["address"]).split("_")[-2] for rep in ranks[1]["reports"]] == ["forward", "backward", "joint"]
    for rep in d["reports"]:
        assert rep["verdict"] == "pass" and rep["comparisons"], rep["address"]
        assert all(c["ok"] and c["compared"] for c in rep["comparisons"]), rep["comparisons"]


@check
def ranks_n_replays_one_ranks_log_on_n_ranks():
    one = os.path.join(TMP, "one_rank")
    os.makedirs(one)
    shutil.copy(rank_log("allreduce", 0), one)
    code, out, err, _ = fxray("replay", one, "--ranks", "2", "--json")
    assert code == 0, out + err
    d = json.loads(out)["distributed"]
    assert [r["collectives_run"] for r in d["ranks"]] == [2, 2], d["ranks"]


@check
def a_collective_order_mismatch_is_named_before_anything_runs():
    bad = planted("mismatch", "torch.ops._c10d_functional.all_gather_into_tensor.default(mm, 2, '0')")
    tag = uuid.uuid4().hex
    code, out, err, _ = fxray("replay", bad, env={"FXRAY_TEST_TAG": tag})
    assert code == 1, out + err
    assert "collective check failed before anything ran" in out, out
    assert ("group '0', collective #2: rank 1 calls all_gather_into_tensor f32[4, 16] on group '0' (node all_reduce)"
            in out), out
    assert "where rank 0 calls all_reduce sum f32[4, 16] on group '0' (node all_reduce)" in out, out
    assert "distributed replay:" not in out  # no worker started, no graph replayed


@check
def a_rank_that_skips_a_collective_is_reported_within_the_timeout_and_no_worker_is_left():
    bad = planted("skip", "torch.ops.aten.clone.default(mm)")
    tag = uuid.uuid4().hex
    code, out, err, seconds = fxray("replay", bad, "--no-collective-check", "--collective-timeout", "5",
                                    env={"FXRAY_TEST_TAG": tag})
    assert code == 1, out + err
    # 5 s of collective timeout, plus the workers' start and the grace: well under the test's patience.
    assert seconds < 30, seconds
    pending = {l.split()[1]: l for l in out.splitlines() if l.strip().startswith("rank") and "pending:" in l}
    assert "node wait_tensor" in pending["0"] and "waiting on all_reduce" in pending["0"], out
    assert "Timed out" in pending["0"], out
    assert "finished its 2 graph(s)" in pending["1"], out
    assert processes_with(tag) == [], processes_with(tag)


@check
def a_rank_hung_inside_a_kernel_is_killed_at_its_node_and_its_peer_times_out():
    tag = uuid.uuid4().hex
    # Rank 1's worker hangs at the AOT graph's matmul (fault injection), before its all_reduce.
    code, out, err, seconds = fxray("replay", os.path.join(DATA, "allreduce"), "--collective-timeout", "5",
                                    env={"FXRAY_TEST_TAG": tag, "FXRAY_WORKER_FAULT": "hang:mm",
                                         "FXRAY_WORKER_FAULT_RANK": "1"})
    assert code == 1, out + err
    assert seconds < 30, seconds
    pending = {l.split()[1]: l for l in out.splitlines() if l.strip().startswith("rank") and "pending:" in l}
    assert "aot_inference_graph: node wait_tensor" in pending["0"], out
    assert "node mm (aten.mm.default) (killed)" in pending["1"], out
    assert processes_with(tag) == [], processes_with(tag)


@check
def workers_do_not_outlive_an_fxray_that_is_killed_mid_collective():
    # Rank 1 hangs inside a kernel (it would sleep for an hour), rank 0 waits on it in the all_reduce; then the
    # fxray that runs the job is killed outright, with no chance to stop its workers.
    tag = uuid.uuid4().hex
    p = subprocess.Popen([FXRAY, "replay", os.path.join(DATA, "allreduce"), "--collective-timeout", "120"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, "FXRAY_TEST_TAG": tag, "FXRAY_WORKER_FAULT": "hang:mm",
                              "FXRAY_WORKER_FAULT_RANK": "1", "TMPDIR": TMP})  # its rendezvous folder stays: ours
    deadline = time.time() + 60
    while len(processes_with(tag)) < 3 and time.time() < deadline:  # fxray and its two workers
        time.sleep(0.1)
    assert len(processes_with(tag)) >= 3, processes_with(tag)
    time.sleep(1.5)
    p.kill()
    p.wait()
    deadline = time.time() + 10
    while processes_with(tag) and time.time() < deadline:
        time.sleep(0.1)
    assert processes_with(tag) == [], processes_with(tag)


@check
def a_worker_whose_fxray_died_before_it_started_watching_ends_itself():
    # The race of a killed fxray: its worker was still loading LibTorch, so init is the worker's parent by the time
    # it looks. The pid of the job's fxray (FXRAY_DIST_PARENT), here one that has exited, is watched too: the worker
    # ends at once (exit 4) instead of waiting in the rendezvous for a peer that never comes.
    dead = subprocess.Popen(["true"])
    dead.wait()
    store = os.path.join(TMP, "orphan", "store")
    os.makedirs(os.path.dirname(store))
    env = {**os.environ, "FXRAY_DIST_RANK": "0", "FXRAY_DIST_WORLD": "2", "FXRAY_DIST_STORE": store,
           "FXRAY_DIST_GROUPS": "0=0,1", "FXRAY_DIST_TIMEOUT_MS": "60000", "FXRAY_DIST_BACKEND": "gloo",
           "FXRAY_DIST_PARENT": str(dead.pid)}
    t = time.time()
    p = subprocess.run([FXRAY, "worker"], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=50)
    assert p.returncode == 4, (p.returncode, p.stderr[-500:])
    assert time.time() - t < 40, time.time() - t


@check
def a_group_naming_a_rank_outside_the_job_is_refused():
    code, out, err, _ = fxray("replay", os.path.join(DATA, "allreduce"), "--group", "0=0,5")
    assert code == 2 and "group '0' names rank 5 but the job has 2 ranks" in err, (code, out, err)


@check
def minimize_of_a_graph_with_collectives_says_what_it_cannot_do():
    # Alone, every candidate's all_reduce fails to find its process group: minimize would shrink to that error.
    graph = os.path.join(DATA, "tp_mlp_dumps", "tp_mlp_rank0", "tp_mlp_rank0_forward_0")
    code, out, err, _ = fxray("minimize", graph, "--until", "error", "-o", os.path.join(TMP, "min"))
    assert code == 2 and "minimize runs one rank" in err and "all_reduce sum f32[4, 16] on group '0'" in err, (code, err)
    assert not os.path.exists(os.path.join(TMP, "min", "repro.py")), os.listdir(os.path.join(TMP, "min"))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
