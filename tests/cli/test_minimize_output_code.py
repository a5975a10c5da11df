"""`fxray minimize --until diverge:output_code` on the CPU: inductor's planted relu bug
(cpp.inject_relu_bug_TESTING_ONLY = "accuracy": the C++ relu kernel computes x + 1) in the committed
Linear/ReLU/Linear trace (tests/data/output_code, tools/runtime/make_output_code_traces.py) shrinks to the relu under
the config the log recorded, and its repro.py compiles it with inductor under plain PyTorch and diverges; a correct
compile does not fail, and does with the bug's flag passed by hand; no Python with torch is a clear error; a child
past --timeout is killed. Each minimize run starts one Python child (torch's import and inductor's CPU checks: most
of the time). Skipped (0 checks) in a build without LibTorch (no worker)."""
import json
import os
import subprocess
import sys
import tempfile

from cli_harness import FXRAY, SOURCE, aten_ops, check, have_worker, main

DATA = os.path.join(SOURCE, "tests", "data", "output_code")
WORK = tempfile.mkdtemp(prefix="fxray-minimize-oc-")
# The venv's Python (the one running this test) compiles the candidates, as it runs the repro.
ENV = {**os.environ, "FXRAY_PYTHON": os.environ.get("FXRAY_PYTHON", sys.executable)}


def start(log, out, *extra):
    return subprocess.Popen([FXRAY, "minimize", os.path.join(DATA, log) + "#0/0/aot_inference_graph", "--until",
                             "diverge:output_code", "-o", os.path.join(WORK, out), "--json", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish(p):
    out, err = p.communicate(timeout=600)
    return p.returncode, out, err


def minimize(log, out, *extra):
    return finish(start(log, out, *extra))


@check
def the_planted_relu_bug_shrinks_to_the_relu_and_its_repro_diverges_under_pytorch():
    code, out, err = minimize("planted.log", "planted")
    assert code == 0, (code, err, out)
    r = json.loads(out)
    # the config comes from the compile's own log (its fx_graph_runnable record)
    assert r["inductor_config"] == {"cpp.inject_relu_bug_TESTING_ONLY": "'accuracy'"}, r.get("inductor_config")
    assert "inductor config: cpp.inject_relu_bug_TESTING_ONLY='accuracy'" in err, err
    # the signature: the first divergent kernel is a C++ kernel computing relu, its error as large as its values
    assert r["signature"] == "diverge:output_code at aten.relu.default: cpp kernel, large error", r["signature"]
    assert "cpp_fused_relu" in r["failure_detail"], r["failure_detail"]
    assert r["original_nodes"] == 5 and r["minimized_nodes"] <= 5 and r["minimized_nodes"] < r["original_nodes"], r
    ops = aten_ops(r["dump"])
    assert "relu" in ops and "addmm" not in ops[ops.index("relu") + 1:], ops  # the second Linear is gone
    assert r["verify_failed"] == r["verified_seeds"] == 2, r  # other seeds fail the same way
    assert r["compile_child_starts"] == 1, r  # one Python child for every candidate
    # the repro compiles the graph with inductor (the config set in it) and shows the divergence: exit 1
    p = subprocess.run([sys.executable, r["repro"]], capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and "FAILED: output 0 of the inductor-compiled graph differs from eager" in p.stdout, \
        (p.returncode, p.stdout, p.stderr[-2000:])
    assert "inject_relu_bug_TESTING_ONLY" in open(r["repro"]).read()


@check
def a_correct_compile_does_not_fail_and_does_with_the_bugs_flag_passed_by_hand():
    # side by side: each run's time is mostly its Python child's start (one core each)
    plain = start("correct.log", "correct_plain")
    flag = start("correct.log", "correct_flag", "--inductor-config", "cpp.inject_relu_bug_TESTING_ONLY=accuracy")
    code, out, err = finish(plain)
    assert code == 1, (code, err, out)
    r = json.loads(out)
    assert not r["reproduced"] and "agrees with fxray's replay" in r["why"], r
    code, out, err = finish(flag)
    assert code == 0, (code, err, out)
    r = json.loads(out)
    assert r["signature"].startswith("diverge:output_code at aten.relu.default"), r["signature"]
    assert r["minimized_nodes"] <= 5 and "relu" in aten_ops(r["dump"]), r


@check
def no_python_with_torch_is_a_clear_error():
    p = subprocess.run([FXRAY, "minimize", os.path.join(DATA, "planted.log") + "#0/0/aot_inference_graph", "--until",
                        "diverge:output_code", "-o", os.path.join(WORK, "nopy"), "--python", os.path.join(WORK, "no-such-python")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "no-such-python" in p.stderr and "FXRAY_PYTHON" in p.stderr, (p.returncode, p.stderr)
    # --python and --inductor-config belong to diverge:output_code
    p = subprocess.run([FXRAY, "minimize", os.path.join(DATA, "planted.log") + "#0/0/aot_inference_graph", "--until", "nan",
                        "-o", os.path.join(WORK, "x"), "--inductor-config", "a=1"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "diverge:output_code" in p.stderr, (p.returncode, p.stderr)


@check
def a_child_past_the_timeout_is_killed_and_the_run_says_why():
    # A "Python" that never answers: the candidate's --timeout passes, the child (its process group) is killed.
    fake = os.path.join(WORK, "hanging-python")
    pid_file = os.path.join(WORK, "hanging.pid")
    with open(fake, "w") as f:
        f.write(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 600\n")
    os.chmod(fake, 0o755)
    p = subprocess.run([FXRAY, "minimize", os.path.join(DATA, "planted.log") + "#0/0/aot_inference_graph", "--until",
                        "diverge:output_code", "-o", os.path.join(WORK, "hang"), "--python", fake, "--timeout", "5"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "did not start within the timeout" in p.stdout, (p.returncode, p.stdout, p.stderr)
    pid = int(open(pid_file).read())
    try:
        os.kill(pid, 0)
        alive = open(f"/proc/{pid}/stat").read().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        alive = False
    assert not alive, f"the hanging child {pid} outlived the run"


if __name__ == "__main__":
    if not have_worker():
        print("0 passed, 0 failed (no worker in this build)")
        sys.exit(0)
    main()
