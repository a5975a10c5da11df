"""Stage compare's precision check (core/replay/api/rounding_noise.h): a stage that computes the reference's function
with other roundings, in a computation that amplifies them, agrees and says why; a stage that computes another
function still diverges. LeViT's training forward (batch norms over 2 samples) differed from its dynamo graph by 1.19
at the logits in f32 and by 1.2e-8 in f64 (tools/corpus traces); here the same kind of difference is planted in the
MLP sample's post-grad graph: relu((x + 2**20) - 2**20) is relu(x) in exact arithmetic, while f32 rounds x to 1/8."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SAMPLES, check, edit_trace_payload, have_worker, main, run  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

import json  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-rounding-")
MLP = os.path.join(SAMPLES, "cpu", "trace", "mlp_inductor.log")
RELU = 'relu: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None'


def planted(name, body):
    return edit_trace_payload(MLP, os.path.join(TMP, name), "inductor_post_grad_graph", RELU, body)


def compare(log):
    code, out, err = run("compare", log + "#0/0", "--no-output-code", "--json")
    assert code in (0, 1), err
    return code, json.loads(out)


def post_grad(r):
    return next(s for s in r["stages"] if s["stage"] == "post_grad")


@check
def a_difference_that_shrinks_in_float64_is_rounding_and_agrees():
    log = planted("rounded.log",
                  'add_r: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.add.Tensor(addmm, 1048576.0)\n'
                  '        sub_r: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.sub.Tensor(add_r, 1048576.0);  add_r = None\n'
                  '        relu: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.relu.default(sub_r);  addmm = sub_r = None')
    code, r = compare(log)
    assert code == 0 and r["verdict"] == "agree", (r["verdict"], r["reason"])
    c = post_grad(r)["comparisons"][0]
    assert c["ok"] and c["max_abs"] > 1e-2 and c["rounding_noise"] < 1e-6, c  # beyond f32's tolerance, gone in f64
    assert "rounding: computed in f64" in c["note"], c["note"]
    assert any("precision check" in n and "1 divergent output(s) found to be rounding" in n for n in r["notes"]), r["notes"]
    code, text, _ = run("compare", log + "#0/0", "--no-output-code")
    assert code == 0 and "note: precision check" in text, text
    # Without the check every value difference beyond tolerance is a divergence.
    code, text, _ = run("compare", log + "#0/0", "--no-output-code", "--no-precision-check")
    assert code == 1 and "diverge at stage post_grad" in text and "precision check" not in text, text


@check
def a_difference_that_stays_in_float64_still_diverges():
    log = planted("shifted.log",
                  'add_r: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.add.Tensor(addmm, 0.125)\n'
                  '        relu: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.relu.default(add_r);  addmm = add_r = None')
    code, r = compare(log)
    assert code == 1 and r["verdict"] == "diverge" and r["first_divergent_stage"] == "post_grad", (r["verdict"], r["reason"])
    c = post_grad(r)["comparisons"][0]
    assert not c["ok"] and c["rounding_noise"] > 0.5 * c["max_abs"], c  # as far apart in f64: another function


if __name__ == "__main__":
    main()
