"""A layout torch's fake-tensor rule records but no eager kernel makes (issue 21), on a real capture
(tests/data/layouts, written by make_log_softmax.py there): wav2vec2's CTC head takes log_softmax(...).transpose(0, 1),
so its backward's _log_softmax_backward_data gets a transposed grad_output. The op's meta follows that layout
([16, 32, 1] recorded), its eager kernel makes the output contiguous on every device. fxray runs the eager kernel on
inputs at their recorded layouts, so the difference is torch's fake-vs-eager one: reported apart, not a mismatch.
A stride really planted upstream (the transpose's) stays a mismatch, and so does what follows from it.
LeViT's stem (tests/data/layouts/levit_stem, make_levit_stem.py): native_batch_norm_backward gets a
channels-last-like grad_out and a contiguous input; its grad_input, picked by a getitem, is recorded like grad_out
(the decomposition fake tensors run), made like the input by the kernel. The getitem of such a multi-output op is set
apart the same way, and a planted stride upstream of the op reaches it through the op's tuple."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

BACKWARD = os.path.join(SOURCE, "tests", "data", "layouts", "ctc_head", "ctc_head_backward_0")
STEM = os.path.join(SOURCE, "tests", "data", "layouts", "levit_stem")
TMP = tempfile.mkdtemp(prefix="fxray-layouts-")


def replay(dump, *args):
    p = subprocess.run([FXRAY, "replay", dump, *args, "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    out = json.loads(p.stdout)
    return out["reports"][0] if "reports" in out else out


def node(r, name):
    return next(n for n in r["nodes"] if n["name"] == name)


@check
def log_softmax_backward_layout_is_the_kernels_choice_not_a_mismatch():
    for args in (("--inputs", "saved", "--expected", "auto"), ()):
        r = replay(BACKWARD, *args)
        assert r["verdict"] == "pass", (args, r["verdict"], [n for n in r["nodes"] if n["status"] != "passed"])
        n = node(r, "_log_softmax_backward_data")
        assert n["status"] == "passed" and not n.get("mismatches"), n
        assert n["kernel_layouts"][0]["kind"] == "stride" and "[16, 32, 1]" in n["kernel_layouts"][0]["expected"], n
    p = subprocess.run([FXRAY, "replay", BACKWARD], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "fake-tensor rule" in p.stdout, (p.stdout, p.stderr)


@check
def a_stride_planted_upstream_stays_a_mismatch():
    planted = os.path.join(TMP, "ctc_head_backward_0")
    shutil.copytree(BACKWARD, planted)
    readable = os.path.join(planted, "ctc_head_backward_0.readable.py")
    with open(readable) as f:
        text = f.read()
    old = 'transpose_1: "f32[2, 12, 16][16, 32, 1]cpu"'
    assert old in text, text
    with open(readable, "w") as f:
        f.write(text.replace(old, 'transpose_1: "f32[2, 12, 16][192, 16, 1]cpu"'))
    r = replay(planted)
    assert r["verdict"] != "pass", r["verdict"]
    assert node(r, "transpose_1")["status"] == "mismatch", node(r, "transpose_1")
    n = node(r, "_log_softmax_backward_data")
    assert n["status"] == "mismatch" and not n.get("kernel_layouts"), n


@check
def batch_norm_backward_grad_input_picked_by_getitem_is_the_kernels_layout():
    for graph, getitem in (("levit_stem_backward_0", "getitem_5"), ("levit_stem_joint_0", None)):
        for args in (("--inputs", "saved", "--expected", "auto"), ()):
            r = replay(os.path.join(STEM, graph), *args)
            assert r["verdict"] == "pass", (graph, args, r["verdict"], [n for n in r["nodes"] if n["status"] != "passed"])
            set_apart = [n for n in r["nodes"] if n.get("kernel_layouts")]
            assert len(set_apart) == 1 and (getitem is None or set_apart[0]["name"] == getitem), set_apart
            k = set_apart[0]["kernel_layouts"][0]
            assert k["expected"] == "[128, 1, 32, 8]" and k["actual"] == "[128, 16, 4, 1]", k


@check
def a_stride_planted_before_the_batch_norm_backward_reaches_its_getitem():
    planted = os.path.join(TMP, "levit_stem")
    shutil.copytree(STEM, planted)
    readable = os.path.join(planted, "levit_stem_backward_0", "levit_stem_backward_0.readable.py")
    with open(readable) as f:
        text = f.read()
    old = 'view_4: "f32[2, 8, 4, 4][128, 1, 32, 8]cpu"'
    assert old in text, text
    with open(readable, "w") as f:
        f.write(text.replace(old, 'view_4: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu"'))
    r = replay(os.path.join(planted, "levit_stem_backward_0"))
    assert node(r, "view_4")["status"] == "mismatch", node(r, "view_4")
    n = node(r, "getitem_5")
    assert n["status"] == "mismatch" and not n.get("kernel_layouts"), n


# Inductor's pad_mm joint pass on CUDA (wav2vec2's attention backward on an H100, aot_backward_graph of compile 19/0):
# a bmm padded from 159 to 160 rows and sliced back; the view of the slice kept the contiguous record it had as a view
# of the unpadded bmm. The same view of an unpadded bmm with a wrong record stays a mismatch.
PADDED_MATMUL = '''
class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[8, 159, 16][2544, 16, 1]cpu", b: "f32[8, 16, 159][2544, 159, 1]cpu"):
        pad_a: "f32[8, 160, 16][2560, 16, 1]cpu" = torch.ops.aten.constant_pad_nd.default(a, [0, 0, 0, 1, 0, 0])
        pad_b: "f32[8, 16, 160][2560, 160, 1]cpu" = torch.ops.aten.constant_pad_nd.default(b, [0, 1, 0, 0, 0, 0])
        bmm: "f32[8, 160, 160][25600, 160, 1]cpu" = torch.ops.aten.bmm.default(pad_a, pad_b)
        slice_1: "f32[8, 159, 160][25600, 160, 1]cpu" = torch.ops.aten.slice.Tensor(bmm, 1, 0, -1)
        slice_2: "f32[8, 159, 159][25600, 160, 1]cpu" = torch.ops.aten.slice.Tensor(slice_1, 2, 0, -1)
        view: "f32[2, 4, 159, 159][101124, 25281, 159, 1]cpu" = torch.ops.aten.view.default(slice_2, [2, 4, 159, 159])
        bmm_1: "f32[8, 159, 159][25281, 159, 1]cpu" = torch.ops.aten.bmm.default(a, b)
        view_1: "f32[2, 4, 159, 159][1, 1, 1, 1]cpu" = torch.ops.aten.view.default(bmm_1, [2, 4, 159, 159])
        return (view, view_1)
'''


@check
def a_view_of_a_padded_matmul_keeps_a_stale_record_set_apart_not_a_mismatch():
    path = os.path.join(TMP, "padded_matmul.py")
    with open(path, "w") as f:
        f.write(PADDED_MATMUL)
    r = replay(path)
    stale = node(r, "view")
    assert stale["status"] == "passed" and not stale.get("mismatches"), stale
    assert stale["stale_layouts"][0]["expected"] == "[101124, 25281, 159, 1]", stale
    assert stale["stale_layouts"][0]["actual"] == "[102400, 25600, 160, 1]", stale
    wrong = node(r, "view_1")
    assert wrong["status"] == "mismatch" and not wrong.get("stale_layouts"), wrong
    p = subprocess.run([FXRAY, "replay", path], capture_output=True, text=True, timeout=300)
    assert "records are stale" in p.stdout and "pad_mm" in p.stdout, p.stdout


if __name__ == "__main__":
    main()
