"""A graph recorded on a GPU, replayed on a machine without one (issue 21), on a real TORCH_TRACE log of a compiled
attention block captured on an H100 (tests/data/rng/attention_cuda.log, make_attention_log.py there):
- SDPA's CUDA-only kernels (memory-efficient attention, forward and backward) run on the CPU through the CPU's
  flash-attention kernels, so every graph of the log replays and its compiles' stages agree;
- a layout the CPU kernel picks differently from the CUDA one (planted: the recorded stride of the attention's output
  made the one a contiguous backend gives) is reported as a difference of the devices and passes, while the same
  kind of difference at a matmul stays a stride mismatch."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, edit_trace_payload, have_worker, main, replay_reports, run  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="fxray-cross-device-")
LOG = os.path.join(SOURCE, "tests", "data", "rng", "attention_cuda.log")
FORWARD = "#0/1/aot_forward_graph"


@check
def cuda_only_attention_replays_on_the_cpu_through_its_flash_kernels():
    reports = replay_reports(LOG)
    assert len(reports) == 21 and all(r["verdict"] == "pass" for r in reports), [(r["address"], r["verdict"]) for r in reports]
    attention = [n for r in reports for n in r["nodes"] if "_scaled_dot_product_efficient_attention" in n["target"]]
    assert len(attention) >= 8 and all(n["status"] == "passed" and "run on the CPU" in n["schema"] for n in attention), attention[:2]
    code, out, _ = run("compare", LOG)
    assert code == 0 and "2 agree" in out, out


@check
def a_layout_the_cpu_kernel_picks_otherwise_is_the_devices_difference_not_a_mismatch():
    planted = edit_trace_payload(LOG, os.path.join(TMP, "layout.log"), "aot_forward_graph",
                                 'getitem_3: "f32[2, 4, 16, 16][1024, 16, 64, 1]cuda:0"',
                                 'getitem_3: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"')
    r = replay_reports(planted + FORWARD)[0]
    assert r["verdict"] == "pass", (r["verdict"], [n for n in r["nodes"] if n["status"] == "mismatch"])
    (node,) = [n for n in r["nodes"] if n.get("cross_device_layouts")]
    assert node["name"] == "getitem_3" and node["cross_device_layouts"][0]["expected"] == "[1024, 256, 16, 1]", node
    code, out, _ = run("replay", planted + FORWARD)
    assert code == 0 and "layouts differ from the recording on 1 node(s)" in out, out
    # the same kind of difference where no kernel picks a layout stays a mismatch
    planted = edit_trace_payload(LOG, os.path.join(TMP, "addmm.log"), "aot_forward_graph",
                                 'addmm: "f32[32, 192][192, 1]cuda:0"', 'addmm: "f32[32, 192][1, 32]cuda:0"')
    r = replay_reports(planted + FORWARD)[0]
    assert r["verdict"] == "mismatch", r["verdict"]
    assert [n["name"] for n in r["nodes"] if n["status"] == "mismatch"] == ["addmm"], r["verdict"]


@check
def attention_rng_outputs_without_dropout_are_uninitialised_memory_not_values():
    # CUDA's efficient attention returns philox_seed/offset scalars it never writes when dropout is off (at::empty):
    # on the H100 the TP step's saved forward "diverged" at both, by 9e13, against eager's equally random bits.
    p = subprocess.run([FXRAY, "replay", LOG + FORWARD, "--compare-device", "cpu", "--json"], capture_output=True,
                       text=True, timeout=300)
    r = json.loads(p.stdout)
    rng = [c for c in r["comparisons"] if "philox" in c.get("note", "")]
    assert [c["output"] for c in rng] == [9, 10], r["comparisons"]
    assert all(not c["compared"] and "dropout off: never written" in c["note"] for c in rng), rng
    assert all(c["compared"] and c["ok"] for c in r["comparisons"] if c not in rng), r["comparisons"]


if __name__ == "__main__":
    main()
