"""Tests of the capture backend (fxray_capture) and of the committed samples in samples/cpu.

Run: ~/.cache/fxray/venv/bin/python -m pytest -q tools/capture/tests
"""

import copy
import io
import json
import pickle
import re
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

CAPTURE_DIR = Path(__file__).resolve().parents[1]
REPO = CAPTURE_DIR.parents[1]
SAMPLES = REPO / "samples" / "cpu"
sys.path.insert(0, str(CAPTURE_DIR))

import fxray_capture  # noqa: E402
import make_samples  # noqa: E402

KINDS = ("forward", "backward", "joint")


# ---------------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------------
_DTYPE_NAMES = {n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype)}
_ALLOWED_GLOBALS = {
    ("torch", "Size"),
    ("torch", "device"),
    ("builtins", "int"),
    ("builtins", "float"),
    ("torch", "Tensor"),
    ("torch.nn.parameter", "Parameter"),
    ("torch._subclasses.fake_tensor", "FakeTensor"),
} | {("torch", n) for n in _DTYPE_NAMES}


class RestrictedUnpickler(pickle.Unpickler):
    """Only the globals the .input format may name; anything else (SymInt, FakeTensor state...) fails."""

    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"forbidden global {module}.{name}")


def load_input_meta(path: Path) -> list:
    data = path.read_bytes()
    assert data[:2] == b"\x80\x04", "expected pickle protocol 4"
    meta = RestrictedUnpickler(io.BytesIO(data)).load()
    assert isinstance(meta, list)
    for m in meta:
        assert isinstance(m, tuple)
        if len(m) == 5:
            cls, size, stride, dtype, device = m
            assert cls in (torch.Tensor, torch.nn.Parameter, torch._subclasses.fake_tensor.FakeTensor)
            assert type(size) is torch.Size and all(type(s) is int for s in size)
            assert type(stride) is tuple and all(type(s) is int for s in stride)
            assert isinstance(dtype, torch.dtype) and isinstance(device, torch.device)
        else:
            assert m[0] in (int, float), m
            if m[0] is int:
                assert len(m) == 2 and type(m[1]) is int
            else:
                assert len(m) == 1
    return meta


def graph_dir(root: Path, name: str, kind: str, i: int) -> Path:
    return root / name / f"{name}_{kind}_{i}"


def check_graph_dir(d: Path, real_inputs: bool = True, eager_outputs: bool = True, node_meta: bool = True) -> list:
    stem = d.name
    expected = {"module.py", "__init__.py", "state_dict.pt", f"{stem}.input", f"{stem}.readable.py"}
    if node_meta:  # (the committed samples predate node_meta.json)
        expected.add("node_meta.json")
    if real_inputs:
        expected.add(f"{stem}.pt")
        if eager_outputs:  # (the committed samples predate .expected.pt and .rng.pt)
            expected |= {f"{stem}.expected.pt", f"{stem}.rng.pt"}
    assert set(p.name for p in d.iterdir()) == expected, d
    assert (d / "__init__.py").read_text() == "from .module import *"
    module = (d / "module.py").read_text()
    assert "class FxModule(torch.nn.Module):" in module
    assert re.search(r"def forward\(self, \w+", module)
    assert "tree_flatten_spec" not in module  # plain signature, like functorch
    readable = (d / f"{stem}.readable.py").read_text()
    # every placeholder and most nodes carry "<dtype>[sizes][strides]<device>" or "Sym(...)"
    assert re.search(r'"(f32|i64|b8)\[[^\]]*\]\[[^\]]*\]cpu"', readable), readable
    meta = load_input_meta(d / f"{stem}.input")
    n_annotated_inputs = len(re.findall(r'(primals_\d+|tangents_\d+|\w+): "(?:[a-z0-9]+\[|Sym\()', readable))
    assert n_annotated_inputs >= len(meta)
    return meta


