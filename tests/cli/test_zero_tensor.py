"""ZeroTensors (tests/data/zerotensor, make_zerotensor.py): torch.sgn's backward returns
aten._efficientzerotensor, zeros by its dispatch key with no data behind it. fxray's value statistics read its null
pointer: the replay worker died (CPU, signal 11) and OpInfo's sgn graphs failed with an illegal memory access on an
H100. A ZeroTensor now has no statistics (it is zeros), and the graph replays and equals eager in every mode that
reads values."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, equals_recorded_eager, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

SGN = os.path.join(SOURCE, "tests", "data", "zerotensor", "sgn")


def replay(dump, *args):
    p = subprocess.run([FXRAY, "replay", dump, "--json", *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


@check
def a_zero_tensor_gradient_replays_and_equals_eager():
    backward = os.path.join(SGN, "sgn_backward_0")
    r = replay(backward, "--inputs", "saved", "--expected", "auto")
    assert r["verdict"] == "pass", r["verdict"]
    assert any(n["target"] == "aten._efficientzerotensor.default" and n["status"] == "passed" for n in r["nodes"])
    assert r["comparisons"] and all(equals_recorded_eager(c) for c in r["comparisons"]), r["comparisons"]


@check
def every_graph_of_the_step_replays_checked_and_timed():
    for args in ([], ["--all-nodes"], ["--repeat", "3"]):
        for name in ("sgn_forward_0", "sgn_backward_0", "sgn_joint_0"):
            assert replay(os.path.join(SGN, name), *args)["verdict"] == "pass", (name, args)


if __name__ == "__main__":
    main()
