"""`fxray compare` (stage compare, issue 16) over real TORCH_TRACE logs of the repository, on the CPU: a clean
compile's stages (dynamo graph, AOT forward/inference graph, inductor post-grad graph) agree on the same generated
inputs; a divergence planted in one stage's payload is reported at that stage and output; a compile that cannot
be lined up says why; a crash in one stage costs that stage only; bad addresses exit 2 with a clear message; a
whole log gives one line per compile and a JSON file. Last, inductor's generated code (issue 27): a correct
compile agrees through it, inductor's planted relu bug diverges there and its C++ relu kernel is named, with its
call and definition; without a Python with torch the stage fails and says why."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SAMPLES, SOURCE, check, edit_trace_payload, have_worker, main, run  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="fxray-stage-compare-")
MLP = os.path.join(SAMPLES, "cpu", "trace", "mlp_inductor.log")
BREAKS = os.path.join(SOURCE, "tests", "data", "report", "graph_breaks.log")
STAGES = os.path.join(SOURCE, "tests", "data", "stage_compare", "stage_compare.log")
# A Linear/ReLU/Linear inference compile under inductor on the CPU, without and with inductor's planted relu bug
# (cpp.inject_relu_bug_TESTING_ONLY = "accuracy": the C++ relu kernel computes x + 1), captured by
# tools/runtime/make_output_code_traces.py.
OUTPUT_CODE = os.path.join(SOURCE, "tests", "data", "output_code")


def compare_json(address, *extra, env=None, output_code=False):
    # The FX-stage checks leave inductor's generated code out (each output_code stage starts a Python child with
    # torch and inductor); the output_code checks below ask for it.
    extra = extra if output_code else (*extra, "--no-output-code")
    p = subprocess.run([FXRAY, "compare", address, "--json", *extra], capture_output=True, text=True, timeout=600,
                       env={**os.environ, **(env or {})})
    assert p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}"
    return p.returncode, json.loads(p.stdout)


def stage(report, name):
    return next(s for s in report["stages"] if s["stage"] == name)


@check
def a_clean_training_compile_agrees_at_every_stage():
    code, r = compare_json(MLP + "#0/0")
    assert code == 0 and r["verdict"] == "agree", (r["verdict"], r["reason"])
    assert [s["stage"] for s in r["stages"]] == ["dynamo", "aot_forward", "post_grad"], r["stages"]
    assert r["reference_stage"] == "dynamo" and r["first_divergent_stage"] is None
    for name in ("aot_forward", "post_grad"):
        s = stage(r, name)
        assert s["status"] == "clean" and s["verdict"] == "agree" and s["compared"] == 1, s
        # the AOT forward returns addmm_1 (the user output) and 4 saved activations: only the first is compared
        c = s["comparisons"][0]
        assert c["what"].startswith("f32[8, 10]") and c["tolerance"] == "f32: atol 0.0001 rtol 0.0001", c
        assert s["max_abs"] < 1e-4, s["max_abs"]
    # --runnable adds inductor's input (fx_graph_runnable) between the AOT forward and the post-grad graph
    code, r = compare_json(MLP + "#0/0", "--runnable")
    assert code == 0 and [s["stage"] for s in r["stages"]] == ["dynamo", "aot_forward", "runnable", "post_grad"], r["stages"]
    assert stage(r, "runnable")["verdict"] == "agree", stage(r, "runnable")
    # the text form says the same, with the tolerance used
    code, out, _ = run("compare", MLP + "#0/0", "--no-output-code")
    assert code == 0 and ": agree" in out.splitlines()[0] and "tolerance: f32: atol 0.0001" in out, out


@check
def inference_compiles_of_aot_eager_agree():
    code, r = compare_json(BREAKS + "#0/0")
    assert code == 0 and r["verdict"] == "agree", r["reason"]
    assert [s["stage"] for s in r["stages"]] == ["dynamo", "aot_inference"], r["stages"]


@check
def a_constant_changed_in_the_post_grad_graph_diverges_there():
    log = edit_trace_payload(MLP, os.path.join(TMP, "planted.log"), "inductor_post_grad_graph",
                             "torch.ops.aten.relu.default(addmm)", "torch.ops.aten.leaky_relu.default(addmm, 0.5)")
    code, r = compare_json(log + "#0/0")
    assert code == 1 and r["verdict"] == "diverge", (r["verdict"], r["reason"])
    assert r["first_divergent_stage"] == "post_grad" and r["first_divergent_output"] == 0, r
    assert stage(r, "aot_forward")["verdict"] == "agree", stage(r, "aot_forward")
    s = stage(r, "post_grad")
    assert s["status"] == "clean" and s["verdict"] == "diverge" and s["max_abs"] > 1e-2, s
    code, out, _ = run("compare", log + "#0/0", "--no-output-code")
    assert code == 1 and "diverge at stage post_grad, output 0" in out and "first divergence: stage post_grad" in out, out


@check
def a_literal_changed_in_the_aot_graph_diverges_there_and_later_stages_are_still_compared():
    log = edit_trace_payload(BREAKS, os.path.join(TMP, "planted_aot.log"), "aot_inference_graph",
                             "torch.ops.aten.add.Tensor(sin, 1)", "torch.ops.aten.add.Tensor(sin, 1.5)")
    code, r = compare_json(log + "#0/0")
    assert code == 1 and r["first_divergent_stage"] == "aot_inference", r
    c = stage(r, "aot_inference")["comparisons"][0]
    assert not c["ok"] and abs(c["max_abs"] - 0.5) < 1e-5, c


@check
def outputs_of_a_constant_the_log_has_no_value_for_are_not_compared():
    # AOTAutograd lifts a literal of the dynamo graph into a constant tensor that the log holds no value for (BART's
    # and Whisper's decoder start token on the H100): its generated stand-in is no compiler divergence.
    log = edit_trace_payload(BREAKS, os.path.join(TMP, "constant.log"), "aot_inference_graph",
                             'add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(sin, 1);  sin = None',
                             '_tensor_constant0: "f32[][]cpu" = self._tensor_constant0\n'
                             '        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(sin, _tensor_constant0);  sin = None')
    code, r = compare_json(log + "#0/0")
    s = stage(r, "aot_inference")
    c = s["comparisons"][0]
    assert r["verdict"] != "diverge" and s["verdict"] == "not compared" and not c["compared"], (r["reason"], c)
    assert "_tensor_constant0" in c["note"] and "no value" in c["note"], c
    # the other stages decide, and a note says what was left out (the compile was "failed" with the reason "stage
    # aot_inference clean": BART's and Whisper's on the H100, whose post-grad graphs agree); this log has no later
    # stage, so nothing was compared, and the reason says so
    assert any("aot_inference ran clean; its outputs were not compared" in n for n in r["notes"]), r["notes"]
    assert r["verdict"] == "failed" and "no stage's outputs could be compared" in r["reason"], r["reason"]


@check
def a_compile_that_logged_only_the_joint_graph_compares_its_forward_part():
    # The AOT forward and backward records dropped: the joint graph (primals and tangents in, forward outputs and
    # gradients out) is the AOT stage; the post-grad forward's inputs line up with its primals by name.
    with open(MLP) as f:
        lines = f.read().split("\n")
    kept, skipping = [], False
    for line in lines:
        if not line.startswith("\t"):
            skipping = '"aot_forward_graph": {}' in line or '"aot_backward_graph": {}' in line
        if not skipping:
            kept.append(line)
    log = os.path.join(TMP, "joint_only.log")
    with open(log, "w") as f:
        f.write("\n".join(kept))
    code, r = compare_json(log + "#0/0")
    assert code == 0 and r["verdict"] == "agree", (r["reason"], r["stages"])
    assert [s["stage"] for s in r["stages"]] == ["dynamo", "aot_joint", "post_grad"], r["stages"]
    assert all(s["compared"] == 1 for s in r["stages"][1:]), r["stages"]


@check
def a_compile_torch_failed_after_dynamo_is_not_compiled_and_says_why():
    # frame 4 of graph_breaks.log: the backend raised, so dynamo's graph is all there is and the frame ran eagerly:
    # nothing compiled to compare, which is no failure of the compile's stages (exit 0)
    code, r = compare_json(BREAKS + "#4/0")
    assert code == 0 and r["verdict"] == "not compiled", r
    assert "BackendCompilerFailed" in r["reason"] and "RuntimeError: broken backend" in r["reason"], r["reason"]
    d = stage(r, "dynamo")  # nothing of fxray's failed: not drawn as a problem
    assert d["status"] == "not compiled" and d["verdict"] == "not compared", r["stages"]


@check
def reshaped_aot_inputs_make_dynamo_unmappable_but_the_rest_is_compared():
    # A descriptor that says AOTAutograd merged the input into a synthetic base: dynamo's L_x_ has no AOT input.
    log = edit_trace_payload(MLP, os.path.join(TMP, "synthetic.log"), "aot_forward_graph",
                             "primals_4: \"f32[s77, 32][32, 1]cpu\",  # PlainAOTInput(idx=3)",
                             "primals_4: \"f32[s77, 32][32, 1]cpu\",  # SyntheticBaseAOTInput(base_of=PlainAOTInput(idx=3))")
    code, r = compare_json(log + "#0/0")
    assert code == 1 and r["verdict"] == "failed", r
    d = stage(r, "dynamo")
    assert d["status"] == "unmappable" and "L_x_" in d["detail"] and "SyntheticBaseAOTInput" in d["detail"], d
    assert r["reference_stage"] == "aot_forward" and stage(r, "post_grad")["verdict"] == "agree", r["stages"]


@check
def a_crash_in_one_stage_costs_that_stage_only():
    # addmm_1 is a node of the AOT forward and the post-grad graph, not of dynamo's (linear_1 there)
    code, r = compare_json(MLP + "#0/0", env={"FXRAY_WORKER_FAULT": "abort:addmm_1"})
    assert code == 1 and r["verdict"] == "failed", r
    assert stage(r, "dynamo")["status"] == "clean", stage(r, "dynamo")
    for name in ("aot_forward", "post_grad"):
        s = stage(r, name)
        assert s["status"] == "failed" and "died" in s["detail"] and "addmm_1" in s["detail"], s


@check
def bad_addresses_exit_2_with_a_clear_message():
    code, _, err = run("compare", MLP + "#7/0")
    assert code == 2 and "compile [7/0] logged no graph" in err and "[0/0]" in err, err
    code, _, err = run("compare", MLP + "#0/0/aot_forward_graph")
    assert code == 2 and "names a graph, not a compile" in err and "#0/0" in err, err
    code, _, err = run("compare", os.path.join(TMP, "missing.log") + "#0/0")
    assert code == 2 and "missing.log" in err, err
    code, _, err = run("compare", MLP + "#0/0", "--seed", "x")
    assert code == 2 and "--seed" in err, err


@check
def a_whole_log_gives_one_line_per_compile_and_a_json_file():
    out = os.path.join(TMP, "all.json")
    code, text, err = run("compare", BREAKS, "-o", out, "--no-output-code")
    assert code == 0, (code, err)  # the compile whose backend raised is "not compiled": no failure
    lines = [l for l in text.splitlines() if l.startswith(("agree", "diverge", "failed", "not compiled"))]
    data = json.load(open(out))
    assert len(lines) == len(data["compiles"]) == data["summary"]["compiles"] >= 6, (lines, data["summary"])
    assert data["summary"]["agree"] >= 5 and data["summary"]["not_compiled"] >= 1, data["summary"]
    assert data["summary"]["failed"] == 0 and data["summary"]["diverge"] == 0, data["summary"]
    assert all(c["verdict"] in ("agree", "not compiled") for c in data["compiles"])


@check
def bf16_autocast_mutated_inputs_and_symints_line_up():
    code, r = compare_json(STAGES + "#0/0")
    assert code == 0 and r["verdict"] == "agree", (r["reason"], r["stages"])
    assert [s["stage"] for s in r["stages"]] == ["dynamo", "aot_inference", "post_grad"], r["stages"]
    for s in r["stages"][1:]:
        assert s["comparisons"][0]["what"].startswith("bf16") and s["comparisons"][0]["tolerance"].startswith("bf16: atol 0.01"), s
    # conv + batch norm in training: the user output, then the 3 buffers the compile mutates (dynamo's graph in
    # place, the AOT and post-grad graphs through copy_ into their inputs), as each stage leaves them
    code, r = compare_json(STAGES + "#1/0")
    assert code == 0 and r["verdict"] == "agree", (r["reason"], r["stages"])
    assert all(s["compared"] == 4 for s in r["stages"][1:]), r["stages"]
    assert "3 = L_self_modules_bn_buffers_running_var_" in r["notes"][0], r["notes"]
    assert r["stages"][1]["comparisons"][1]["tolerance"] == "exact", r["stages"][1]["comparisons"]  # num_batches_tracked
    # a dynamic int: SymInt inputs line up, the int output compares exactly
    code, r = compare_json(STAGES + "#2/0")
    assert code == 0 and r["verdict"] == "agree", (r["reason"], r["stages"])


@check
def inductors_generated_code_is_the_last_stage_and_the_planted_relu_bug_is_found_in_its_kernel():
    # One fxray run over both logs (a Python child per compile: inductor loads and checks its C++ kernels there).
    out = os.path.join(TMP, "output_code.json")
    p = subprocess.run([FXRAY, "compare", OUTPUT_CODE, "--json", "-o", out], capture_output=True, text=True, timeout=900)
    assert p.returncode == 1, (p.returncode, p.stderr)  # the planted compile diverges
    by_log = {os.path.basename(c["address"].split("#")[0]): c for c in json.load(open(out))["compiles"]}
    assert by_log["layout.log"]["verdict"] == "agree", by_log["layout.log"]["reason"]
    correct, planted = by_log["correct.log"], by_log["planted.log"]
    # the correct compile agrees through the generated code, which ran and was compared
    assert correct["verdict"] == "agree", (correct["reason"], correct["stages"])
    assert [s["stage"] for s in correct["stages"]] == ["dynamo", "aot_inference", "post_grad", "output_code"], correct["stages"]
    oc = stage(correct, "output_code")
    assert oc["status"] == "clean" and oc["verdict"] == "agree" and oc["compared"] == 1 and oc["max_abs"] < 1e-4, oc
    assert oc["record"] == "inductor_output_code" and oc["nodes"] == 3, oc  # addmm, the relu kernel, addmm
    assert "kernel" not in oc, oc  # no kernel search report when the outputs agree
    # the planted bug: every FX stage agrees, the generated code diverges, and its relu kernel is named
    assert planted["verdict"] == "diverge" and planted["first_divergent_stage"] == "output_code", planted["reason"]
    assert all(stage(planted, n)["verdict"] == "agree" for n in ("aot_inference", "post_grad")), planted["stages"]
    oc = stage(planted, "output_code")
    assert oc["verdict"] == "diverge" and oc["max_abs"] > 0.1, oc
    k = oc["kernel"]
    assert planted["first_divergent_kernel"] == "cpp_fused_relu_0" and k["found"], k
    assert k["kind"] == "cpp" and k["node"] == "relu" and k["buffer"] == "buf1" and k["index"] == 1 and k["kernels"] == 3, k
    assert k["mismatched"] > 0 and k["max_abs"] > 0.1, k
    # the call and the definition are lines of the log: the call line holds the call, the definition the planted +1
    log = open(os.path.join(OUTPUT_CODE, "planted.log")).read().split("\n")
    call_line = int(k["origin"].rsplit(":", 1)[1])
    assert log[call_line - 1].strip() == "cpp_fused_relu_0(buf1)" == k["code"], (k["origin"], log[call_line - 1])
    assert "cpp_fused_relu_0 = async_compile.cpp_pybinding" in k["definition"] and "+ decltype(tmp0)(1)" in k["definition"], k
    # the same in words
    code, text, _ = run("compare", os.path.join(OUTPUT_CODE, "planted.log") + "#0/0")
    assert code == 1 and "diverge at stage output_code" in text and "first divergent kernel: cpp_fused_relu_0" in text, text
    assert "writes buf1 = post-grad node relu" in text and "planted.log:%d: cpp_fused_relu_0(buf1)" % call_line in text, text


@check
def generated_code_gets_inputs_with_their_recorded_strides_and_bf16_computed_outputs_bf16s_tolerance():
    # layout.log: a Linear under bf16 autocast times an expanded mask (strides (0, 1)). The generated code asserts
    # the mask's stride 0; handed a dense copy, it raised (BART's and Whisper's attention masks on the H100).
    code, r = compare_json(os.path.join(OUTPUT_CODE, "layout.log") + "#0/0", output_code=True)
    assert code == 0 and r["verdict"] == "agree", (r["reason"], r["stages"])
    oc = stage(r, "output_code")
    assert oc["status"] == "clean" and oc["compared"] == 1, oc
    # the f32 output is computed from bf16 values: two compiles round those at other places (on the H100, 1 bf16
    # ulp apart), so it is held to bf16's tolerance, and says why
    c = oc["comparisons"][0]
    assert c["what"].startswith("f32") and c["atol"] == 0.01 and "computed from bfloat16" in c["note"], c


@check
def the_output_code_stage_without_a_usable_python_fails_and_says_why_and_the_rest_is_compared():
    log = os.path.join(OUTPUT_CODE, "correct.log") + "#0/0"
    code, r = compare_json(log, "--python", os.path.join(TMP, "no-such-python"), output_code=True)
    oc = stage(r, "output_code")
    assert code == 1 and r["verdict"] == "failed" and oc["status"] == "failed", r
    assert "no-such-python" in oc["detail"] and "FXRAY_PYTHON" in oc["detail"], oc["detail"]
    assert stage(r, "post_grad")["verdict"] == "agree", r["stages"]
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system and subprocess.run([system, "-c", "import torch"], capture_output=True).returncode != 0:
        code, r = compare_json(log, "--python", system, output_code=True)
        oc = stage(r, "output_code")
        assert oc["status"] == "failed" and "cannot import torch" in oc["detail"] and system in oc["detail"], oc
    # and --no-output-code leaves the stage out
    code, r = compare_json(log)
    assert code == 0 and [s["stage"] for s in r["stages"]][-1] == "post_grad", r["stages"]


@check
def generated_code_calling_inductors_own_prims_runs_in_the_child():
    # Inductor's prims (prepare_softmax_online in a softmax's fallback, inductor_lookup_seed with dropout,
    # _low_memory_max_pool_with_offsets) exist once torch._inductor.inductor_prims ran. The runner's custom-op check
    # ran before the generated module imported it, and refused 16 of 63 correct CUDA compiles (session 13, H100).
    code = os.path.join(TMP, "prims_output_code.py")
    with open(code, "w") as f:
        f.write("import torch\n\ndef call(args):\n    (x,) = args\n"
                "    m, s = torch.ops.prims.prepare_softmax_online.default(x, 1)\n    return (torch.exp(x - m) / s,)\n")
    import torch
    inputs, outputs = os.path.join(TMP, "prims_inputs.pt"), os.path.join(TMP, "prims_outputs.pt")
    x = torch.randn(3, 5)
    torch.save([x], inputs)
    runner = os.path.join(SOURCE, "tools", "runtime", "run_output_code.py")
    p = subprocess.run([sys.executable, runner, "run", "--code", code, "--inputs", inputs, "--out", outputs,
                        "--no-cudnn-tf32"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    got = torch.load(outputs)
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert torch.allclose(got if isinstance(got, torch.Tensor) else got[0], torch.softmax(x, 1)), got


@check
def cpu_kernels_written_for_another_vector_isa_run_with_that_isa():
    # stage_compare.log's C++ kernels were generated on an AVX2 machine (8-lane floats). Compiled for this CPU's
    # AVX-512 they overran their buffers and the child died of heap corruption after the run ("free(): invalid next
    # size"); the runner now asks inductor for the kernels' ISA, or says this CPU cannot run them.
    code, r = compare_json(STAGES + "#1/0", output_code=True)
    oc = stage(r, "output_code")
    if oc["status"] == "failed":
        assert "lane float vectors" in oc["detail"], oc["detail"]
    else:
        assert code == 0 and r["verdict"] == "agree" and oc["verdict"] == "agree", (r["verdict"], oc)


@check
def inductor_low_memory_max_pool_prims_replay_like_aten():
    # resnet50's AOT graphs under inductor pool with prims._low_memory_max_pool_with_offsets (Python-registered);
    # fxray ran them as unsupported, so its compiles could not be compared. Offsets turned back into indices must
    # equal aten.max_pool2d_with_indices' (2*3*6*5 = 180 equal elements), and offsets stay inside the 3x2 window.
    p = subprocess.run([FXRAY, "replay", os.path.join(SOURCE, "tests", "data", "fx", "low_memory_max_pool.py"), "--json",
                        "--all-nodes"], capture_output=True, text=True, timeout=300)
    r = json.loads(p.stdout)
    assert p.returncode == 0 and r["verdict"] == "pass", (r["verdict"], r.get("unsupported"))
    out = next(n for n in r["nodes"] if n["name"] == "output")["outputs"]
    assert out[0]["min"] == 180 and 0 <= out[1]["max"] < 6, out


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
