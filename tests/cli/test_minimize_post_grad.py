"""`fxray minimize --until diverge:post_grad` on the CPU: a buggy custom post-grad pass (tests/data/post_grad/
planted_pass.py: relu(x) -> (x - |x|) / 2) given with --inductor-config on the committed Linear/ReLU/Linear trace
(tests/data/output_code/correct.log, a correct compile) shrinks to the relu: each candidate goes through inductor's
joint-graph and post-grad passes only (no code generation) in one Python child, fxray replays the post-grad graph
against the candidate, and the signature names the node the pass rewrote (relu), not where the divergence shows; the
repro.py shows the divergence under plain PyTorch. Without the pass nothing diverges. On a 200-node chain the
baseline finds the divergence in a prefix of the graph and never judges the whole graph. Each run starts one Python
child (torch's import and inductor's pattern set-up: most of the time). Skipped (0 checks) in a build without
LibTorch (no worker)."""
import json
import os
import subprocess
import sys
import tempfile

from cli_harness import FXRAY, SOURCE, aten_ops, check, have_worker, main

GRAPH = os.path.join(SOURCE, "tests", "data", "output_code", "correct.log") + "#0/0/aot_inference_graph"
PASSES = os.path.join(SOURCE, "tests", "data", "post_grad")
WORK = tempfile.mkdtemp(prefix="fxray-minimize-pg-")
# The venv's Python (the one running this test) runs the passes, as it runs the repro; the planted pass is imported
# from PYTHONPATH by both.
ENV = {**os.environ, "FXRAY_PYTHON": os.environ.get("FXRAY_PYTHON", sys.executable),
       "PYTHONPATH": os.pathsep.join([PASSES] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
PLANT = ["--inductor-config", "post_grad_custom_post_pass=planted_pass:ReluRewrite"]


def start(out, *extra, graph=GRAPH):
    return subprocess.Popen([FXRAY, "minimize", graph, "--until", "diverge:post_grad", "-o", os.path.join(WORK, out), "--json",
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish(p):
    out, err = p.communicate(timeout=600)
    return p.returncode, out, err


@check
def a_buggy_post_grad_pass_shrinks_to_the_node_it_rewrote_a_correct_compile_does_not_fail_a_missing_pass_says_so():
    # side by side: each run's time is mostly its Python child's start
    planted, plain = start("planted", *PLANT), start("plain")
    missing = start("missing", "--inductor-config", "post_grad_custom_post_pass=no_such_module:Pass")
    chain = start("chain", *PLANT, graph=os.path.join(PASSES, "chain.py"))
    code, out, err = finish(planted)
    assert code == 0, (code, err, out)
    r = json.loads(out)
    assert r["inductor_config"] == {"post_grad_custom_post_pass": "'planted_pass:ReluRewrite'"}, r.get("inductor_config")
    # the root cause is the node the pass rewrote (relu), though the divergence shows first at the addmm reading it
    assert r["signature"] == "diverge:post_grad at aten.relu.default: large error", r["signature"]
    assert "rewritten by the passes" in r["failure_detail"] or r["original_nodes"] == 1, r["failure_detail"]
    assert r["minimized_nodes"] <= 2 and r["minimized_nodes"] < r["original_nodes"], r
    assert "relu" in aten_ops(r["dump"]), aten_ops(r["dump"])
    assert r["verify_failed"] == r["verified_seeds"] == 2, r  # other seeds fail the same way
    assert r["compile_child_starts"] == 1, r  # one Python child for every candidate
    # the repro runs the same passes under plain PyTorch (the pass imported from PYTHONPATH) and diverges: exit 1
    p = subprocess.run([sys.executable, r["repro"]], capture_output=True, text=True, timeout=600, env=ENV)
    assert p.returncode == 1 and "FAILED: output 0 of inductor's post-grad graph differs from the graph" in p.stdout, \
        (p.returncode, p.stdout, p.stderr[-2000:])
    code, out, err = finish(plain)
    assert code == 1, (code, err, out)
    r = json.loads(out)
    assert not r["reproduced"] and "post-grad graph agrees with fxray's replay" in r["why"], r
    # a pass that cannot be imported: the candidate cannot be judged, and the run says why
    code, out, err = finish(missing)
    assert code == 1, (code, err, out)
    r = json.loads(out)
    assert not r["reproduced"] and "No module named 'no_such_module'" in r["why"], r
    # a longer graph (200 nodes, the relu at node 101): the baseline judges the first 64 nodes (agree), then the first
    # 128 (diverge), never the whole graph, and truncates at the relu
    code, out, err = finish(chain)
    assert code == 0, (code, err, out)
    r = json.loads(out)
    assert r["log"][:2] == ["baseline: the first 128 of 200 nodes fail (query 2)", r["log"][1]], r["log"]
    assert r["log"][2].startswith("truncate at 'relu' -> 101 nodes"), r["log"]
    assert r["signature"] == "diverge:post_grad at aten.relu.default: large error" and r["minimized_nodes"] == 1, r



if __name__ == "__main__":
    if not have_worker():
        print("0 passed, 0 failed (no worker in this build)")
        sys.exit(0)
    main()
