"""`fxray minimize` on the CPU, through `fxray worker` processes: the planted NaN keeps its cause, a planted
stride mismatch in a 300+ node graph shrinks to the op and its inputs, a planted op error, a crashing and a
hanging worker, the exported dump and repro. Graphs are captured at test time by
tests/data/minimize/make_models.py. Skipped (0 checks) in a build without LibTorch (no worker)."""
import ast
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from cli_harness import SOURCE, aten_ops, check, have_worker, main, run

FAULTS = os.path.join(SOURCE, "tests", "data", "faults")
WORK = tempfile.mkdtemp(prefix="fxray-minimize-")
MODELS = os.path.join(WORK, "models")


def have_torch():
    return subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0


def models():
    if not os.path.isdir(MODELS):
        subprocess.run([sys.executable, os.path.join(SOURCE, "tests", "data", "minimize", "make_models.py"), "--out", MODELS,
                        "--only", "resmlp_nan", "transformer5"], check=True, capture_output=True, timeout=600)
    return MODELS


def minimize(graph, until, out, *extra, env=None):
    p = subprocess.run([os.environ.get("FXRAY_BIN", "fxray"), "minimize", graph, "--until", until, "-o", out, "--json", *extra],
                       capture_output=True, text=True, timeout=600, env=env)
    assert p.returncode == 0, f"exit {p.returncode}: {p.stderr}\n{p.stdout}"
    return json.loads(p.stdout)


def forward_body(dump):
    module = open(os.path.join(dump, "module.py")).read()
    return module[module.index("def forward"):]


def repro(path, *args):
    return subprocess.run([sys.executable, path, *args], capture_output=True, text=True, timeout=300)


@check
def planted_nan_shrinks_to_its_statement_and_the_repro_fails_under_pytorch():
    graph = os.path.join(models(), "resmlp_nan")
    out = os.path.join(WORK, "nan")
    start = time.monotonic()
    r = minimize(graph, "nan", out)
    wall = time.monotonic() - start
    assert r["signature"] == "nan at aten.log.default", r["signature"]
    assert r["original_nodes"] >= 70 and r["minimized_nodes"] <= 4, r
    found = aten_ops(r["dump"])
    assert {"var", "sub", "log"} <= set(found), found
    assert wall < 10, f"{wall:.1f} s"
    assert r["verify_failed"] == r["verified_seeds"] == 2, r  # fails on fresh inputs of other seeds too
    # The placeholder that replaced the upstream layers is fed fresh values: the NaN is made inside the repro.
    p = repro(r["repro"])
    assert p.returncode == 1 and "FAILED" in p.stdout and "from finite inputs" in p.stdout, (p.returncode, p.stdout, p.stderr)
    print(f"    resmlp: {r['original_nodes']} -> {r['minimized_nodes']} nodes ({found}), {r['queries']} queries, "
          f"{r['seconds']:.2f} s in minimize, {wall:.2f} s wall")


@check
def minimized_dump_loads_and_replays_with_the_same_failure():
    out = os.path.join(WORK, "nan")
    dump = os.path.join(out, "minimized_forward_0")
    code, text, err = run("replay", dump, "--json")
    assert code == 1, (code, err)
    rep = json.loads(text)
    assert rep["verdict"] == "nan" and rep["first_nan_node"] == "log", rep["verdict"]
    code, text, err = run("info", dump, "--json")
    assert code == 0, err
    # module.py is importable Python with to_folder's class name (the readable keeps print_readable's <lambda>).
    module = open(os.path.join(dump, "module.py")).read()
    ast.parse(module)
    assert "class FxModule(torch.nn.Module):" in module
    code, text, err = run("show", os.path.join(models(), "resmlp_nan"))
    assert text.startswith("class <lambda>(torch.nn.Module):"), text[:80]


@check
def split_statement_lets_the_nan_shrink_further():
    r = minimize(os.path.join(models(), "resmlp_nan"), "nan", os.path.join(WORK, "nan_split"), "--split-statement")
    assert r["signature"] == "nan at aten.log.default"
    assert r["minimized_nodes"] < 3, r  # log of a fresh input that is partly negative: the cause is gone
    assert "log" in aten_ops(r["dump"])


@check
def stride_mismatch_planted_in_a_300_node_graph_shrinks_to_the_op_and_its_inputs():
    src = os.path.join(models(), "transformer5")
    planted = os.path.join(WORK, "t5_stride")
    shutil.copytree(src, planted)
    readable = glob.glob(os.path.join(planted, "*", "*.readable.py"))[0]
    text = open(readable).read()
    edited = text.replace('bmm_4: "f32[8, 8, 8][64, 8, 1]cpu"', 'bmm_4: "f32[8, 8, 8][64, 1, 8]cpu"')
    assert edited != text
    open(readable, "w").write(edited)
    r = minimize(planted, "mismatch", os.path.join(WORK, "stride"))
    assert r["original_nodes"] >= 250, r  # 332 nodes in all, 270 of them compute nodes
    assert r["signature"] == "mismatch:stride at aten.bmm.default" and r["failing_node"] == "bmm_4", r
    assert aten_ops(r["dump"]) == ["bmm"], aten_ops(r["dump"])
    body = forward_body(r["dump"])
    assert body.startswith("def forward(self, _unsafe_view_8, _unsafe_view_9)"), body
    p = repro(r["repro"])
    assert p.returncode == 1 and "stride [64, 8, 1], recorded [64, 1, 8]" in p.stdout, (p.stdout, p.stderr)


