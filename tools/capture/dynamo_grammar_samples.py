#!/usr/bin/env python3
"""Write fxray's dynamo-grammar fixtures: print_readable of dynamo-level graphs that use every construct FX
prints beyond plain aten calls (CPU, tiny shapes, no weights).

    ~/.cache/fxray/venv/bin/python tools/capture/dynamo_grammar_samples.py [--out tests/data/fx/dynamo]

Each file is one GraphModule as dynamo's backend receives it (what TORCH_TRACE logs as dynamo_output_graph):
    indexing.py     x[..., :16], x[None, 1:, ...]: Ellipsis, None and slice objects in getitem tuples
    inplace.py      out += y, out *= 2, out -= y, out /= 2, mask |= m, t[idx] = v: operator.iadd ... and
                    operator.setitem, printed as statements followed by "name = target"
    literals.py     dtype / layout / memory_format / device keyword literals, complex literals (1j, (0.5-2j))
    flex.py         flex_attention: a dict argument, nested tuples, higher-order-op subgraphs
                    (score_mod_0, mask_fn_0) referenced by get_attr nodes
    checkpoint.py   torch.utils.checkpoint: tag_activation_checkpoint with its wrap_body_0 subgraph
    cond.py         torch.cond: two branch subgraphs
Absolute paths of this machine are stripped from source comments.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import torch
from torch.nn.attention.flex_attention import flex_attention

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_OUT = REPO / "tests" / "data" / "fx" / "dynamo"


def scrub(text: str) -> str:
    """Source paths without this machine's prefixes (repository root, site-packages)."""
    site = str(Path(torch.__file__).resolve().parents[1])
    text = text.replace(str(REPO) + "/", "").replace(site + "/", "")
    return re.sub(r"/(?:root|home/[^/\s]+)/\S*?/site-packages/", "", text)


def capture(fn, *args) -> str:
    """print_readable (strides and devices included) of the one graph dynamo makes of fn(*args)."""
    texts = []

    def backend(gm, _example_inputs):
        texts.append(gm.print_readable(print_output=False, include_stride=True, include_device=True))
        return gm.forward

    torch._dynamo.reset()
    torch.compile(fn, backend=backend, fullgraph=True)(*args)
    assert len(texts) == 1, f"{fn.__name__}: {len(texts)} graphs"
    return scrub(texts[0]).rstrip() + "\n"


def indexing(x):
    return x[..., :16], x[None, 1:, ...], x[:, None, 3]


def inplace(x, y, m):
    out = x.clone()
    out += y
    out *= 2
    out -= y
    out /= 2
    mask = m.clone()
    mask |= x > 0
    t = torch.zeros(4, 32)
    t[0, 1:] = 1.0
    return out, mask, t


def literals(x):
    a = torch.zeros(3, dtype=torch.float16, layout=torch.strided, device="cpu")
    b = x.contiguous(memory_format=torch.contiguous_format)
    c = torch.view_as_real(torch.view_as_complex(x.reshape(-1, 2)) * 1j)
    d = x * (0.5 - 2j)
    return a, b, c, d, x.to(torch.device("cpu"), torch.bfloat16)


def score_mod(score, b, h, q, kv):
    return score + (q - kv)


def flex(q):
    return flex_attention(q, q, q, score_mod=score_mod)


def checkpoint(x):
    return torch.utils.checkpoint.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)


def cond(x):
    return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    x, y = torch.randn(4, 32), torch.randn(4, 32)
    cases = {
        "indexing": (indexing, x),
        "inplace": (inplace, x, y, torch.zeros(4, 32, dtype=torch.bool)),
        "literals": (literals, x),
        "flex": (flex, torch.randn(1, 2, 16, 8)),
        "checkpoint": (checkpoint, torch.randn(4, requires_grad=True)),
        "cond": (cond, torch.randn(4)),
    }
    for name, (fn, *args) in cases.items():
        text = capture(fn, *args)
        (out / f"{name}.py").write_text(text)
        print(f"{name}.py: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
