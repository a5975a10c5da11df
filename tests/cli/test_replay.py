"""`fxray replay` on the CPU: every sample graph replays clean; planted faults are caught at the right node;
int index inputs land in their valid ranges. Skipped (0 checks) in a build without LibTorch."""
import glob
import json
import os
import subprocess
import sys
import tempfile

from cli_harness import SAMPLES, SOURCE, check, main, run

FAULTS = os.path.join(SOURCE, "tests", "data", "faults")


def replay_json(path, *extra):
    code, out, err = run("replay", path, "--json", *extra)
    assert code in (0, 1), f"exit {code}: {err}"
    return code, json.loads(out)


def node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


def seed_dumps():
    return sorted(glob.glob(os.path.join(SAMPLES, "*", "dumps", "*", "*_*_[0-9]*")))


@check
def every_seed_dump_sample_replays_clean_on_cpu_with_random_and_saved_inputs():
    dumps = seed_dumps()
    assert len(dumps) == 18, dumps
    for d in dumps:
        for mode in ("random", "saved"):
            code, r = replay_json(d, "--inputs", mode)
            assert code == 0 and r["verdict"] == "pass", (d, mode, r["verdict"], r.get("fatal"), r["counts"])
            assert r["first_nan_node"] is None
            assert r["counts"]["mismatch"] == 0 and r["counts"]["error"] == 0
            out = node(r, "output")
            for s in out["outputs"]:
                if "nan" in s:
                    assert s["nan"] == 0 and s["inf"] == 0, (d, mode, s)


@check
def aot_graphs_in_traces_and_debug_dirs_replay_or_name_the_cuda_only_op():
    code, data = replay_json(SAMPLES)
    for r in data["reports"]:
        addr = r["address"]
        if "compiled_autograd_graph" in addr:
            continue  # helper calls need Python in some: test_compiled_autograd.py checks each one
        if "/ltc/" in addr:
            continue  # lazy-tensor dumps are not replayable, the LTC backend's inputs shapeless: test_ir_formats.py
        if "dynamo_output_graph" in addr or "pre_grad_graph" in addr and "post" not in addr:
            # dynamo-level graphs call torch functions, resolved to aten natively (test_dynamo_replay.py); only
            # compiled autograd's helper calls into autograd nodes still need Python
            if r["verdict"] == "unsupported":
                assert all("compiled autograd runs autograd node" in u for u in r["unsupported"]), (addr, r["unsupported"])
                continue
        if r["verdict"] == "unsupported":
            # the transformer's efficient attention has only a CUDA kernel
            assert all("no CPU kernel" in u and "efficient_attention" in u for u in r["unsupported"]), (addr, r["unsupported"])
            continue
        assert r["verdict"] == "pass", (addr, r["verdict"], r.get("fatal"), r["counts"])


@check
def outputs_with_saved_inputs_equal_pytorch_eager():
    # References from PyTorch eager running each dump's module.py on this CPU, made now by make_expected.py
    # (kernels of another CPU may round numerically sensitive graphs differently, so they are not committed).
    with tempfile.TemporaryDirectory() as expected_root:
        subprocess.run([sys.executable, os.path.join(SOURCE, "tests", "data", "replay", "make_expected.py"),
                        "--out", expected_root], check=True, cwd=SOURCE, capture_output=True)
        for d in seed_dumps():
            rel = os.path.relpath(d, SAMPLES)
            code, r = replay_json(d, "--inputs", "saved", "--expected", os.path.join(expected_root, rel + ".pt"))
            assert code == 0 and r["verdict"] == "pass", (rel, r["verdict"], r.get("fatal"))
            assert r["comparisons"] and all(c["ok"] for c in r["comparisons"]), (rel, r["comparisons"])
            assert max(c["max_abs"] for c in r["comparisons"]) == 0, rel  # same kernels, same bits


@check
def outputs_that_differ_from_the_reference_are_reported_as_diverged():
    d = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0")
    # make_expected.py's eager outputs of this dump for its saved inputs (kept as a fixture)
    expected = os.path.join(SOURCE, "tests", "data", "replay", "mlp_forward_0_outputs.pt")
    code, r = replay_json(d, "--inputs", "random", "--expected", expected)  # random inputs: other values
    assert code == 1 and r["verdict"] == "diverged", r["verdict"]
    first = r["comparisons"][0]
    assert not first["ok"] and first["mismatched"] > 0 and first["max_abs"] > 1e-3


@check
def compare_device_replays_the_same_inputs_twice():
    d = os.path.join(SAMPLES, "h100", "dumps", "cnn_channels_last", "cnn_channels_last_backward_0")
    code, r = replay_json(d, "--compare-device", "cpu")
    assert code == 0 and r["reference"] == "cpu replay" and all(c["ok"] and c["max_abs"] == 0 for c in r["comparisons"])


@check
def timed_repeats_report_each_iteration():
    d = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_backward_0")
    _, r = replay_json(d, "--repeat", "5", "--warmup", "1", "--no-values")
    assert len(r["iteration_us"]) == 5 and all(t > 0 for t in r["iteration_us"])


