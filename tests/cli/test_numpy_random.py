"""NumPy randomness in dynamo graphs (issue 21: HF wav2vec2's SpecAugment), on tests/data/numpy_random (written by
make_numpy_random.py there): dynamo traces `np.random.rand(1)` as `torch__dynamo_utils_wrapped_rand(1)`, which
draws from torch's generator with torch._numpy's definition; the mask numpy drew in Python enters the next graph as
a tensor that `torch.tensor(mask, device=, dtype=torch.bool)` copies. fxray runs both natively: a saved-input replay
with the generator state restored equals eager bit for bit, without the state the draw is compared by rate (and
says so), every trace graph replays with nothing unsupported, and stage compare lines the draw up with the AOT
graph's uniform(empty) under aligned RNG, agreeing, and finds a change planted in the post-grad draw."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, edit_trace_payload, equals_recorded_eager, fxray_json, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

DATA = os.path.join(SOURCE, "tests", "data", "numpy_random")
DRAW = os.path.join(DATA, "specaug_dynamo", "specaug_dynamo_forward_0")   # wrapped_rand(1)
MASK = os.path.join(DATA, "specaug_dynamo", "specaug_dynamo_forward_1")   # torch.tensor(mask) + setitem + linear
LOG = os.path.join(DATA, "specaug.log")
TMP = tempfile.mkdtemp(prefix="fxray-numpy-random-")


def report(dump, *args):
    out = fxray_json("replay", dump, *args)
    return out["reports"][0] if "reports" in out else out


def node(r, target):
    found = [n for n in r["nodes"] if n["target"] == target]
    assert len(found) == 1, [n["target"] for n in r["nodes"]]
    return found[0]


@check
def the_numpy_draw_equals_eagers_bit_for_bit_with_the_state_restored():
    r = report(DRAW, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])
    draw = node(r, "torch__dynamo_utils_wrapped_rand")
    assert draw["status"] == "passed" and "np.random.rand" in draw["schema"], draw
    [c] = r["comparisons"]
    assert c["compared"] and c["ok"] and not c["by_rate"] and c["max_abs"] == 0, c


@check
def without_the_generator_state_the_draw_is_compared_by_rate_and_says_so():
    d = os.path.join(TMP, "no_state")
    shutil.copytree(DRAW, d)
    os.remove(os.path.join(d, "specaug_dynamo_forward_0.rng.pt"))
    r = report(d, "--inputs", "saved", "--expected", "auto")
    [c] = r["comparisons"]
    assert c["by_rate"] and "torch__dynamo_utils_wrapped_rand" in c["note"], c


@check
def torch_tensor_of_the_numpy_mask_copies_it_and_the_step_equals_eager():
    r = report(MASK, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])
    copy = node(r, "torch.tensor")
    assert copy["status"] == "passed" and "copy=True" in copy["schema"], copy
    assert r["comparisons"] and all(equals_recorded_eager(c) for c in r["comparisons"]), r["comparisons"]


@check
def every_trace_graph_replays_with_nothing_unsupported():
    out = fxray_json("replay", LOG)
    reports = out["reports"]
    assert len(reports) >= 9, len(reports)
    bad = [(r["graph"], r["verdict"], r["unsupported"]) for r in reports if r["verdict"] != "pass" or r["unsupported"]]
    assert not bad, bad


@check
def stage_compare_agrees_on_the_draw_and_finds_a_change_planted_in_the_post_grad_draw():
    r = fxray_json("compare", LOG + "#1/0", "--no-output-code")
    assert r["verdict"] == "agree", r["verdict"]
    assert [s["verdict"] for s in r["stages"]][1:] == ["agree", "agree"], [(s["stage"], s["verdict"]) for s in r["stages"]]
    planted = edit_trace_payload(LOG, os.path.join(TMP, "planted.log"), "inductor_post_grad_graph",  # frame 1's is the first
                                 "aten.uniform.default(empty)", "aten.uniform.default(empty, 0.0, 0.5)")
    r = fxray_json("compare", planted + "#1/0", "--no-output-code")
    assert r["verdict"] == "diverge" and r["first_divergent_stage"] == "post_grad", (r["verdict"], r.get("reason"))


LITERALS = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 3][3, 1]cpu"):
        l_x_ = L_x_
        size = l_x_.size(0)
        ints: "i64[2][1]cpu" = torch.tensor([size, 3])
        floats: "f32[2][1]cpu" = torch.tensor([1.5, size])
        first: "f32[][]cpu" = l_x_[(0, 0)]
        mixed: "f32[2][1]cpu" = torch.tensor([first, size])
        bools: "b8[1, 2][2, 1]cpu" = torch.tensor([[True, False]])
        same: "f32[4, 3][3, 1]cpu" = torch.as_tensor(l_x_)
        return (ints, floats, mixed, bools, same)
"""


@check
def torch_tensor_of_graph_values_reads_them_at_run_time_with_torchs_dtype_inference():
    path = os.path.join(TMP, "literals.py")
    with open(path, "w") as f:
        f.write(LITERALS)
    r = report(path)
    assert r["verdict"] == "pass" and not r["unsupported"], (r["verdict"], r["unsupported"])
    by_name = {n["name"]: n for n in r["nodes"]}
    # every dtype checked against the annotation (int64, float32 promoted from int + float, bool); size is 4
    ints = by_name["ints"]["outputs"][0]
    assert (ints["min"], ints["max"]) == (3, 4), ints
    assert by_name["mixed"]["outputs"][0]["max"] == 4, by_name["mixed"]


if __name__ == "__main__":
    main()
