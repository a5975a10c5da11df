"""Dynamo-level graphs replayed on CUDA (issue 16): the small modules of tests/cli/dynamo_fixtures.py compiled on
this GPU (static and dynamic shapes, an autocast region, nn.MultiheadAttention's Python attention) replay with
every node resolved and checked, and equal eager and the AOT graph of the same compile on the same saved inputs.
Exits 77 (skipped) without a CUDA device or without a torch that sees one."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import FXRAY, check, have_worker, main, torch_has_cuda  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-dynamo-cuda-")


def replay_json(path):
    p = subprocess.run([FXRAY, "replay", path, "--device", "cuda", "--inputs", "saved", "--expected", "auto", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}"
    return json.loads(p.stdout)


@check
def dynamo_and_aot_graphs_of_one_compile_replay_on_cuda_like_eager():
    import dynamo_fixtures as fx  # noqa: E402  (needs torch: FXRAY_PYTHON)
    cases = [(n, False) for n in ("mlp", "conv_bn", "attention", "embedding", "multihead", "autocast", "decoder")]
    cases += [("attention", True), ("multihead", True)]
    for name, dynamic in cases:
        for d in fx.capture(TMP, name, "cuda", dynamic=dynamic):
            r = replay_json(d)
            assert r["verdict"] == "pass" and not r.get("unsupported"), (d, r["verdict"], r.get("unsupported"), r.get("fatal"))
            assert all(n["status"] == "passed" for n in r["nodes"]), (d, [n for n in r["nodes"] if n["status"] != "passed"])
            assert r["comparisons"] and all(c["compared"] and c["ok"] for c in r["comparisons"]), (d, r["comparisons"])
            assert all(c["what"].endswith("cuda:0") for c in r["comparisons"]), r["comparisons"]  # ran on the GPU


if __name__ == "__main__":
    if not have_worker() or not torch_has_cuda():
        print("no replay in this build, or no CUDA device: skipped")
        sys.exit(77)
    main()