@check
def wrong_stride_annotation_is_a_stride_mismatch_at_that_node():
    code, r = replay_json(os.path.join(FAULTS, "wrong_stride"))
    assert code == 1 and r["verdict"] == "mismatch"
    bad = [n for n in r["nodes"] if n["status"] == "mismatch"]
    assert [n["name"] for n in bad] == ["t"], bad
    (m,) = bad[0]["mismatches"]
    assert m["kind"] == "stride" and m["expected"] == "[128, 1]" and m["actual"] == "[1, 64]"


@check
def wrong_dtype_annotation_is_a_dtype_mismatch_at_that_node():
    _, r = replay_json(os.path.join(FAULTS, "wrong_dtype"))
    bad = [n for n in r["nodes"] if n["status"] == "mismatch"]
    assert [n["name"] for n in bad] == ["relu"]
    assert bad[0]["mismatches"][0]["kind"] == "dtype" and bad[0]["mismatches"][0]["expected"] == "f16"


@check
def wrong_size_annotation_is_a_size_mismatch_at_that_node():
    _, r = replay_json(os.path.join(FAULTS, "wrong_size"))
    bad = [n for n in r["nodes"] if n["status"] == "mismatch"]
    assert [n["name"] for n in bad] == ["addmm_1"]
    assert bad[0]["mismatches"][0] == {"kind": "size", "output": 0, "expected": "[32, 11]", "actual": "[32, 10]"}


@check
def an_op_that_raises_is_an_error_naming_the_node_and_the_rest_still_runs():
    code, r = replay_json(os.path.join(FAULTS, "op_raises"))
    assert code == 1 and r["verdict"] == "error"
    bad = node(r, "addmm_1")
    assert bad["status"] == "error" and "cannot be multiplied" in bad["error"], bad
    assert node(r, "t_1")["status"] == "passed"


@check
def stop_on_first_leaves_later_nodes_not_run():
    _, r = replay_json(os.path.join(FAULTS, "wrong_stride"), "--stop-on-first")
    assert node(r, "t")["status"] == "mismatch"
    assert node(r, "addmm")["status"] == "not-run"


@check
def nan_origin_is_the_node_that_makes_it_not_its_users():
    _, r = replay_json(os.path.join(FAULTS, "nan_source"))
    assert r["verdict"] == "nan" and r["first_nan_node"] == "relu"
    assert node(r, "relu").get("nan_origin") is True
    assert node(r, "addmm_1")["outputs"][0]["nan"] > 0 and not node(r, "addmm_1").get("nan_origin")


@check
def embedding_and_cross_entropy_indices_are_in_range_and_not_all_zero():
    for kind in ("forward", "backward", "joint"):
        d = os.path.join(SAMPLES, "h100", "dumps", "embed_ce", f"embed_ce_{kind}_0")
        code, r = replay_json(d, "--seed", "3")
        assert code == 0, (kind, r["verdict"])
        ints = [n for n in r["nodes"] if n["target"] == "placeholder" and n["outputs"][0]["meta"].startswith("i64[")]
        assert ints, kind
        for n in ints:
            s = n["outputs"][0]
            assert 0 <= s["min"] and s["max"] < 1000 and s["max"] > 0, (kind, n["name"], s)


@check
def same_seed_same_values_other_seed_other_values():
    d = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0")
    _, a = replay_json(d, "--seed", "1")
    _, b = replay_json(d, "--seed", "1")
    _, c = replay_json(d, "--seed", "2")
    mean = lambda r: node(r, "addmm_1")["outputs"][0]["mean"]  # noqa: E731
    assert mean(a) == mean(b) and mean(a) != mean(c)


@check
def uniform_floats_stay_in_zero_one():
    d = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0")
    _, r = replay_json(d, "--floats", "uniform")
    s = node(r, "primals_1")["outputs"][0]
    assert 0 <= s["min"] and s["max"] < 1, s
    _, r = replay_json(d)
    assert node(r, "primals_1")["outputs"][0]["min"] < 0  # normal by default


@check
def channels_last_inputs_keep_their_strides():
    d = os.path.join(SAMPLES, "h100", "dumps", "cnn_channels_last", "cnn_channels_last_forward_0")
    _, r = replay_json(d)
    x = next(n for n in r["nodes"] if n["outputs"] and n["outputs"][0]["meta"].startswith("f32[8, 3, 32, 32]"))
    assert x["outputs"][0]["meta"] == "f32[8, 3, 32, 32][3072, 1, 96, 3]cpu", x


@check
def bad_options_and_missing_devices_are_clear_errors():
    d = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0")
    code, _, err = run("replay", d, "--inputs", "bogus")
    assert code == 2 and "--inputs" in err
    code, _, err = run("replay", d, "--device", "tpu:9")
    assert code == 1 or code == 2
    code, out, err = run("replay", d, "--device", "cuda:7", "--json")
    if code == 1:
        r = json.loads(out)
        assert r["verdict"] == "error" and ("CUDA" in r["fatal"] or "cuda" in r["fatal"]), r


if __name__ == "__main__":
    code, out, _ = run("--help")
    if "\n  replay " not in out:  # the command table lists it only in builds with LibTorch
        print("fxray was built without LibTorch: replay checks skipped")
        print("0 passed, 0 failed")
        sys.exit(0)
    main()
