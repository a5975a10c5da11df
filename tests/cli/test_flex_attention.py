"""flex_attention (issue 21), on a real capture (tests/data/flex, written by make_flex.py there): the AOT graph calls
torch.ops.higher_order.flex_attention with a score_mod (a relative-position bias) and a causal mask_mod, both
subgraphs of the dump (nested classes of the readable file; to_folder pickles them as sdpa_score0.pt). fxray runs
the op by its eager math with the subgraphs planned and run like any graph: a saved-input replay equals eager by
value, generated inputs replay clean, and a change planted in the mask subgraph changes the output (the subgraph
is what runs, not a stand-in). A dump with only module.py (functorch's graph_dumper_aot writes no readable file)
has the subgraphs only as the GraphModules to_folder pickled (sdpa_score0.pt): fxray reads their `_code` and
replays the same, and a change planted in the pickled mask_mod changes the output the same way. A TORCH_TRACE's
fx_graph_runnable (flex_causal.log, make_flex_log.py) names them as `<lambda>()` only: it takes them from the same
compile's records that hold them. The dynamo-level graphs of the compile vmap the mask_mod (create_block_mask):
they run on LibTorch's functorch, agree with the AOT and post-grad stages, and a change planted in the vmapped
mask_mod changes the block mask it computes. A training step's backward (flex_gqa_train, grouped heads) calls
flex_attention_backward: fxray runs it by sdpa_dense_backward's math (scores recomputed, dS through joint_graph and
the mask, the repeated heads summed back) and equals eager's gradients; Qwen2 and BART lost 13 graphs to it on an
H100 before."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, edit_trace_payload, equals_recorded_eager, have_worker, main  # noqa: E402

LOG = os.path.join(SOURCE, "tests", "data", "flex", "flex_causal.log")

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

DUMP = os.path.join(SOURCE, "tests", "data", "flex", "flex_causal", "flex_causal_forward_0")
BACKWARD = os.path.join(SOURCE, "tests", "data", "flex", "flex_gqa_train", "flex_gqa_train_backward_0")
TMP = tempfile.mkdtemp(prefix="fxray-flex-")


def report(dump, *args):
    p = subprocess.run([FXRAY, "replay", dump, *args, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


def with_diagonal_masked(dump):
    """A copy of `dump` whose readable causal mask_mod (kv_idx <= q_idx) masks the diagonal out too."""
    name = os.path.basename(dump)
    planted = os.path.join(TMP, name)
    shutil.copytree(dump, planted)
    readable = os.path.join(planted, name + ".readable.py")
    with open(readable) as f:
        text = f.read()
    old = "torch.ops.aten.le.Tensor(arg3_1, arg2_1)"
    assert text.count(old) == 1, text
    with open(readable, "w") as f:
        f.write(text.replace(old, "torch.ops.aten.lt.Tensor(arg3_1, arg2_1)"))
    return planted


@check
def flex_attention_runs_its_subgraphs_and_equals_eager():
    r = report(DUMP, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass", (r["verdict"], r["unsupported"], [n for n in r["nodes"] if n["status"] != "passed"][:3])
    flex = [n for n in r["nodes"] if n["target"] == "higher_order.flex_attention"]
    assert len(flex) == 1 and flex[0]["status"] == "passed", flex
    assert r["comparisons"] and all(equals_recorded_eager(c) for c in r["comparisons"]), r["comparisons"]
    assert report(DUMP)["verdict"] == "pass"


@check
def flex_attention_backward_with_grouped_heads_equals_eagers_gradients():
    r = report(BACKWARD, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass", (r["verdict"], r["unsupported"], [n for n in r["nodes"] if n["status"] != "passed"][:3])
    backward = [n for n in r["nodes"] if n["target"] == "higher_order.flex_attention_backward"]
    assert len(backward) == 1 and backward[0]["status"] == "passed", backward
    assert len(r["comparisons"]) == 3 and all(equals_recorded_eager(c) for c in r["comparisons"]), r["comparisons"]
    # The mask is applied to the score gradient: a planted change in the backward's mask_mod changes dQ.
    planted = with_diagonal_masked(BACKWARD)
    os.remove(os.path.join(planted, "mask_graph0.pt"))  # the readable subgraph is the one that runs
    r = report(planted, "--inputs", "saved", "--expected", "auto")
    assert not r["comparisons"][0]["ok"], r["comparisons"][0]


@check
def a_change_planted_in_the_mask_subgraph_changes_the_output():
    r = report(with_diagonal_masked(DUMP), "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] != "pass" and not all(c["ok"] for c in r["comparisons"]), (r["verdict"], r["comparisons"])


def module_only_copy(name):
    """The fixture without its readable file: what functorch's graph_dumper_aot layout holds."""
    d = os.path.join(TMP, name, "flex_causal_forward_0")
    shutil.copytree(DUMP, d)
    os.remove(os.path.join(d, "flex_causal_forward_0.readable.py"))
    return d