def check_real_inputs(d: Path, meta: list, every_tensor_nonzero: bool = True) -> list:
    vals = torch.load(d / f"{d.name}.pt", weights_only=True)
    assert isinstance(vals, list) and len(vals) == len(meta)
    for m, v in zip(meta, vals):
        if len(m) == 5:
            assert type(v) is torch.Tensor  # real, plain, detached
            assert not isinstance(v, torch._subclasses.fake_tensor.FakeTensor) and v.device.type != "meta"
            assert not v.requires_grad
            assert (tuple(v.shape), v.stride(), v.dtype, v.device) == (tuple(m[1]), m[2], m[3], m[4])
        else:
            assert type(v) is m[0]
            if m[0] is int:
                assert v == m[1]
    floats = [v for v in vals if isinstance(v, torch.Tensor) and v.is_floating_point() and v.numel() > 1]
    assert floats and any(v.count_nonzero() > 0 for v in floats), "real inputs look like placeholders"
    if every_tensor_nonzero:  # (a BatchNorm bias or running mean is legitimately all zeros)
        assert all(v.count_nonzero() > 0 for v in floats)
    return vals


class Toy(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 16)
        self.b = nn.Linear(16, 4)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


def train_step(model, x, target):
    out = model(x)
    (out * target).sum().backward()
    return out


@pytest.fixture(autouse=True)
def _reset_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.fixture(scope="module")
def toy_dump(tmp_path_factory):
    """One static compile + training step of Toy, shared by the layout tests."""
    torch._dynamo.reset()
    out = tmp_path_factory.mktemp("dump")
    torch.manual_seed(0)
    eager = Toy()
    compiled_model = copy.deepcopy(eager)
    x, target = torch.randn(3, 8), torch.randn(3, 4)
    cap = fxray_capture.backend("toy", out, strict=True)
    compiled = torch.compile(compiled_model, backend=cap)
    got = train_step(compiled, x, target)
    want = train_step(eager, x, target)
    torch._dynamo.reset()
    return dict(out=out, cap=cap, eager=eager, compiled=compiled_model, got=got, want=want, x=x, target=target)


# ---------------------------------------------------------------------------------------------------
# the backend
# ---------------------------------------------------------------------------------------------------
def test_layout(toy_dump):
    out = toy_dump["out"]
    assert sorted(p.name for p in (out / "toy").iterdir()) == ["toy_backward_0", "toy_forward_0", "toy_joint_0"]
    for kind in KINDS:
        check_graph_dir(graph_dir(out, "toy", kind, 0))
    assert "class inner_f" in (graph_dir(out, "toy", "joint", 0) / "toy_joint_0.readable.py").read_text()


def test_input_metadata_and_real_inputs(toy_dump):
    out = toy_dump["out"]
    for kind in KINDS:
        d = graph_dir(out, "toy", kind, 0)
        meta = check_graph_dir(d)
        # compile-time inputs are FakeTensors: the class functorch records
        assert all(m[0] is torch._subclasses.fake_tensor.FakeTensor for m in meta)
        check_real_inputs(d, meta)


def test_joint_inputs_are_forward_primals_plus_backward_tangents(toy_dump):
    out = toy_dump["out"]
    load = lambda kind: torch.load(graph_dir(out, "toy", kind, 0) / f"toy_{kind}_0.pt", weights_only=True)  # noqa
    fw, bw, joint = load("forward"), load("backward"), load("joint")
    assert len(joint) == len(fw) + 1  # one tangent
    for a, b in zip(joint, fw):
        assert torch.equal(a, b)
    assert torch.equal(joint[-1], bw[-1])  # tangents_1 is the last backward placeholder here
    # the tangent is d(sum(out * target))/d(out) = target: a real value, not a guess
    torch.testing.assert_close(joint[-1], toy_dump["target"])
    assert any(torch.equal(v, toy_dump["x"]) for v in fw)  # the user's input, as passed


def test_outputs_and_grads_match_eager(toy_dump):
    torch.testing.assert_close(toy_dump["got"], toy_dump["want"])
    for (n, p), (_, q) in zip(toy_dump["compiled"].named_parameters(), toy_dump["eager"].named_parameters()):
        torch.testing.assert_close(p.grad, q.grad, msg=n)


