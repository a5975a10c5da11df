"""The model of bench/minimize_bench.py's `scale` cases: a 24-layer (FXRAY_SCALE_LAYERS) Llama-style transformer (RMSNorm, manual causal
attention, rotary embeddings, QK-norm, gated MLP) whose training-step joint graph has more than 5,000 nodes, with one fault planted in the
middle layer (PLANT_LAYER):

  plant="nan"        layer 12's MLP scales by `torch.log(a.var(...) - 1e6)`: the variance is O(10), so the log is
                     of a negative number and every value of that statement is NaN (a real op of the model code).
  plant="post_grad"  layer 12's MLP gate is the exact GELU (erf) where every other layer uses SiLU; a custom
                     inductor post-grad pass (PlantedErfPass, registered by register_planted_pass) rewrites
                     `erf(x)` as `erfc(x) - 1` -- the identity erf = 1 - erfc with its operands swapped, so the
                     post-grad graph computes -erf(x) where the AOT graphs compute erf(x). Only layer 12 has erf.

The planted source lines are found by their marker comments (planted_line), so the bench can tell whether a
minimized graph still carries the statement: its op and its `# File: ...scale_model.py:LINE` comment.
Imported by the bench and by the child processes it starts (sitecustomize.py, beside it in a scratch folder,
registers the pass in every Python of the post-grad runs, the minifiers' included)."""
from __future__ import annotations

import os

import torch
import torch.nn as nn
import torch.nn.functional as F

# FXRAY_SCALE_LAYERS (minimize_bench.py --scale-layers) makes a smaller stack for a slow machine; every child of the
# bench gets it through its environment, so all of them build the same model.
LAYERS = int(os.environ.get("FXRAY_SCALE_LAYERS", "24"))
PLANT_LAYER = LAYERS // 2


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rotate(x, cos, sin):
    """Rotary position embedding."""
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class Block(nn.Module):
    def __init__(self, d, heads, ffn, plant):
        super().__init__()
        self.heads, self.plant = heads, plant
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)
        self.qn, self.kn = RMSNorm(d // heads), RMSNorm(d // heads)  # QK-norm
        self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 2 * ffn), nn.Linear(ffn, d)

    def forward(self, x, mask, cos, sin):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        q, k = rotate(self.qn(q), cos, sin), rotate(self.kn(k), cos, sin)
        att = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5 + mask
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.o(y)
        a, g = self.up(self.n2(x)).chunk(2, dim=-1)
        if self.plant == "nan":
            a = a * torch.log(a.var(dim=-1, keepdim=True) - 1e6)  # PLANTED nan
        gate = F.gelu(g) if self.plant == "post_grad" else F.silu(g)  # PLANTED post_grad
        return x + self.down(a * gate)


class Transformer(nn.Module):
    def __init__(self, plant="none", layers=LAYERS, d=32, heads=2, ffn=64, seq=16):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d, heads, ffn, plant if i == PLANT_LAYER else "none") for i in range(layers))
        self.norm = RMSNorm(d)
        self.register_buffer("mask", torch.full((seq, seq), float("-inf")).triu(1))
        angle = torch.arange(seq)[:, None] / 10000 ** (torch.arange(d // heads // 2) / (d // heads // 2))
        self.register_buffer("cos", torch.cat((angle, angle), -1).cos())
        self.register_buffer("sin", torch.cat((angle, angle), -1).sin())

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x, self.mask, self.cos, self.sin)
        return self.norm(x)


def make(plant, device, seed=0):
    """The model and an input batch, seeded."""
    torch.manual_seed(seed)
    model = Transformer(plant).to(device)
    return model, torch.randn(2, 16, 32, device=device)


def step(model, x):
    """One training step's forward and backward (what torch.compile turns into a joint graph)."""
    loss = model(x).sum()
    loss.backward()
    return loss


def planted_line(plant):
    """Line number of the planted statement in this file (its marker comment)."""
    for i, line in enumerate(open(__file__.replace(".pyc", ".py")).read().splitlines(), 1):
        if line.rstrip().endswith(f"# PLANTED {plant}"):
            return i
    raise LookupError(plant)


class PlantedErfPass:
    """A buggy post-grad pass: erf(x) -> erfc(x) - 1 (should be 1 - erfc(x)). An inductor CustomGraphPass (uuid()
    keys inductor's FX graph cache, so a cached compile without the pass is never reused)."""

    def __call__(self, graph):
        aten = torch.ops.aten
        for node in list(graph.nodes):
            if node.op == "call_function" and node.target is aten.erf.default:
                with graph.inserting_after(node):
                    erfc = graph.call_function(aten.erfc.default, node.args)
                with graph.inserting_after(erfc):
                    wrong = graph.call_function(aten.sub.Tensor, (erfc, 1))
                erfc.meta.update(node.meta)
                wrong.meta.update(node.meta)
                node.replace_all_uses_with(wrong)
                graph.erase_node(node)

    def uuid(self):
        return "fxray-bench-planted-erf-pass-1"


def register_planted_pass():
    import torch._inductor.config as config
    from torch._inductor.custom_graph_pass import CustomGraphPass

    class _Pass(PlantedErfPass, CustomGraphPass):
        pass

    config.post_grad_custom_post_pass = _Pass()
