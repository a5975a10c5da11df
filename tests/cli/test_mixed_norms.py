"""Normalisations under CPU bf16 autocast (issue 21: the corpus' bf16 recipe on the CPU, wav2vec2's group norms and
ResNet50's batch norms), on tests/data/mixed_norms (written by make_mixed_norms.py there). With a bf16 input and f32
weights the CPU kernels keep the saved mean/rstd in f32 where torch's fake-tensor rules record bf16, the backward
kernels refuse bf16 statistics, and native_group_norm_backward's grad_input is bf16 where f32 was recorded. fxray
checks and generates those values as the kernels make them and says so: saved-input replays pass and equal eager,
random backward inputs run, and a dtype the rule does not cover still fails."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, equals_recorded_eager, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

DUMPS = os.path.join(SOURCE, "tests", "data", "mixed_norms", "autocast_norms")
GRAPHS = ["autocast_norms_forward_0", "autocast_norms_backward_0", "autocast_norms_joint_0"]
TMP = tempfile.mkdtemp(prefix="fxray-mixed-norms-")


def report(dump, *args):
    p = subprocess.run([FXRAY, "replay", dump, *args, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


def failing(r):
    return [(n["name"], n.get("mismatches"), n.get("error")) for n in r["nodes"] if n["status"] != "passed"]


@check
def saved_input_replays_pass_and_equal_eager_with_the_kernels_dtypes_named():
    for g in GRAPHS:
        r = report(os.path.join(DUMPS, g), "--inputs", "saved", "--expected", "auto")
        assert r["verdict"] == "pass", (g, failing(r))
        assert r["comparisons"] and all(equals_recorded_eager(c) for c in r["comparisons"]), (g, r["comparisons"])
        notes = [n for n in r["notes"] if "mixed-dtype normalisations" in n]
        assert notes and "fake-tensor rule" in notes[0], (g, r["notes"])


@check
def random_inputs_give_the_backward_kernels_f32_statistics():
    for g in GRAPHS:
        r = report(os.path.join(DUMPS, g), "--seed", "3")
        assert r["verdict"] == "pass", (g, failing(r))


@check
def a_wrong_dtype_the_rule_does_not_cover_is_still_a_mismatch():
    # The batch norm's normalised output (output 0) recorded f32: the kernel gives bf16, and nothing excuses that.
    dump = os.path.join(TMP, "planted")
    shutil.copytree(os.path.join(DUMPS, GRAPHS[0]), dump)
    readable = os.path.join(dump, GRAPHS[0] + ".readable.py")
    text = open(readable).read()
    old = 'getitem: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = _native_batch_norm_legit_functional[0]'
    assert old in text
    open(readable, "w").write(text.replace(old, old.replace("bf16[", "f32[")))
    r = report(dump, "--inputs", "saved")
    bad = {name: m for name, m, _ in failing(r)}
    assert r["verdict"] == "mismatch" and "getitem" in bad, (r["verdict"], failing(r))
    assert bad["getitem"][0]["kind"] == "dtype", bad["getitem"]


if __name__ == "__main__":
    main()