def test_training_loop_matches_eager(tmp_path):
    torch.manual_seed(1)
    eager = Toy()
    model = copy.deepcopy(eager)
    compiled = torch.compile(model, backend=fxray_capture.backend("loop", tmp_path, strict=True))
    opts = [torch.optim.SGD(m.parameters(), lr=0.1) for m in (eager, model)]
    for step in range(3):
        x, target = torch.randn(3, 8), torch.randn(3, 4)
        for m, opt in zip((eager, compiled), opts):
            opt.zero_grad()
            train_step(m, x, target)
            opt.step()
    for p, q in zip(model.parameters(), eager.parameters()):
        torch.testing.assert_close(p, q)
    assert sorted(p.name for p in (tmp_path / "loop").iterdir()) == ["loop_backward_0", "loop_forward_0", "loop_joint_0"]


def test_dynamic_shapes_symint_inputs(tmp_path):
    torch.manual_seed(0)
    eager = Toy()
    model = copy.deepcopy(eager)
    compiled = torch.compile(model, backend=fxray_capture.backend("dyn", tmp_path, strict=True), dynamic=True)
    for batch in (5, 7):  # the second call reuses the dynamic graph: its values are not saved
        x, target = torch.randn(batch, 8), torch.randn(batch, 4)
        torch.testing.assert_close(train_step(compiled, x, target), train_step(eager, x, target))
    for p, q in zip(model.parameters(), eager.parameters()):
        torch.testing.assert_close(p.grad, q.grad)

    assert sorted(p.name for p in (tmp_path / "dyn").iterdir()) == ["dyn_backward_0", "dyn_forward_0", "dyn_joint_0"]
    for kind in KINDS:
        d = graph_dir(tmp_path, "dyn", kind, 0)
        meta = check_graph_dir(d)
        ints = [m for m in meta if m[0] is int]
        assert ints and all(m == (int, 5) for m in ints), meta  # SymInt recorded by its hint
        batch_sized = [m for m in meta if len(m) == 5 and m[1][:1] == torch.Size([5])]
        assert batch_sized
        check_real_inputs(d, meta)
        readable = (d / f"{d.name}.readable.py").read_text()
        assert re.search(r'"Sym\(s\d+\)"', readable), readable
        assert re.search(r'"f32\[s\d+, (8|16|4)\]', readable), readable


def test_recompile_gets_next_index(tmp_path):
    torch.manual_seed(0)
    model = Toy()
    cap = fxray_capture.backend("re", tmp_path, strict=True)
    compiled = torch.compile(model, backend=cap)  # static first, automatic-dynamic recompile second
    for batch in (3, 6):
        train_step(compiled, torch.randn(batch, 8), torch.randn(batch, 4))
    names = sorted(p.name for p in (tmp_path / "re").iterdir())
    assert names == [f"re_{k}_{i}" for k in ("backward", "forward", "joint") for i in (0, 1)]
    meta0 = load_input_meta(graph_dir(tmp_path, "re", "forward", 0) / "re_forward_0.input")
    meta1 = load_input_meta(graph_dir(tmp_path, "re", "forward", 1) / "re_forward_1.input")
    assert not any(m[0] is int for m in meta0)
    assert (int, 6) in meta1
    for kind in KINDS:
        d = graph_dir(tmp_path, "re", kind, 1)
        check_real_inputs(d, check_graph_dir(d))


def test_graph_dumper_aot_compatible(tmp_path):
    torch.manual_seed(0)
    model = Toy()
    dumper = fxray_capture.graph_dumper_aot("compat", str(tmp_path))  # functorch's defaults: no .pt
    train_step(torch.compile(model, backend=dumper), torch.randn(3, 8), torch.randn(3, 4))
    for kind in KINDS:
        check_graph_dir(graph_dir(tmp_path, "compat", kind, 0), real_inputs=False)


