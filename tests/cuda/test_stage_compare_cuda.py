"""Stage compare on CUDA (issue 16), through the CLI: the H100 sample trace's compiles (an MLP, and a transformer
layer whose AOT and post-grad graphs call efficient attention, which has no CPU kernel) replay at every stage on
the GPU and agree; a divergence planted in the post-grad graph is found there on the GPU too.
Exits 77 (skipped) without a CUDA device or without a torch that sees one."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import FXRAY, SAMPLES, check, edit_trace_payload, have_worker, main, torch_has_cuda  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-stage-cuda-")
LOG = os.path.join(SAMPLES, "h100", "trace", "mlp_encoder_inductor.log")


def compare_json(address):
    p = subprocess.run([FXRAY, "compare", address, "--device", "cuda", "--json"], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}"
    return p.returncode, json.loads(p.stdout)


@check
def every_compile_of_the_h100_trace_agrees_on_cuda():
    for compile_id in ("0/0", "1/0"):
        code, r = compare_json(LOG + "#" + compile_id)
        assert code == 0 and r["verdict"] == "agree", (compile_id, r["reason"], [(s["stage"], s["status"]) for s in r["stages"]])
        # the last stage is inductor's Triton code of the compile, run in a Python child (issue 27)
        assert [s["stage"] for s in r["stages"]] == ["dynamo", "aot_forward", "post_grad", "output_code"], r["stages"]
        for s in r["stages"][1:]:
            assert s["compared"] >= 1 and all(c["what"].endswith("cuda:0") for c in s["comparisons"] if c["compared"]), s


@check
def a_planted_post_grad_divergence_is_found_on_cuda():
    # the MLP compile's forward post-grad graph (inductor folded addmm's bias: relu of add_tensor): a leaky relu
    log = edit_trace_payload(LOG, os.path.join(TMP, "planted.log"), "inductor_post_grad_graph",
                             "torch.ops.aten.relu.default(add_tensor)", "torch.ops.aten.leaky_relu.default(add_tensor, 0.5)")
    code, r = compare_json(log + "#0/0")
    assert code == 1 and r["first_divergent_stage"] == "post_grad", (r["verdict"], r["reason"])


if __name__ == "__main__":
    if not have_worker() or not torch_has_cuda():
        print("no replay in this build, or no CUDA device: skipped")
        sys.exit(77)
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
