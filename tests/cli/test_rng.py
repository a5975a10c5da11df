"""Training runs as users run them (issue 21): randomness and transient Inf, on a TORCH_TRACE log of inductor
compiles on the CPU (tests/data/rng/dropout_training.log, written by make_rng_logs.py there):
- inductor's RNG prims (inductor_seeds, inductor_lookup_seed, inductor_random), which its replace_random pass puts
  into every graph with dropout, run natively with every node checked;
- stage compare gives a verdict on a dropout training compile (aligned RNG: the same random call draws the same
  values at every stage), and a change planted in the post-grad graph's dropout is found at that stage;
- outputs that depend on random draws a replay cannot reproduce are compared by rate, and say so;
- T5's relative-position bucket makes -inf from log(0), casts it to an integer and `where` drops it: a transient
  Inf, reported with where it was absorbed, and a pass; --strict-nonfinite keeps the old rule; an Inf that reaches
  an output still fails, naming its origin."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, cpu_stages_agreeing, edit_trace_payload, fxray_json, have_worker, main, run  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="fxray-rng-")
LOG = os.path.join(SOURCE, "tests", "data", "rng", "dropout_training.log")


def graphs(address_part):
    """Addresses of the log's graphs whose address contains address_part."""
    info = fxray_json("info", LOG, codes=(0,))
    return [g["address"] for g in info["graphs"] if address_part in g["address"]]


def edit_record_holding(src, dst, kind, needle, old, new):
    """edit_trace_payload for the first `kind` record whose payload holds `needle` (a log has a post-grad graph per
    compile, and the harness's helper edits the first): the records before it are set aside meanwhile."""
    with open(src) as f:
        lines = f.read().split("\n")
    heads = [i for i, l in enumerate(lines) if '"%s"' % kind in l and "has_payload" in l]
    for head in heads:
        end = head + 1
        while end < len(lines) and lines[end].startswith("\t"):
            end += 1
        if needle in "\n".join(lines[head:end]):
            break
    tmp = dst + ".part"
    with open(tmp, "w") as f:
        f.write("\n".join(lines[head:]))
    edit_trace_payload(tmp, tmp, kind, old, new)
    with open(tmp) as f, open(dst, "w") as out:
        out.write("\n".join(lines[:head] + [f.read()]))
    os.remove(tmp)
    return dst


def reports_of(out):
    return out["reports"] if "reports" in out else [out]


@check
def inductor_rng_prims_replay_natively_with_every_node_checked():
    rng_graphs = []
    for address in graphs("#0/0"):
        r = reports_of(fxray_json("replay", address))[0]
        targets = {n["target"] for n in r["nodes"]}
        if not any("inductor_random" in t for t in targets):
            continue
        rng_graphs.append(address)
        assert r["verdict"] == "pass", (address, r["verdict"], r["unsupported"], [n for n in r["nodes"] if n["status"] != "passed"][:3])
        for n in r["nodes"]:
            if "inductor_" in n["target"]:
                assert n["status"] == "passed", n
            if "inductor_random" in n["target"]:
                assert "eager definition" in n["schema"], n
    # the AOT forward, the runnable and the post-grad forward all hold the prims
    assert len(rng_graphs) >= 3, rng_graphs


