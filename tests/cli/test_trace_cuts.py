"""Graphs cut from the real-model corpus's CPU trace logs (tests/data/cuts, tests/data/rng/inplace_dropout.log; issue 21's
corpus run): each failed there for a reason of fxray's, fixed since.
- LeViT's dynamo graphs index an attention-bias table with a registered buffer through Python indexing
  (`biases[(slice(None, None, None), idxs)]`): the index's value domain comes from the dim it indexes (random indices
  ran past the table: "index 5 is out of bounds for dimension 0 with size 4").
- ShuffleNet's backward runnable views a channels-last convolution_backward output: the runnable borrows its
  annotations from before_post_grad_graph, where inductor's view_to_reshape pass already made the view a reshape; the
  borrowing took the AOT backward graph's contiguous annotation instead (recorded [768, 8, 4, 2, 1], replayed
  [768, 2, 1, 384, 192]).
- An in-place dropout (EfficientNet's classifier) is bernoulli_(1 - p) in every stage after dynamo's: stage compare's
  aligned draws made dynamo's dropout_ keep other elements (u > p) than the AOT graph's bernoulli (u < 1 - p). The
  generated code draws its own: EfficientNet's running stats after its stochastic depth were compared by value there."""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

CUTS = os.path.join(SOURCE, "tests", "data", "cuts")
DROPOUT = os.path.join(SOURCE, "tests", "data", "rng", "inplace_dropout.log")
TMP = tempfile.mkdtemp(prefix="fxray-cuts-")


def fxray_json(*args):
    p = subprocess.run([FXRAY, *args, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), (args, p.stderr)
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


def node(r, name):
    return next(n for n in r["nodes"] if n["name"] == name)


def edit_record_holding(src, dst, old, new, record=""):
    """A copy of log `src` with `old` replaced by `new` in the first record (named `record`, if given) whose payload
    holds it, its MD5 recomputed."""
    lines = open(src).read().split("\n")
    heads = [i for i, l in enumerate(lines) if "has_payload" in l and (not record or '"%s"' % record in l)]
    for h in heads:
        end = h + 1
        while end < len(lines) and lines[end].startswith("\t"):
            end += 1
        body = "\n".join(l[1:] for l in lines[h + 1:end])
        if old in body:
            body = body.replace(old, new)
            lines[h] = re.sub(r'"has_payload": "[0-9a-f]+"', '"has_payload": "%s"' % hashlib.md5(body.encode()).hexdigest(), lines[h])
            lines[h + 1:end] = ["\t" + l for l in body.split("\n")]
            open(dst, "w").write("\n".join(lines))
            return dst
    raise AssertionError(old)


@check
def python_indexing_bounds_a_buffer_of_indices_by_the_dim_it_indexes():
    r = fxray_json("replay", os.path.join(CUTS, "levit_attention_biases.log") + "#0/0/dynamo_output_graph")
    assert r["verdict"] == "pass", [(n["name"], n.get("error")) for n in r["nodes"] if n["status"] != "passed"]
    bounds = [c for c in r["constraints"] if "attention_bias_idxs" in c]
    assert any("in [0, 4): getitem_15 (getitem): size of the indexed dim 1" in c for c in bounds), bounds
    assert any("in [0, 16): getitem_3 (getitem)" in c for c in bounds), bounds


@check
def runnable_views_take_the_layout_of_the_reshape_inductor_logged():
    log = os.path.join(CUTS, "shufflenet_channel_shuffle.log") + "#0/0/fx_graph_runnable.1"
    r = fxray_json("replay", log)
    assert r["verdict"] == "pass", [(n["name"], n.get("mismatches")) for n in r["nodes"] if n["status"] != "passed"]
    assert node(r, "view_33")["outputs"][0]["meta"].startswith("f32[2, 96, 2, 2, 2][768, 2, 1, 384, 192]"), node(r, "view_33")
    # The borrowed annotation is checked: a stride planted in the reshape's annotation is found at the runnable's view.
    planted = edit_record_holding(os.path.join(CUTS, "shufflenet_channel_shuffle.log"), os.path.join(TMP, "planted.log"),
                                  'view_33: "f32[2, 96, 2, 2, 2][768, 2, 1, 384, 192]cpu" = torch.ops.aten.reshape',
                                  'view_33: "f32[2, 96, 2, 2, 2][768, 2, 1, 192, 384]cpu" = torch.ops.aten.reshape')
    r = fxray_json("replay", planted + "#0/0/fx_graph_runnable.1")
    assert node(r, "view_33")["status"] == "mismatch", node(r, "view_33")


@check
def inplace_dropout_draws_as_the_bernoulli_it_becomes():
    r = fxray_json("compare", DROPOUT + "#0/0", "--no-output-code")
    assert r["verdict"] == "agree", r["reason"]
    assert [s["verdict"] for s in r["stages"]] == ["reference", "agree", "agree"], [s["verdict"] for s in r["stages"]]
    # Aligned, not blind: the post-grad graph's keep probability planted from 0.8 to 0.5 diverges there.
    planted = edit_record_holding(DROPOUT, os.path.join(TMP, "dropout.log"),
                                  "torch.ops.aten.bernoulli.p(empty, 0.8)", "torch.ops.aten.bernoulli.p(empty, 0.5)",
                                  "inductor_post_grad_graph")
    r = fxray_json("compare", planted + "#0/0", "--no-output-code")
    assert r["verdict"] == "diverge" and r["first_divergent_stage"] == "post_grad", (r["verdict"], r["reason"])


@check
def generated_code_outputs_that_depend_on_its_own_draws_are_compared_by_rate_running_stats_too():
    # The code draws from inductor's seeds, not the aligned streams: the logits and the batch norm's running stats
    # (inputs the compile mutates, written after the dropout) are compared by rate; num_batches_tracked by value.
    r = fxray_json("compare", DROPOUT + "#0/0")
    assert r["verdict"] == "agree", r["reason"]
    code = next(s for s in r["stages"] if s["stage"] == "output_code")
    rate = [c["output"] for c in code["comparisons"] if "by rate" in c["note"]]
    assert code["verdict"] == "agree" and rate == [0, 2, 3], [(c["output"], c["note"]) for c in code["comparisons"]]


if __name__ == "__main__":
    main()