@check
def a_module_py_only_dump_runs_the_pickled_subgraphs_and_equals_eager():
    d = module_only_copy("module_only")
    r = report(d, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass", (r["verdict"], r["unsupported"], [n for n in r["nodes"] if n["status"] != "passed"][:3])
    assert r["comparisons"] and all(equals_recorded_eager(c) for c in r["comparisons"]), r["comparisons"]


@check
def a_change_planted_in_the_pickled_mask_mod_changes_the_output():
    d = module_only_copy("planted_pickle")
    pt = os.path.join(d, "sdpa_mask0.pt")
    with zipfile.ZipFile(pt) as z:
        entries = [(i, z.read(i.filename)) for i in z.infolist()]
    old, new = b"torch.ops.aten.le.Tensor(arg3_1, arg2_1)", b"torch.ops.aten.lt.Tensor(arg3_1, arg2_1)"  # same length
    assert sum(data.count(old) for _, data in entries) == 1, [i.filename for i, _ in entries]
    with zipfile.ZipFile(pt, "w", zipfile.ZIP_STORED) as z:
        for info, data in entries:
            z.writestr(info, data.replace(old, new))
    r = report(d, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] != "pass" and not all(c["ok"] for c in r["comparisons"]), (r["verdict"], r["comparisons"])


@check
def the_readable_subgraphs_and_the_pickled_ones_are_checked_to_agree():
    p = subprocess.run([FXRAY, "info", DUMP], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "differ" not in p.stdout + p.stderr, p.stdout + p.stderr
    d = module_only_copy("readable_differs")
    shutil.copy(os.path.join(DUMP, "flex_causal_forward_0.readable.py"), d)
    readable = os.path.join(d, "flex_causal_forward_0.readable.py")
    with open(readable) as f:
        text = f.read()
    with open(readable, "w") as f:
        f.write(text.replace("torch.ops.aten.le.Tensor(arg3_1, arg2_1)", "torch.ops.aten.lt.Tensor(arg3_1, arg2_1)"))
    p = subprocess.run([FXRAY, "info", d], capture_output=True, text=True, timeout=120)
    assert "and module.py differ: subgraph sdpa_mask0" in p.stdout + p.stderr, p.stdout + p.stderr


@check
def the_runnable_of_a_trace_takes_its_subgraphs_from_the_compiles_other_records():
    log = os.path.join(SOURCE, "tests", "data", "flex", "flex_causal.log")
    with open(log) as f:
        assert "<lambda>()" in f.read()  # the runnable's only trace of its subgraphs
    r = report(log + "#0/0/fx_graph_runnable")
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])
    flex = [n for n in r["nodes"] if n["target"] == "higher_order.flex_attention"]
    assert len(flex) == 1 and flex[0]["status"] == "passed", flex


def compare(log):
    p = subprocess.run([FXRAY, "compare", log + "#0/0", "--no-output-code", "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


@check
def the_dynamo_graphs_vmap_of_the_mask_mod_runs_and_agrees_with_the_aot_stages():
    log = os.path.join(SOURCE, "tests", "data", "flex", "flex_causal.log")
    r = report(log + "#0/0/dynamo_output_graph")
    if any("functorch" in u and "nlohmann" in u for u in r["unsupported"]):
        print("this build has no functorch headers (nlohmann-json3-dev): vmap named as unsupported, as it says")
        return
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])

    def block_sum(rep):  # the causal mask over 16 x 16 tokens (one 128 x 128 block): 16 * 17 / 2 kept
        [n] = [n for n in rep["nodes"] if n["name"] == "mask_block_sum"]
        return n["outputs"][0]["max"]
    assert block_sum(r) == 136, block_sum(r)
    c = compare(log)
    assert c["verdict"] == "agree", (c["verdict"], c.get("reason"))
    # The vmapped mask_mod is what runs: kv <= q made kv < q keeps 16 * 15 / 2.
    planted = edit_trace_payload(log, os.path.join(TMP, "vmap_planted.log"), "dynamo_output_graph",
                                 "_add_batch_dim_3.le(child_2)", "_add_batch_dim_3.lt(child_2)")
    assert block_sum(report(planted + "#0/0/dynamo_output_graph")) == 120


@check
def generated_code_compiled_for_one_thread_runs_with_one():
    """Inductor's C++ flex kernel sizes its scratch buffers by the compiling process's thread count (written into it:
    `int64_t num_thread = N;`); the CPU corpus compiles with OMP_NUM_THREADS=1, and the output_code child, running
    with every core, corrupted its heap (four models' flex compiles). The log as a 1-thread compile writes it."""
    one = edit_trace_payload(LOG, os.path.join(TMP, "flex_one_thread.log"), "inductor_output_code",
                             "int64_t num_thread = 2;", "int64_t num_thread = 1;")
    p = subprocess.run([FXRAY, "compare", one + "#0/0", "--device", "cpu", "--json"], capture_output=True, text=True, timeout=600)
    r = json.loads(p.stdout)
    code = next(s for s in r["stages"] if s["stage"] == "output_code")
    assert r["verdict"] == "agree" and code["verdict"] == "agree", (r["verdict"], code["status"], code.get("detail", "")[-500:])
    assert any("with 1 intra-op thread(s)" in n for n in code["notes"]), code["notes"]


if __name__ == "__main__":
    main()
