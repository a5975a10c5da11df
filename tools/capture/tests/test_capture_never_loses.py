"""Capture never loses a graph: graphs holding real tensor constants are written (HF models lost their forward,
joint and inference dumps to "Please convert all Tensors to FakeTensors first ... aten.detach.default(tensor([]))"),
every written graph has its eager outputs beside its inputs, and a graph that still cannot be written leaves
<stem>.capture_error.txt naming the reason.

Run: ~/.cache/fxray/venv/bin/python -m pytest -q tools/capture/tests
"""

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fxray_capture  # noqa: E402


class WithTensorConstants(nn.Module):
    """torch.tensor(...) in forward becomes a real tensor constant (get_attr) of the AOT graphs, as in HF code."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        empty = torch.tensor([])
        return torch.cat([self.lin(x).flatten(), empty]) * torch.tensor(2.0)


class Toy(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 16)
        self.b = nn.Linear(16, 4)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


@pytest.fixture(autouse=True)
def _reset_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _files(root: Path, name: str) -> dict:
    return {d.name: sorted(p.name for p in d.iterdir()) for d in sorted((root / name).iterdir())}


def _load(d: Path, suffix: str) -> list:
    return torch.load(d / f"{d.name}{suffix}", weights_only=True)


def test_graphs_with_real_tensor_constants_are_all_written(tmp_path):
    torch.manual_seed(0)
    compiled = torch.compile(WithTensorConstants(), backend=fxray_capture.backend("const", tmp_path))
    compiled(torch.randn(2, 4)).sum().backward()
    with torch.no_grad():
        compiled(torch.randn(2, 4))
    files = _files(tmp_path, "const")
    assert sorted(files) == ["const_backward_0", "const_forward_0", "const_forward_1", "const_joint_0"], files
    for stem, names in files.items():
        for want in ("module.py", "state_dict.pt", f"{stem}.input", f"{stem}.pt", f"{stem}.expected.pt"):
            assert want in names, (stem, names)
        assert f"{stem}.capture_error.txt" not in names, (tmp_path / "const" / stem / f"{stem}.capture_error.txt").read_text()
    # the constant itself is saved for fxray (state_dict.pt beside module.py)
    state = torch.load(tmp_path / "const" / "const_forward_0" / "state_dict.pt", weights_only=True)
    assert any(t.numel() == 0 for t in state.values()), state


def test_expected_outputs_are_the_eager_outputs_of_the_saved_inputs(tmp_path):
    torch.manual_seed(0)
    model = Toy()
    compiled = torch.compile(model, backend=fxray_capture.backend("toy", tmp_path, strict=True))
    x = torch.randn(3, 8)
    out = compiled(x)
    out.sum().backward()
    fw, bw, joint = (tmp_path / "toy" / f"toy_{k}_0" for k in ("forward", "backward", "joint"))
    fw_out, bw_out, joint_out = _load(fw, ".expected.pt"), _load(bw, ".expected.pt"), _load(joint, ".expected.pt")
    assert isinstance(fw_out, list) and all(isinstance(v, torch.Tensor) or v is None for v in fw_out)
    torch.testing.assert_close(fw_out[0], out.detach())  # the user's output comes first
    # The joint (run eagerly on its saved inputs) returns the forward's outputs then the gradients.
    torch.testing.assert_close(joint_out[0], out.detach())
    grads = {tuple(p.shape): p.grad for p in model.parameters()}
    for values in (bw_out, joint_out[1:]):
        got = [v for v in values if isinstance(v, torch.Tensor) and tuple(v.shape) in grads]
        assert len(got) == len(grads)
        for v in got:
            torch.testing.assert_close(v, grads[tuple(v.shape)])


def test_a_graph_that_cannot_be_written_names_its_reason(tmp_path, monkeypatch):
    def disk_full(self, folder, module_name="FxModule"):
        (Path(folder) / "module.py").parent.mkdir(parents=True, exist_ok=True)
        (Path(folder) / "module.py").write_text("half a graph")
        raise OSError("disk full")

    monkeypatch.setattr(torch.fx.GraphModule, "to_folder", disk_full)
    torch.manual_seed(0)
    model = Toy()
    x = torch.randn(3, 8)
    want = model(x)
    cap = fxray_capture.backend("lost", tmp_path)
    got = torch.compile(model, backend=cap)(x)
    got.sum().backward()  # the user's step still works
    torch.testing.assert_close(got, want)
    files = _files(tmp_path, "lost")
    assert sorted(files) == ["lost_backward_0", "lost_forward_0", "lost_joint_0"]
    for stem, names in files.items():
        assert names == [f"{stem}.capture_error.txt"], names  # no half graph for fxray to find
        text = (tmp_path / "lost" / stem / f"{stem}.capture_error.txt").read_text()
        assert f"graph: {stem}" in text and "stage: graph" in text and "OSError: disk full" in text, text
    assert {e["graph"] for e in cap.errors} == set(files)


def test_autograd_zero_tensors_are_saved_as_zeros(tmp_path):
    # sgn's backward returns one of autograd's ZeroTensors: torch.save refused it ("ZeroTensor is not
    # serializable") and left a half-written .expected.pt that fxray could not read.
    x = torch.randn(5, requires_grad=True)
    torch.compile(torch.sgn, backend=fxray_capture.backend("sgn", tmp_path))(x).sum().backward()
    for kind in ("forward", "backward", "joint"):
        d = tmp_path / "sgn" / f"sgn_{kind}_0"
        names = sorted(p.name for p in d.iterdir())
        assert f"sgn_{kind}_0.capture_error.txt" not in names and not any(n.endswith(".tmp") for n in names), names
        values = _load(d, ".expected.pt")
        assert all(v is None or isinstance(v, torch.Tensor) for v in values)
    grads = [v for v in _load(tmp_path / "sgn" / "sgn_backward_0", ".expected.pt") if isinstance(v, torch.Tensor)]
    assert grads and all(torch.equal(g, torch.zeros(5)) for g in grads), grads


def test_a_failed_save_leaves_no_half_written_file(tmp_path, monkeypatch):
    real_save = torch.save

    def fails_on_outputs(obj, f, *a, **k):
        if str(f).endswith(".expected.pt.tmp"):
            real_save(obj, f, *a, **k)  # the bytes land, then the save fails, as a half-written file would
            raise RuntimeError("not serializable")
        return real_save(obj, f, *a, **k)

    monkeypatch.setattr(torch, "save", fails_on_outputs)
    torch.compile(Toy(), backend=fxray_capture.backend("half", tmp_path))(torch.randn(3, 8)).sum().backward()
    for d in (tmp_path / "half").iterdir():
        names = sorted(p.name for p in d.iterdir())
        assert f"{d.name}.expected.pt" not in names and not any(n.endswith(".tmp") for n in names), names
        assert f"{d.name}.pt" in names and "module.py" in names
        text = (d / f"{d.name}.capture_error.txt").read_text()
        assert "stage: expected outputs" in text and "not serializable" in text, text
