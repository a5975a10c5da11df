"""Dynamo-level graphs of small modules, written at test time with the Python that has torch (FXRAY_PYTHON).

capture(root, name) compiles one module with a backend that keeps what torch.compile hands it: the dynamo graph
(torch-level calls, as print_readable shows them) and, through aot_module_simplified, the AOT inference graph of
the same compile. Both are written as seed dumps with the same saved inputs (<stem>.pt: the example inputs, the
lifted parameters included, in placeholder order) and the module's eager outputs (<stem>.expected.pt).

write_trace(root) runs torch.compile(backend="aot_eager") under TORCH_TRACE in a child process: the log a user
gets, holding dynamo_output_graph and aot_*_graph records."""
import collections
import contextlib
import os
import subprocess
import sys
import textwrap

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._functorch.aot_autograd import aot_module_simplified


class Attention(nn.Module):
    """Pre-norm attention block: layer_norm, split, view/transpose, SDPA, manual softmax attention, contiguous,
    Python operators on tensors, indexing with Ellipsis/slices/ints/None, size queries."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(32)
        self.qkv = nn.Linear(32, 96)
        self.out = nn.Linear(32, 32)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln(x)).split(c, dim=2)
        q = q.view(b, t, 4, 8).transpose(1, 2)
        k = k.view(b, t, 4, 8).transpose(1, 2)
        v = v.view(b, t, 4, 8).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        att = (q @ k.transpose(-2, -1)) * (1.0 / 8 ** 0.5)
        att = att.masked_fill(torch.ones(t, t, dtype=torch.bool, device=x.device).tril().logical_not(), float("-inf")).softmax(dim=-1)
        y2 = att @ v
        y = (y + y2).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.out(y)
        return x[..., :16], x[:, 0], x[None, 1:, -1], 2 - x.float().sum(-1, keepdim=True) / x.size(-1)


class ConvBN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(torch.flatten(x, 1)).log_softmax(-1)


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8, padding_idx=0)
        self.norm = nn.LayerNorm(8)

    def forward(self, ids):
        h = self.norm(self.emb(ids))
        h[:, 0] = 0.0
        h += 1
        return F.normalize(h.permute(0, 2, 1), dim=1).to(torch.float64)


class MultiHead(nn.Module):
    """nn.MultiheadAttention outside its fast path: F.multi_head_attention_forward with weights and a padding
    mask, and without weights with an additive causal mask."""

    def __init__(self):
        super().__init__()
        self.a = nn.MultiheadAttention(32, 4, batch_first=True)
        self.b = nn.MultiheadAttention(32, 4)

    def forward(self, x):
        pad = x[..., 0] > 1.5
        out, weights = self.a(x, x, x, key_padding_mask=pad)
        t = x.size(1)
        causal = torch.triu(torch.full((t, t), float("-inf"), device=x.device), 1)
        y = x.transpose(0, 1)
        out2, _ = self.b(y, y, y, attn_mask=causal, need_weights=False)
        return out, weights, out2


class Autocast(nn.Module):
    """A bf16 autocast region (dynamo: _enter_autocast ... _exit_autocast) and a no_grad region."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        with torch.autocast(x.device.type, dtype=torch.bfloat16):
            y = self.fc(x) @ x.t()
        with torch.no_grad():
            z = x * 2
        return y.float() + z.sum()


