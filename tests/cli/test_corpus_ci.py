"""The CI slice of the real-model corpus (tools/corpus/run_corpus.py --slice ci): Qwen2, DistilBERT and
ShuffleNet random-initialised from small configs, a training step and a bf16 inference each (dropout at the
configs' values: DistilBERT's training compile draws dropout masks), DistilBERT's dynamic-shape recompile (three
sequence lengths), a 2-rank tensor-parallel step (DTensor, Gloo), one inductor TORCH_TRACE (DistilBERT) and a
handful of OpInfo ops, captured on the CPU, then `fxray info` and `fxray replay` (saved inputs vs eager outputs,
and random inputs; the tensor-parallel ranks as one 2-rank Gloo job) over all of it. Capture loses no graph, every graph and
every trace record loads, no fxray process crashes, and the totals meet tools/corpus/thresholds.json's "ci"
section (read back from the run's summary.json: tighten them there). ~3 minutes on 2 cores."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, have_worker, main  # noqa: E402

NEEDS = "import torch, transformers, timm, torchvision, expecttest"
if subprocess.run([sys.executable, "-c", NEEDS], capture_output=True).returncode != 0:
    print(f"{sys.executable} lacks torch/transformers/timm/torchvision/expecttest (scripts/bootstrap.sh): skipped")
    sys.exit(0)
if not have_worker():  # builds without LibTorch (the ASan stage) have no replay; the slice is about replay too
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

OUT = tempfile.mkdtemp(prefix="fxray-corpus-ci-")
if not os.environ.get("FXRAY_KEEP_CORPUS"):  # tens of MB of dumps; FXRAY_KEEP_CORPUS=1 keeps them to look at
    atexit.register(shutil.rmtree, OUT, True)
RUN = subprocess.run([sys.executable, os.path.join(SOURCE, "tools", "corpus", "run_corpus.py"), "--slice", "ci",
                      "--out", OUT, "--fxray", FXRAY], capture_output=True, text=True, timeout=540)
print(RUN.stdout[-6000:], RUN.stderr[-3000:])
SUMMARY = json.load(open(os.path.join(OUT, "summary.json")))
TOTALS = SUMMARY["totals"]


@check
def capture_loses_no_graph_of_the_slice():
    assert TOTALS["lost"] == 0 and TOTALS["steps_failed"] == 0, TOTALS
    # 3 models x (forward, backward, joint, inference) at least, plus the ops' graphs
    assert TOTALS["captured"] >= 12 + 7, TOTALS
    for row in SUMMARY["rows"]:
        assert row["captured"] > 0, row["model"]


@check
def every_graph_has_its_real_inputs_eager_outputs_and_rng_state():
    for root, _, files in os.walk(OUT):
        if "module.py" in files:
            stem = os.path.basename(root)
            assert {f"{stem}.pt", f"{stem}.expected.pt", f"{stem}.rng.pt"} <= set(files), (root, sorted(files))


def _dumps(entry: str) -> dict:
    """{graph folder name: module.py text} of one corpus entry."""
    found = {}
    for root, _, files in os.walk(os.path.join(OUT, "models", entry, "dumps")):
        if "module.py" in files:
            found[os.path.basename(root)] = open(os.path.join(root, "module.py")).read()
    return found


def _saved_replays(entry: str) -> list:
    reports = json.load(open(os.path.join(OUT, "fxray_reports.json")))["saved"]
    return [r for r in reports if f"/models/{entry}/" in (r.get("address") or r.get("path", ""))]


@check
def the_slice_holds_a_dropout_training_compile():
    graphs = _dumps("distilbert")
    random = [g for g, text in graphs.items() if "native_dropout" in text]
    assert any("_forward_" in g for g in random) and any("_joint_" in g for g in random), sorted(graphs)
    assert {os.path.basename(r["address"]) for r in _saved_replays("distilbert")} >= set(random)


@check
def the_slice_holds_a_dynamic_shape_recompile():
    graphs = _dumps("distilbert.dynamic")
    # lengths 16, 12, 8: the second recompiles with a symbolic length, the third reuses that graph
    assert {"distilbert.dynamic_forward_0", "distilbert.dynamic_forward_1"} <= set(graphs), sorted(graphs)
    d = os.path.join(OUT, "models", "distilbert.dynamic", "dumps", "distilbert.dynamic", "distilbert.dynamic_forward_1")
    assert "Sym(" in open(os.path.join(d, "distilbert.dynamic_forward_1.readable.py")).read()
    assert "Sym(" not in open(os.path.join(os.path.dirname(d), "distilbert.dynamic_forward_0",
                                           "distilbert.dynamic_forward_0.readable.py")).read()


@check
def the_tensor_parallel_step_is_captured_loaded_and_replayed_as_one_two_rank_job():
    graphs = _dumps("dtensor_tp")
    for rank in (0, 1):
        mine = {g for g in graphs if g.startswith(f"dtensor_tp_rank{rank}_")}
        assert {f"dtensor_tp_rank{rank}_{k}_0" for k in ("forward", "backward", "joint")} <= mine, sorted(graphs)
        assert any("_c10d_functional.all_reduce" in graphs[g] for g in mine)
        replayed = {os.path.basename(r["address"]) for r in _saved_replays("dtensor_tp")}
        assert mine <= replayed, (mine, replayed)
    # Its all_reduce nodes pass only when the ranks ran together: alone, each stops at "Could not resolve the
    # process group registered under the name 0".
    bad = [(r["address"], r["verdict"]) for r in _saved_replays("dtensor_tp") if r["verdict"] != "pass"]
    assert not bad, bad
    row = next(r for r in SUMMARY["rows"] if r["model"] == "dtensor_tp")
    assert row["loaded"] == row["captured"] == len(graphs), row
    assert row["collectives"]["dumps"].get("_c10d_functional.all_reduce", 0) > 0, row["collectives"]


@check
def every_captured_graph_and_trace_record_loads():
    assert TOTALS["loaded"] == TOTALS["captured"], TOTALS
    assert TOTALS["trace_records"] > 0 and TOTALS["trace_loaded"] >= TOTALS["trace_records"], TOTALS
    loads = [f for row in SUMMARY["rows"] for f in row["failures"] if f["phase"] == "load"]
    assert not loads, loads


@check
def no_fxray_process_crashes():
    assert TOTALS["fxray_crashes"] == 0, [f for row in SUMMARY["rows"] for f in row["failures"] if "crash" in f["reason"]]


@check
def totals_meet_the_ci_thresholds():
    assert SUMMARY["thresholds_set"] == "ci"
    failed = {k: c for k, c in SUMMARY["checks"].items() if not c["ok"]}
    assert not failed, failed
    assert RUN.returncode == 0, RUN.returncode


if __name__ == "__main__":
    main()
