"""Random number state in the capture (<stem>.rng.pt): restoring it and running a dumped graph with dropout on its
saved inputs reproduces the eager outputs bit for bit, and fxray's own extra run (the joint's) leaves the user's
random stream where an undumped run would.

Run: ~/.cache/fxray/venv/bin/python -m pytest -q tools/capture/tests/test_capture_rng.py
"""

import importlib.util
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fxray_capture  # noqa: E402


class Dropper(nn.Module):
    """Dropout and a rand-based noise: two different random ops, drawn in one forward."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 32)
        self.b = nn.Linear(32, 4)

    def forward(self, x):
        h = F.dropout(F.relu(self.a(x)), p=0.5, training=self.training)
        return self.b(h + 0.01 * torch.rand_like(h))


@pytest.fixture(autouse=True)
def _reset_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _step(backend, seed=0):
    """One training step of a fresh Dropper; returns (loss, grads, the CPU generator state after it)."""
    torch.manual_seed(123)
    model = Dropper()
    x = torch.randn(16, 8)
    compiled = torch.compile(model, backend=backend)
    torch.manual_seed(seed)
    loss = compiled(x).square().mean()
    loss.backward()
    return loss.detach(), [p.grad.clone() for p in model.parameters()], torch.get_rng_state()


def _load_graph(d: Path):
    spec = importlib.util.spec_from_file_location(f"fxray_rng_{d.name}", d / "module.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FxModule()


def _replay(d: Path, restore: bool) -> list:
    gm = _load_graph(d)
    inputs = torch.load(d / f"{d.name}.pt", weights_only=True)
    if restore:
        fxray_capture.set_rng_state(torch.load(d / f"{d.name}.rng.pt", weights_only=True))
    else:
        torch.manual_seed(999)
    with torch.no_grad():
        out = gm(*inputs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _equal(got: list, want: list) -> bool:
    assert len(got) == len(want)
    return all(torch.equal(g, w) if isinstance(w, torch.Tensor) else g == w for g, w in zip(got, want))


@pytest.fixture()
def dump(tmp_path):
    _step(fxray_capture.backend("drop", tmp_path, strict=True))
    return tmp_path / "drop"


def test_rng_file_holds_the_cpu_state_beside_every_saved_pair(dump):
    for kind in ("forward", "backward", "joint"):
        d = dump / f"drop_{kind}_0"
        names = {p.name for p in d.iterdir()}
        assert {f"{d.name}.pt", f"{d.name}.expected.pt", f"{d.name}.rng.pt"} <= names, names
        state = torch.load(d / f"{d.name}.rng.pt", weights_only=True)
        assert isinstance(state, dict) and set(state) == {"cpu"}  # no CUDA in this process: no cuda:N keys
        assert state["cpu"].dtype == torch.uint8 and state["cpu"].numel() == torch.get_rng_state().numel()


@pytest.mark.parametrize("kind", ["forward", "joint"])
def test_restored_state_reproduces_the_dropout_outputs(dump, kind):
    d = dump / f"drop_{kind}_0"
    want = torch.load(d / f"{d.name}.expected.pt", weights_only=True)
    assert _equal(_replay(d, restore=True), want)
    # The graph really is random: from another state the same inputs give other outputs.
    assert not _equal(_replay(d, restore=False), want)


def test_joint_draws_the_forwards_masks(dump):
    """The joint's eager run starts from the forward's state: its forward output is the forward's, bit for bit."""
    fw = torch.load(dump / "drop_forward_0" / "drop_forward_0.expected.pt", weights_only=True)
    joint = torch.load(dump / "drop_joint_0" / "drop_joint_0.expected.pt", weights_only=True)
    assert torch.equal(joint[0], fw[0])
    bw = torch.load(dump / "drop_backward_0" / "drop_backward_0.expected.pt", weights_only=True)
    grads = [t for t in joint if isinstance(t, torch.Tensor) and t.shape in {g.shape for g in bw if g is not None}]
    assert any(torch.equal(g, b) for g in grads for b in bw if b is not None)


def test_capture_does_not_shift_the_users_random_stream(tmp_path):
    dumped = _step(fxray_capture.backend("drop", tmp_path, strict=True))
    plain = _step(fxray_capture.backend("plain", tmp_path / "none", dump_example_input=False))
    assert (tmp_path / "drop" / "drop_joint_0" / "drop_joint_0.expected.pt").exists()  # the extra run happened
    assert torch.equal(dumped[0], plain[0])
    assert all(torch.equal(a, b) for a, b in zip(dumped[1], plain[1]))
    assert torch.equal(dumped[2], plain[2])