@check
def planted_op_error_matches_its_regex_and_shrinks_to_the_op():
    r = minimize(os.path.join(FAULTS, "op_raises"), "error:shapes cannot be multiplied", os.path.join(WORK, "err"))
    assert r["signature"].startswith("error at aten.addmm.default: mat# and mat# shapes cannot be multiplied"), r
    assert aten_ops(r["dump"]) == ["addmm"], aten_ops(r["dump"])
    p = repro(r["repro"])
    assert p.returncode == 1 and "raised: mat1 and mat2 shapes cannot be multiplied" in p.stdout, (p.stdout, p.stderr)


@check
def an_error_that_does_not_match_the_regex_is_not_the_failure():
    code, out, err = run("minimize", os.path.join(FAULTS, "op_raises"), "--until", "error:out of memory", "-o",
                         os.path.join(WORK, "nomatch"))
    assert code == 1 and "does not fail" in out, (code, out, err)


@check
def a_worker_that_crashes_in_some_candidates_costs_those_queries_not_the_run():
    # The worker aborts whenever it reaches view_33, which comes after the planted mismatch: the original's
    # replay dies there (the mismatch before it is kept, streamed before the crash) and so do candidates
    # that keep view_33; the run goes on with fresh workers.
    src = os.path.join(WORK, "t5_stride")
    env = dict(os.environ, FXRAY_WORKER_FAULT="abort:view_33")
    r = minimize(src, "mismatch", os.path.join(WORK, "crash"), env=env)
    assert r["signature"] == "mismatch:stride at aten.bmm.default" and aten_ops(r["dump"]) == ["bmm"], r
    assert r["worker_starts"] >= 2, r


@check
def a_crash_itself_can_be_minimized_to_the_node_that_crashes():
    env = dict(os.environ, FXRAY_WORKER_FAULT="abort:addmm")
    r = minimize(os.path.join(FAULTS, "wrong_size"), "error:worker died", os.path.join(WORK, "crash2"), env=env)
    assert "worker died" in r["signature"] and r["failing_node"] == "addmm", r
    assert aten_ops(r["dump"]) == ["addmm"], aten_ops(r["dump"])


@check
def a_hung_worker_is_killed_at_the_timeout_and_the_run_finishes():
    env = dict(os.environ, FXRAY_WORKER_FAULT="hang:view_33")
    start = time.monotonic()
    r = minimize(os.path.join(WORK, "t5_stride"), "mismatch", os.path.join(WORK, "hang"), "--timeout", "3", env=env)
    assert aten_ops(r["dump"]) == ["bmm"] and r["worker_starts"] >= 2, r
    assert time.monotonic() - start < 60


@check
def external_command_judges_the_exported_repro():
    # The command fails (exit 3) while the repro still contains an addmm: the minimal graph is one addmm.
    cmd = "cmd:grep -q aten.addmm {} && exit 3 || exit 0"
    r = minimize(os.path.join(FAULTS, "wrong_size"), cmd, os.path.join(WORK, "cmd"))
    assert r["signature"] == "cmd: exit 3", r["signature"]
    assert aten_ops(r["dump"]) == ["addmm"], aten_ops(r["dump"])


@check
def a_graph_that_does_not_fail_exits_1_and_bad_specs_exit_2():
    sample = os.path.join(SOURCE, "samples", "cpu", "dumps", "mlp", "mlp_forward_0")
    code, out, err = run("minimize", sample, "--until", "nan", "-o", os.path.join(WORK, "clean"))
    assert code == 1 and "does not fail" in out, (code, out, err)
    code, out, err = run("minimize", sample, "--until", "bogus", "-o", os.path.join(WORK, "bogus"))
    assert code == 2 and "--until" in err, (code, err)
    code, out, err = run("minimize", sample, "--until", "error:(", "-o", os.path.join(WORK, "bogus"))
    assert code == 2 and "regular expression" in err, (code, err)


if __name__ == "__main__":
    if not have_worker():
        print("fxray was built without LibTorch: no worker, nothing to minimize with; 0 checks")
        sys.exit(0)
    if not have_torch():
        print(f"{sys.executable} has no torch to capture the test graphs with; 0 checks")
        sys.exit(0)
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