def test_inference_graph(tmp_path):
    torch.manual_seed(0)
    model = Toy()
    compiled = torch.compile(model, backend=fxray_capture.backend("inf", tmp_path, strict=True))
    x = torch.randn(2, 8)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
    assert [p.name for p in (tmp_path / "inf").iterdir()] == ["inf_forward_0"]
    d = graph_dir(tmp_path, "inf", "forward", 0)
    vals = check_real_inputs(d, check_graph_dir(d))
    assert any(torch.equal(v, x) for v in vals)


# ---------------------------------------------------------------------------------------------------
# the committed samples (structure only: no regeneration)
# ---------------------------------------------------------------------------------------------------
def _samples_present():
    if not (SAMPLES / "MANIFEST.json").exists():
        pytest.skip("samples/cpu not generated (run tools/capture/make_samples.py)")


class _Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(8)
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return x + torch.relu(self.fc(self.ln(x)))


class _Stack(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.layers = nn.ModuleList([_Block() for _ in range(n)])
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def test_node_meta_sidecar(tmp_path):
    """node_meta.json: module stacks of forward nodes, the forward twins' of backward nodes, parameter paths of
    placeholders, stack traces stored once."""
    compiled = torch.compile(_Stack(), backend=fxray_capture.backend("stk", tmp_path, strict=True))
    compiled(torch.randn(2, 8)).sum().backward()
    for kind in KINDS:
        check_graph_dir(graph_dir(tmp_path, "stk", kind, 0))
    joint = json.loads((graph_dir(tmp_path, "stk", "joint", 0) / "node_meta.json").read_text())
    assert joint["format"] == "fxray-node-meta" and joint["version"] == 1 and joint["graph"] == "stk_joint_0"
    nodes, stacks = joint["nodes"], joint["module_stacks"]

    def module(name):
        return stacks[nodes[name]["module_stack"]][-1][0]

    assert nodes["primals_1"]["param"] == "layers.0.ln.weight"
    assert module("addmm") == "layers.0.fc" and stacks[nodes["addmm"]["module_stack"]][0] == ["layers.0", "_Block"]
    assert module("addmm_1") == "layers.1.fc" and module("relu_2") == "layers.2"
    assert nodes["addmm"]["phase"] == "forward"
    # backward twins: relu's backward (decomposed: le + where) belongs to layers.2, in the backward phase
    assert nodes["where"]["phase"] == "backward" and module("where") == "layers.2"
    assert nodes["mm"]["phase"] == "backward" and module("mm") == "head"
    # stack traces are deduplicated: fewer distinct traces than nodes that carry one
    with_trace = [n for n in nodes.values() if "stack_trace" in n]
    assert with_trace and len(joint["stack_traces"]) < len(with_trace)
    assert all(0 <= n["stack_trace"] < len(joint["stack_traces"]) for n in with_trace)
    backward = json.loads((graph_dir(tmp_path, "stk", "backward", 0) / "node_meta.json").read_text())
    assert any(v.get("phase") == "backward" and "module_stack" in v for v in backward["nodes"].values())


def test_module_path_and_param_path():
    assert fxray_capture.module_path("L['self'].layers[0]._modules['fc']") == "layers.0.fc"
    assert fxray_capture.module_path("L['self'].model.layers.3.self_attn") == "model.layers.3.self_attn"
    assert fxray_capture.module_path("L['self']") == ""
    assert (fxray_capture.param_path("L_self_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_")
            == "layers.0.self_attn.q_proj.weight")
    assert fxray_capture.param_path("l_s_modules_head_buffers_running_mean_") == "head.running_mean"
    assert fxray_capture.param_path("l_x_") is None


def test_committed_samples_match_make_samples():
    _samples_present()
    manifest = json.loads((SAMPLES / "MANIFEST.json").read_text())
    assert set(manifest["dumps"]) == set(make_samples.SAMPLES)
    assert sorted(p.name for p in (SAMPLES / "dumps").iterdir()) == sorted(make_samples.SAMPLES)
    for name in make_samples.SAMPLES:
        for kind in make_samples.KINDS:
            d = graph_dir(SAMPLES / "dumps", name, kind, 0)
            assert sorted(p.name for p in d.iterdir()) == sorted(make_samples.graph_files(d.name))
        for stem, info in manifest["dumps"][name].items():
            d = SAMPLES / "dumps" / name / stem
            assert sorted(info["files"]) == sorted(p.name for p in d.iterdir())
    for rel in manifest.get("trace", []) + manifest.get("compile_debug", []):
        assert (SAMPLES / rel).is_file(), rel
    assert (SAMPLES / "trace" / make_samples.TRACE_NAME).is_file()
    debug = list((SAMPLES / "compile_debug").glob("run_*-pid_*/torchinductor/model__*_forward_*/fx_graph_readable.py"))
    assert debug and list((SAMPLES / "compile_debug").glob("run_*/torchinductor/model__*_backward_*/fx_graph_runnable.py"))
    total = sum(f.stat().st_size for f in SAMPLES.rglob("*") if f.is_file())
    assert total < make_samples.SIZE_BUDGET


def test_committed_samples_contents():
    _samples_present()
    for inp in sorted((SAMPLES / "dumps").rglob("*.input")):
        meta = check_graph_dir(inp.parent, eager_outputs=False, node_meta=False)
        check_real_inputs(inp.parent, meta, every_tensor_nonzero=False)
        assert str(REPO) not in (inp.parent / f"{inp.parent.name}.readable.py").read_text()
    mlp_fw = (SAMPLES / "dumps/mlp/mlp_forward_0/mlp_forward_0.readable.py").read_text()
    assert re.search(r'"Sym\(s\d+\)"', mlp_fw) and re.search(r'"f32\[s\d+, 32\]', mlp_fw)
    cnn = (SAMPLES / "dumps/cnn_channels_last/cnn_channels_last_forward_0/cnn_channels_last_forward_0.readable.py")
    assert "f32[2, 3, 8, 8][192, 1, 24, 3]cpu" in cnn.read_text()  # channels_last strides
    embed = load_input_meta(SAMPLES / "dumps/embed_ce/embed_ce_forward_0/embed_ce_forward_0.input")
    assert any(len(m) == 5 and m[3] == torch.int64 for m in embed)
    # trace payload md5s survive the path scrubbing
    import hashlib

    text = (SAMPLES / "trace" / make_samples.TRACE_NAME).read_text()
    assert str(REPO) not in text
    records, cur = [], None
    for line in text.split("\n"):
        if line.startswith("\t"):
            cur[1].append(line[1:])
        else:
            cur = [line, []]
            records.append(cur)
    checked = 0
    for header, payload in records:
        m = re.search(r'"has_payload": "([0-9a-f]{32})"', header)
        if m:
            assert hashlib.md5("\n".join(payload).encode()).hexdigest() == m.group(1), header
            checked += 1
    assert checked > 0 and any('"aot_joint_graph"' in h for h, _ in records)


def test_real_copies_keep_strides_under_torch_29s_name_of_the_density_test(monkeypatch):
    """torch 2.9 has no `is_non_overlapping_and_dense_or_false` (the version matrix's 2.9.1 slice saved no inputs:
    ImportError); with only 2.9's `is_non_overlapping_and_dense`, real copies still keep sizes, strides and values,
    and an expanded tensor keeps its zero stride."""
    import torch._prims_common as prims_common

    # This torch's test under 2.9's name only (2.11 has no `is_non_overlapping_and_dense`).
    dense = getattr(prims_common, "is_non_overlapping_and_dense_or_false", None) or prims_common.is_non_overlapping_and_dense
    monkeypatch.delattr(prims_common, "is_non_overlapping_and_dense_or_false", raising=False)
    monkeypatch.setattr(prims_common, "is_non_overlapping_and_dense", dense, raising=False)
    transposed = torch.randn(4, 6).t()
    copy_ = fxray_capture._real_copy(transposed)
    assert copy_.stride() == transposed.stride() and torch.equal(copy_, transposed)
    assert copy_.untyped_storage().data_ptr() != transposed.untyped_storage().data_ptr()
    expanded = torch.randn(3, 1).expand(3, 5)
    assert fxray_capture._real_copy(expanded).stride() == (1, 0)