class Decoder(nn.Module):
    """Upsampling as decoders do it (F.interpolate by size and by factor, nearest and bilinear), and tensors made
    from literal data (torch.tensor, new_tensor)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        up = F.interpolate(self.conv(x), scale_factor=2, mode="bilinear", align_corners=False)
        near = F.interpolate(x, size=(8, 8))
        floor = torch.where(up > 0, up, torch.tensor(0.25, device=x.device))
        weights = x.new_tensor([[1.0], [2.0], [3.0], [4.0]])
        return floor + near * weights[None, :, :, None]


def _mlp():
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Dropout(0.1), nn.Linear(32, 4))


def modules():
    """name -> (module in eval mode, example input)"""
    torch.manual_seed(0)
    made = {
        "mlp": (_mlp(), torch.randn(8, 16)),
        "conv_bn": (ConvBN(), torch.randn(2, 3, 8, 8)),
        "attention": (Attention(), torch.randn(2, 6, 32)),
        "embedding": (Embed(), torch.randint(0, 10, (3, 5))),
        "multihead": (MultiHead(), torch.randn(2, 6, 32)),
        "autocast": (Autocast(), torch.randn(8, 16)),
        "decoder": (Decoder(), torch.randn(2, 4, 4, 4)),
    }
    for m, _ in made.values():
        m.eval()
        for b in m.buffers():  # running_var must stay positive, as real statistics are
            b.data = b.data.abs() + 0.5 if b.is_floating_point() else b.data
    return made


def _write_dump(root, stem, text, inputs, expected, gm=None):
    d = os.path.join(root, stem)
    os.makedirs(d, exist_ok=True)
    if gm is not None:  # the graph's get_attr constants (AOT lifts `h[:, 0] = 0.0`'s value into one)
        constants = {n.target: getattr(gm, n.target) for n in gm.graph.nodes if n.op == "get_attr"}
        torch.save(collections.OrderedDict(constants), os.path.join(d, "state_dict.pt"))
    for name in ("module.py", stem + ".readable.py"):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    torch.save(list(inputs), os.path.join(d, stem + ".pt"))
    torch.save(list(expected), os.path.join(d, stem + ".expected.pt"))
    return d


def capture(root, name, device="cpu", dynamic=False, autocast=None):
    """Writes <root>/<name>[_dynamic|_autocast]_dynamo_forward_0 and ..._aot_forward_0; returns (dynamo dir, aot
    dir). dynamic=True: symbolic sizes (SymInt inputs, size queries) and unspecialised floats. autocast=<dtype>:
    compiled and run inside torch.autocast (entered outside the compiled function: no region in the graph)."""
    module, x = modules()[name]
    module, x = module.to(device), x.to(device)
    kept = {}

    def readable(gm):
        return gm.print_readable(print_output=False, include_stride=True, include_device=True)

    def backend(gm, example_inputs):
        kept["dynamo"] = readable(gm)
        kept["inputs"] = [t.detach().clone() if isinstance(t, torch.Tensor)
                          else int(t) if isinstance(t, torch.SymInt) else float(t) if isinstance(t, torch.SymFloat) else t
                          for t in example_inputs]

        def fw(aot_gm, _):
            kept["aot"] = readable(aot_gm)
            kept["aot_gm"] = aot_gm
            return aot_gm

        return aot_module_simplified(gm, example_inputs, fw_compiler=fw)

    torch._dynamo.reset()
    outer = torch.autocast(x.device.type, dtype=autocast) if autocast else contextlib.nullcontext()
    with torch.no_grad(), outer:
        compiled = torch.compile(module, backend=backend, dynamic=dynamic, fullgraph=True)
        out = compiled(x.clone())
        eager = module(x.clone())
    outs = eager if isinstance(eager, tuple) else (eager,)
    for a, b in zip(out if isinstance(out, tuple) else (out,), outs):
        assert torch.allclose(a, b, atol=1e-5 if autocast is None else 1e-2), name
    stem = name + ("_dynamic" if dynamic else "") + ("_autocast" if autocast else "")
    return (_write_dump(root, f"{stem}_dynamo_forward_0", kept["dynamo"], kept["inputs"], outs),
            _write_dump(root, f"{stem}_aot_forward_0", kept["aot"], kept["inputs"], outs, kept["aot_gm"]))


def write_trace(root):
    """A TORCH_TRACE log of aot_eager compiles of the modules (one frame each); returns the log's path."""
    trace = os.path.join(root, "trace")
    script = textwrap.dedent(f"""
        import sys, torch
        sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
        import dynamo_fixtures as fx
        for name, (m, x) in fx.modules().items():
            torch._dynamo.reset()
            torch.compile(m, backend="aot_eager", dynamic=False)(x)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, env={**os.environ, "TORCH_TRACE": trace})
    logs = [f for f in os.listdir(trace) if f.endswith(".log")]
    assert len(logs) == 1, logs
    return os.path.join(trace, logs[0])
