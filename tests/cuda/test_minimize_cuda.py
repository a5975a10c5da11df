"""`fxray minimize --device cuda`: an out-of-range embedding index triggers a device-side assert in the
original graph and in every candidate that keeps the lookup; each such query poisons that worker's CUDA
context, the worker is replaced, and the run still ends with the minimal graph (the scaling that makes the
index and the lookup) and a repro that fails under PyTorch on the GPU. Also the planted NaN and stride
mismatch on CUDA. Exits 77 (skipped) without a CUDA device."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import SOURCE, aten_ops, check, have_worker, main, run, torch_has_cuda  # noqa: E402

WORK = tempfile.mkdtemp(prefix="fxray-minimize-cuda-")
MODELS = os.path.join(WORK, "models")


def models():
    if not os.path.isdir(MODELS):
        subprocess.run([sys.executable, os.path.join(SOURCE, "tests", "data", "minimize", "make_models.py"), "--out", MODELS,
                        "--only", "resmlp_nan", "embed_oob", "transformer5", "--device", "cuda"], check=True, capture_output=True, timeout=600)
    return MODELS


def minimize(graph, until, out, *extra):
    code, text, err = run("minimize", graph, "--until", until, "-o", out, "--device", "cuda", "--json", *extra, timeout=900)
    assert code == 0, f"exit {code}: {err}\n{text}"
    return json.loads(text)


@check
def device_side_assert_in_every_candidate_is_survived_and_minimized():
    r = minimize(os.path.join(models(), "embed_oob"), "error", os.path.join(WORK, "oob"))
    print(f"    signature: {r['signature']}; {r['original_nodes']} -> {r['minimized_nodes']} nodes, {r['queries']} queries, "
          f"{r['worker_starts']} worker starts, {r['seconds']:.1f} s")
    assert "device-side assert" in r["signature"] or "CUDA error" in r["signature"], r["signature"]
    assert r["failing_node"] == "embedding", r
    assert aten_ops(r["dump"]) == ["mul", "embedding"], aten_ops(r["dump"])
    assert r["worker_starts"] >= 2, r  # poisoned contexts were replaced
    p = subprocess.run([sys.executable, r["repro"]], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "FAILED" in p.stdout, (p.returncode, p.stdout, p.stderr[-2000:])
    # The same worker pool replays clean graphs after the asserts: a plain replay right after works.
    code, text, err = run("replay", os.path.join(models(), "transformer5"), "--device", "cuda", "--json", timeout=900)
    assert code == 0 and json.loads(text)["verdict"] == "pass", err


@check
def planted_nan_and_stride_mismatch_minimize_on_cuda():
    r = minimize(os.path.join(models(), "resmlp_nan"), "nan", os.path.join(WORK, "nan"))
    assert {"var", "sub", "log"} <= set(aten_ops(r["dump"])) and r["minimized_nodes"] <= 4, (r, aten_ops(r["dump"]))
    print(f"    nan: {r['original_nodes']} -> {r['minimized_nodes']} nodes, {r['queries']} queries, {r['seconds']:.2f} s")
    planted = os.path.join(WORK, "t5")
    shutil.copytree(os.path.join(models(), "transformer5"), planted)
    readable = [os.path.join(dp, f) for dp, _, fs in os.walk(planted) for f in fs if f.endswith(".readable.py")][0]
    text = open(readable).read()
    edited = re.sub(r'bmm_4: "f32\[8, 8, 8\]\[64, 8, 1\](cuda:0|cuda)"', r'bmm_4: "f32[8, 8, 8][64, 1, 8]\1"', text)
    assert edited != text
    open(readable, "w").write(edited)
    r = minimize(planted, "mismatch", os.path.join(WORK, "stride"))
    assert aten_ops(r["dump"]) == ["bmm"], aten_ops(r["dump"])
    print(f"    stride: {r['original_nodes']} -> {r['minimized_nodes']} nodes, {r['queries']} queries, {r['seconds']:.2f} s")


if __name__ == "__main__":
    if not have_worker() or not torch_has_cuda():
        print("needs fxray's worker (a LibTorch build) and a CUDA device: skipped")
        sys.exit(77)
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