@check
def a_dropout_training_compile_agrees_at_every_stage():
    p = subprocess.run([FXRAY, "compare", LOG + "#0/0", "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout[-2000:], p.stderr)
    r = json.loads(p.stdout)
    assert r["verdict"] == "agree", (r["verdict"], r["reason"])
    for s in r["stages"][1:]:
        assert s["status"] == "clean" and s["verdict"] == "agree" and s["compared"] >= 1, s
        # the user output depends on the dropout: compared by value, not skipped
        assert all(c.get("compared", True) for c in s["comparisons"][:1]), s["comparisons"]


@check
def dropout_inside_sdpa_agrees_at_every_stage():
    # The dynamo graph's fused SDPA draws its dropout inside the kernel, the AOT graphs through inductor_random in
    # the decomposed math: aligned, the dynamo stage runs that math on the same draw (distilbert, T5 and the
    # optimizer recipe diverged at aot_forward with max abs ~1 before).
    p = subprocess.run([FXRAY, "compare", LOG + "#2/0", "--json", "--no-output-code"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout[-2000:], p.stderr)
    r = json.loads(p.stdout)
    assert r["verdict"] == "agree" and len(r["stages"]) == 3, (r["verdict"], r["reason"])
    assert all(s["verdict"] == "agree" and s["compared"] >= 1 for s in r["stages"][1:]), r["stages"]


@check
def a_change_planted_in_the_post_grad_dropout_is_found_there():
    planted = edit_trace_payload(LOG, os.path.join(TMP, "planted.log"), "inductor_post_grad_graph",
                                 "torch.ops.aten.gt.Scalar(inductor_random_default, 0.1)",
                                 "torch.ops.aten.gt.Scalar(inductor_random_default, 0.5)")
    p = subprocess.run([FXRAY, "compare", planted + "#0/0", "--json"], capture_output=True, text=True, timeout=300)
    r = json.loads(p.stdout)
    assert p.returncode == 1 and r["verdict"] == "diverge", (r["verdict"], r["reason"])
    assert r["first_divergent_stage"] == "post_grad", r["first_divergent_stage"]


@check
def random_outputs_against_another_reference_are_compared_by_rate():
    forward = [a for a in graphs("#0/0") if "aot_forward" in a][0]
    r = reports_of(fxray_json("replay", forward, "--compare-device", "cpu"))[0]
    by_rate = [c for c in r["comparisons"] if c.get("by_rate")]
    assert by_rate, r["comparisons"]
    for c in by_rate:
        assert c["ok"] and "rate" in c["note"] and "random op" in c["note"], c
    # a mask keeps about 90% (p = 0.1)
    masks = [c for c in by_rate if c["what"].startswith("b8")]
    assert masks and "keep rate 0.9" in masks[0]["note"] or "keep rate 0.8" in masks[0]["note"], masks


@check
def t5s_log_of_zero_dropped_by_where_is_a_transient_inf_and_a_pass():
    found = 0
    for address in graphs("#1/0"):
        r = reports_of(fxray_json("replay", address))[0]
        transient = [n for n in r["nodes"] if n.get("transient_nonfinite")]
        if not transient:
            continue
        found += 1
        assert r["verdict"] == "pass" and r["first_nan_node"] is None, (address, r["verdict"])
        assert transient[0]["absorbed_at"], transient[0]
        code, out, _ = run("replay", address)
        assert code == 0 and "transient NaN/Inf" in out and "absorbed at" in out, out
        strict = reports_of(fxray_json("replay", address, "--strict-nonfinite"))[0]
        assert strict["verdict"] == "nan" and strict["first_nan_node"] == transient[0]["name"], strict["verdict"]
    assert found >= 2, found  # the dynamo graph and inductor's graphs of the compile


@check
def an_inf_that_reaches_an_output_still_fails_naming_its_origin():
    # the same compile's post-grad graph with the `where` bypassed: the log's -inf flows into the output
    address = [a for a in graphs("#1/0") if a.endswith("inductor_post_grad_graph")][0]
    text = subprocess.run([FXRAY, "show", address], capture_output=True, text=True, timeout=60).stdout
    assert "torch.ops.aten.log.default" in text, text[:2000]
    name = text.split("torch.ops.aten.log.default")[0].rsplit("\n", 1)[-1].split("=")[0].split(":")[0].strip()
    planted = os.path.join(TMP, "reaches.log")
    edit_record_holding(LOG, planted, "inductor_post_grad_graph", "aten.log.default", "return (", "return (%s, " % name)
    # the printed graph frees each value after its last use (`log = None`): keep it alive for the output
    edit_record_holding(planted, planted, "inductor_post_grad_graph", "aten.log.default", ";  %s = None" % name, "")
    r = reports_of(fxray_json("replay", planted + "#" + address.split("#", 1)[1]))[0]
    assert r["verdict"] == "nan" and r["first_nan_node"] == name, (r["verdict"], r["first_nan_node"], name)


CAPTURE = r"""
import sys
sys.path.insert(0, sys.argv[2])
import torch, torch.nn as nn
import fxray_capture
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 8)).train()
compiled = torch.compile(model, backend=fxray_capture.backend("drop", sys.argv[1]))
compiled(torch.randn(16, 32, requires_grad=True)).sum().backward()
"""


def captured_dropout_dumps():
    """A training step with dropout on, through fxray's capture backend (which writes <stem>.rng.pt)."""
    out = os.path.join(TMP, "captured")
    if not os.path.isdir(out):
        subprocess.run([sys.executable, "-c", CAPTURE, out, os.path.join(SOURCE, "tools", "capture")], check=True,
                       capture_output=True, timeout=300)
    return os.path.join(out, "drop")


@check
def a_saved_input_replay_with_the_captured_random_state_draws_what_eager_drew():
    dumps = captured_dropout_dumps()
    forward = os.path.join(dumps, "drop_forward_0")
    assert os.path.exists(os.path.join(forward, "drop_forward_0.rng.pt")), os.listdir(forward)
    r = reports_of(fxray_json("replay", forward, "--inputs", "saved", "--expected", "auto"))[0]
    assert r["verdict"] == "pass", (r["verdict"], r["comparisons"])
    assert any("random state restored" in n for n in r["notes"]), r["notes"]
    # every output compared by value, the dropout mask and the masked activations included
    assert r["comparisons"] and all(c["compared"] and c["ok"] and not c.get("by_rate") for c in r["comparisons"]), r["comparisons"]
    # without the state the draws differ: the random outputs are compared by rate instead, and say so
    bare = os.path.join(TMP, "bare_forward")
    shutil.copytree(forward, bare)
    os.remove(os.path.join(bare, "drop_forward_0.rng.pt"))
    r = reports_of(fxray_json("replay", bare, "--inputs", "saved", "--expected", "auto"))[0]
    by_rate = [c for c in r["comparisons"] if c.get("by_rate")]
    assert by_rate and all(c["ok"] for c in by_rate), r["comparisons"]


PHILOX = os.path.join(SOURCE, "tests", "data", "rng", "philox_dump", "philox", "philox_forward_0")


@check
def attention_philox_outputs_below_a_dropout_stay_uncompared_when_the_random_state_is_restored():
    # T5's flex-recipe forward (t5.flex_forward_2, H100 and H200): efficient attention below a dropout returns
    # philox seed/offset it never writes (no dropout of its own). With eager's random state restored its outputs
    # were compared by value, and eager's allocator bits (9e13) "diverged" from the replay's.
    r = reports_of(fxray_json("replay", PHILOX, "--inputs", "saved", "--expected", "auto"))[0]
    assert r["verdict"] == "pass", (r["verdict"], r["comparisons"])
    assert any("random state restored" in n for n in r["notes"]), r["notes"]
    rng = [c for c in r["comparisons"] if "philox" in c.get("note", "")]
    assert [c["output"] for c in rng] == [2, 3], r["comparisons"]
    assert all(not c["compared"] and "uninitialised memory" in c["note"] for c in rng), rng
    # the dropout's output and the logsumexp below it: eager's draws, compared by value
    assert all(c["compared"] and c["ok"] and not c["by_rate"] for c in r["comparisons"] if c not in rng), r["comparisons"]


@check
def a_dump_recorded_on_another_device_type_does_not_claim_eager_draws():
    # A CUDA dump replayed on the CPU: the CPU generator's state from .rng.pt draws other values than CUDA's did,
    # so the random outputs are compared by rate (t5.flex_forward_2 on this machine: 60 outputs "diverged").
    moved = os.path.join(TMP, "philox_cuda")
    shutil.copytree(PHILOX, moved)
    readable = os.path.join(moved, "philox_forward_0.readable.py")  # where the dump's node metas come from
    with open(readable) as f:
        text = f.read()
    with open(readable, "w") as f:
        f.write(text.replace("]cpu", "]cuda:0"))
    r = reports_of(fxray_json("replay", moved, "--inputs", "saved", "--expected", "auto", "--device", "cpu"))[0]
    assert r["verdict"] == "pass", (r["verdict"], r["comparisons"])
    assert any("not restored: the graph was recorded on cuda and replays on cpu" in n for n in r["notes"]), r["notes"]
    assert [c["output"] for c in r["comparisons"] if c["by_rate"]] == [0, 1], r["comparisons"]
    assert all(c["ok"] for c in r["comparisons"]), r["comparisons"]


def cuda_logged(name):
    return os.path.join(SOURCE, "tests", "data", "rng", name)


@check
def cuda_training_compiles_agree_with_drop_path_fused_attention_dropout_and_masked_rows():
    """Real CUDA training compiles (cut from the GPU corpus' traces by slice_trace.py), replayed on the CPU with
    aligned RNG. Each diverged before its fix: timm's drop_path (Tensor.bernoulli_ in place) drew from the global
    generator; T5's AOT graph keeps efficient attention with its dropout inside (inductor's seeds number only the
    other draws); wav2vec2's expanded boolean mask masks whole rows, which SDPA's safe softmax makes 0, not NaN."""
    for name, compile_id in (("cuda_vit_drop_path.log", "0/0"), ("cuda_t5_fused_attention_dropout.log", "8/0"),
                             ("cuda_wav2vec2_masked_rows.log", "19/0")):
        cpu_stages_agreeing(f"{cuda_logged(name)}#{compile_id}")
    # the fused kernel's draw is numbered among inductor's: both ways of drawing show in the plan
    r = fxray_json("replay", cuda_logged("cuda_t5_fused_attention_dropout.log") + "#8/0/aot_forward_graph",
                   "--device", "cpu", "--rng", "aligned", "--all-nodes", "--in-process")
    nodes = reports_of(r)[0]["nodes"]
    fused = [n for n in nodes if "_scaled_dot_product_efficient_attention" in n.get("target", "")]
    assert fused and all("aligned RNG draw" in n.get("schema", "") for n in fused), fused[:1]


@check
def dropout_under_autocast_takes_the_same_aligned_draws_at_every_stage():
    """BART's training step under bf16 autocast (the corpus' bf16 recipe, compile 10/1 cut by slice_trace.py): the
    dynamo graph's F.dropout runs inside the autocast the dtypes show. Its aligned draw was lost to the autocast
    wrapper, so it drew from the global generator: on an H100 the AOT stage diverged (max abs 5.31), on the CPU the
    precision check excused 4.56 as rounding. The stages now agree to float rounding, with nothing excused."""
    log = os.path.join(SOURCE, "tests", "data", "rng", "bart_bf16_autocast_dropout.log")
    later = cpu_stages_agreeing(log + "#10/1")
    assert all(s["max_abs"] < 1e-4 for s in later), later


@check
def a_compile_torch_itself_failed_is_not_compiled_with_torchs_reason():
    """Mixtral's grouped_linear: inductor failed on aten._local_scalar_dense, dynamo graph-broke and ran the frame
    eagerly; the log holds only the dynamo graph. Nothing compiled to compare: "not compiled", not an fxray failure."""
    p = subprocess.run([FXRAY, "compare", cuda_logged("cuda_mixtral_compile_failed.log"), "--json", "--device", "cpu"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["summary"]["not_compiled"] == 1 and r["summary"]["failed"] == 0, r["summary"]
    c = r["compiles"][0]
    assert c["verdict"] == "not compiled" and "_local_scalar_dense" in c["reason"], c["reason"]


if __name__ == "__main__":
    main()
