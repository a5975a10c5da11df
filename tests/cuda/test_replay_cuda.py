"""`fxray replay --device cuda` on a GPU: every sample graph (channels-last strides and the transformer's
efficient-attention ops included) replays clean; CUDA matches the CPU; planted faults are caught at the same
nodes; embedding indices stay in range (no device-side assert). Exits 77 (skipped) without a CUDA device."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import SAMPLES, SOURCE, check, main, run  # noqa: E402

FAULTS = os.path.join(SOURCE, "tests", "data", "faults")


def replay_json(path, *extra):
    code, out, err = run("replay", path, "--json", "--device", "cuda", *extra, timeout=900)
    assert code in (0, 1), f"exit {code}: {err}"
    return code, json.loads(out)


@check
def every_aot_sample_graph_replays_clean_on_cuda():
    code, data = replay_json(SAMPLES)
    seen = 0
    for r in data["reports"]:
        addr = r["address"]
        if "dynamo_output_graph" in addr or ("pre_grad_graph" in addr and "post" not in addr):
            continue  # torch-level graphs need Python
        if "compiled_autograd_graph" in addr:
            continue  # hooks / autograd nodes need Python in some: test_compiled_autograd_cuda.py checks them
        if "/ltc/" in addr:
            continue  # lazy-tensor IR has no overloads and no replay: test_ir_formats.py checks it says so
        seen += 1
        assert r["verdict"] == "pass", (addr, r["verdict"], r.get("fatal"), r["unsupported"],
                                        [(n["name"], n.get("error"), n.get("mismatches")) for n in r["nodes"]
                                         if n["status"] not in ("passed",)][:5])
    assert seen >= 40, seen


def check_against_eager(device, dumps):
    """Replays each dump with its saved inputs on `device` and compares the outputs with PyTorch eager on the same
    device; the references are made now by make_expected.py (never typed by hand)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(SOURCE, "tests", "data", "replay", "make_expected.py"),
                        "--device", device, "--out", tmp], check=True, cwd=SOURCE, capture_output=True)
        for d in sorted(glob.glob(dumps)):
            rel = os.path.relpath(d, SAMPLES)
            code, out, err = run("replay", d, "--json", "--device", device, "--inputs", "saved", "--expected",
                                 os.path.join(tmp, rel + ".pt"), timeout=900)
            r = json.loads(out)
            worst = max((c["max_abs"] for c in r.get("comparisons", [])), default=0)
            print(f"  {rel}: fxray {device} vs eager {device} max abs {worst:.3g}")
            assert r["verdict"] == "pass", (rel, r["verdict"], r.get("fatal"),
                                            [c for c in r.get("comparisons", []) if not c["ok"]])


@check
def saved_inputs_on_cuda_give_what_pytorch_eager_cuda_gives():
    check_against_eager("cuda", os.path.join(SAMPLES, "h100", "dumps", "*", "*_[0-9]"))


@check
def cuda_replay_matches_the_cpu_replay_of_the_same_inputs():
    # cnn_channels_last backward is left out: with its captured inputs PyTorch's CPU and CUDA kernels disagree
    # (eager too: fxray matches eager on CUDA above and on the CPU in tests/cli/test_replay.py). Printed, not asserted.
    for model in ("mlp", "embed_ce", "cnn_channels_last"):
        for kind in ("forward", "backward"):
            d = os.path.join(SAMPLES, "h100", "dumps", model, f"{model}_{kind}_0")
            code, r = replay_json(d, "--inputs", "saved", "--compare-device", "cpu")
            worst = max((c["max_abs"] for c in r.get("comparisons", [])), default=0)
            print(f"  {model}_{kind}_0: cuda vs cpu max abs {worst:.3g} ({r['verdict']})")
            if model == "cnn_channels_last" and kind == "backward":
                continue
            assert r["verdict"] == "pass", (d, r["verdict"], [c for c in r.get("comparisons", []) if not c["ok"]])


@check
def planted_faults_are_caught_at_the_same_nodes_on_cuda():
    want = {"wrong_stride": ("t", "mismatch"), "wrong_dtype": ("relu", "mismatch"), "wrong_size": ("addmm_1", "mismatch"),
            "op_raises": ("addmm_1", "error")}
    for variant, (name, status) in want.items():
        _, r = replay_json(os.path.join(FAULTS, variant))
        bad = [n["name"] for n in r["nodes"] if n["status"] in ("mismatch", "error")]
        assert bad == [name], (variant, bad)
        assert next(n for n in r["nodes"] if n["name"] == name)["status"] == status
    _, r = replay_json(os.path.join(FAULTS, "nan_source"))
    assert r["first_nan_node"] == "relu"


@check
def embedding_indices_stay_in_range_on_cuda():
    for kind in ("forward", "backward", "joint"):
        d = os.path.join(SAMPLES, "h100", "dumps", "embed_ce", f"embed_ce_{kind}_0")
        for seed in ("0", "1", "2"):
            code, r = replay_json(d, "--seed", seed)
            assert code == 0, (kind, seed, r["verdict"], r.get("fatal"))


@check
def per_node_times_come_from_cuda_events():
    _, r = replay_json(os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_backward_0"))
    ops = [n for n in r["nodes"] if n["target"].startswith("aten.")]
    assert ops and all(n["time_us"] > 0 for n in ops)


if __name__ == "__main__":
    code, out, _ = run("--help")
    if "\n  replay " not in out:  # the command table lists it only in builds with LibTorch
        print("fxray was built without LibTorch")
        sys.exit(77)
    code, out, err = run("replay", os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0"), "--device", "cuda",
                         "--json")
    if code != 0 and "no CUDA device" in out + err:
        print("no CUDA device: skipped")
        sys.exit(77)
    main()
