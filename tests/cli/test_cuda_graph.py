"""`fxray replay --cuda-graph` without a GPU: the safety analysis a cudagraph backend makes runs on any device and
names the node and the reason (inputs mutated through schema alias info, host syncs, nondeterministic ops); the
replay itself stays eager and its verdict is untouched. Fixtures: tests/data/cuda_graph (made by
tools/capture/cuda_graph_samples.py with the pip torch on CPU). The capture itself is tested on the H100 by
tests/cuda/test_cuda_graph_cuda.py."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, have_worker, main, run  # noqa: E402

DATA = os.path.join(SOURCE, "tests", "data", "cuda_graph")


def cg_report(name, *extra):
    path = os.path.join(DATA, name, name + "_forward_0")
    code, out, err = run("replay", path, "--cuda-graph", "--json", *extra)
    assert code in (0, 1), (code, err)
    report = json.loads(out)
    return code, report, report["cuda_graph"]


def kinds(cg):
    return sorted((f["kind"], f["node"], f["blocking"]) for f in cg["findings"])


@check
def cpu_replay_reports_not_cuda_and_stays_eager_with_a_passing_verdict():
    code, report, cg = cg_report("cg_clean")
    assert code == 0 and report["verdict"] == "pass", report["verdict"]
    assert cg["status"] == "unsafe", cg
    assert kinds(cg) == [("not-cuda", "", True)], kinds(cg)
    assert "CUDA device" in cg["reason"], cg["reason"]
    assert cg["replay_us"] == [] and cg["vs_eager"] == []


@check
def copy_into_an_input_is_a_mutation_naming_the_placeholder():
    _, _, cg = cg_report("cg_mutation")
    muts = [f for f in cg["findings"] if f["kind"] == "mutates-input"]
    assert len(muts) == 1, cg["findings"]
    assert muts[0]["node"] == "copy_" and muts[0]["blocking"], muts
    assert "'arg0_1'" in muts[0]["message"] and "argument 'self'" in muts[0]["message"], muts[0]["message"]


@check
def boolean_mask_indexing_and_item_are_host_syncs():
    _, _, nz = cg_report("cg_nonzero")
    assert ("host-sync", "index", True) in kinds(nz), kinds(nz)
    _, _, it = cg_report("cg_item")
    assert ("host-sync", "_local_scalar_dense", True) in kinds(it), kinds(it)


@check
def index_add_is_listed_as_nondeterministic_but_does_not_block():
    _, _, cg = cg_report("cg_index_add")
    assert ("nondeterministic", "index_add", False) in kinds(cg), kinds(cg)
    assert cg["nondeterministic_ops"] == ["aten.index_add.default"], cg["nondeterministic_ops"]
    # Only the device blocks here.
    assert [f["kind"] for f in cg["findings"] if f["blocking"]] == ["not-cuda"], cg["findings"]


@check
def clean_graph_has_no_finding_but_the_device():
    _, _, cg = cg_report("cg_clean")
    assert [f["kind"] for f in cg["findings"]] == ["not-cuda"], cg["findings"]


@check
def text_report_says_what_blocks_and_that_the_replay_was_eager():
    code, out, err = run("replay", os.path.join(DATA, "cg_mutation", "cg_mutation_forward_0"), "--cuda-graph")
    assert code == 0, err
    assert "CUDA graph: unsafe" in out and "replayed eagerly" in out, out
    assert "blocks: copy_: aten.copy_.default writes into graph input 'arg0_1'" in out, out


@check
def cpu_repeats_stay_interpreted_without_a_cuda_graph_section():
    # Only CUDA repeats run as a captured graph (issue 24); on the CPU each repeat is the interpreted checked pass.
    path = os.path.join(DATA, "cg_clean", "cg_clean_forward_0")
    for extra in ((), ("--interpreted-repeats",)):
        code, out, err = run("replay", path, "--json", "--repeat", "4", "--warmup", "1", *extra)
        assert code == 0, err
        report = json.loads(out)
        assert "cuda_graph" not in report and len(report["iteration_us"]) == 4, report
        assert not any(n.startswith("timed repeats") for n in report["notes"]), report["notes"]


@check
def without_the_flag_there_is_no_cuda_graph_section():
    code, out, _ = run("replay", os.path.join(DATA, "cg_clean", "cg_clean_forward_0"), "--json")
    assert code == 0 and "cuda_graph" not in json.loads(out)


if __name__ == "__main__":
    if not have_worker():
        print("SKIP: this fxray was built without LibTorch (no replay)")
        sys.exit(0)
    main()
