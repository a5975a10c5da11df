#!/usr/bin/env python3
"""Write fxray's TorchScript and lazy-tensor (LTC) IR fixtures (CPU, fixed seeds, tiny shapes).

    ~/.cache/fxray/venv/bin/python tools/capture/ir_samples.py [--out samples/cpu]

Writes only <out>/torchscript/ and <out>/ltc/ (both are deleted and rewritten), and, when <out>/MANIFEST.json
exists, sets its "torchscript" and "ltc" keys (file lists and the node counts printed below):
    torchscript/mlp.ts.txt         torch.jit.trace of a function (params are graph inputs): every value typed
                                   Float(4, 8, strides=[8, 1], ...), a multi-output aten::max, nested tuple output
    torchscript/mlp_gelu.ts.txt    the same with a wider hidden layer and gelu: the diff partner of mlp.ts.txt
    torchscript/cnn.ts.txt         torch.jit.trace of an nn.Module (conv + batch_norm + linear): inlined_graph with
                                   prim::GetAttr parameter chains and `scope:` comments
    torchscript/cnn.state_dict.pt  that module's state_dict (the GetAttr values, for replay)
    ltc/mlp.ltc.txt  ltc/mlp.ltc.dot  ltc/mlp_backend.ts.txt
                                   one lazy-tensor computation as LTC IR text, its DOT dump and the TorchScript the
                                   LTC TorchScript backend lowers it to
    ltc/mlp_gelu.ltc.txt  ltc/mlp_gelu.ltc.dot  ltc/mlp_gelu_backend.ts.txt   a changed computation (diff partner)
Absolute paths of this machine are stripped from source comments.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_OUT = REPO / "samples" / "cpu"


def scrub(text: str) -> str:
    """Source paths without this machine's prefixes (repository root, site-packages, /tmp)."""
    site = str(Path(torch.__file__).resolve().parents[1])
    text = text.replace(str(REPO) + "/", "").replace(site + "/", "")
    return re.sub(r"/(?:root|home/[^/\s]+)/\S*?/site-packages/", "", text)


def mlp(x, w1, b1, w2, b2):
    h = F.relu(F.linear(x, w1, b1))
    return F.linear(h, w2, b2).log_softmax(-1), h.max(dim=1)


def mlp_gelu(x, w1, b1, w2, b2):
    h = F.gelu(F.linear(x, w1, b1))
    return F.linear(h, w2, b2).log_softmax(-1), h.max(dim=1)


def mlp_args(hidden: int):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(4, 8, generator=g), torch.randn(hidden, 8, generator=g), torch.randn(hidden, generator=g),
            torch.randn(3, hidden, generator=g), torch.randn(3, generator=g))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x))).mean((2, 3))
        return self.fc(y).softmax(-1)


def write(path: Path, text: str, written: list[Path]) -> None:
    path.write_text(scrub(text))
    written.append(path)


def make_torchscript(out: Path, written: list[Path]) -> None:
    d = out / "torchscript"
    d.mkdir()
    for name, fn, hidden in (("mlp", mlp, 16), ("mlp_gelu", mlp_gelu, 24)):
        traced = torch.jit.trace(fn, mlp_args(hidden))
        write(d / f"{name}.ts.txt", str(traced.graph), written)
    torch.manual_seed(0)
    model = Cnn().eval()
    traced = torch.jit.trace(model, torch.randn(2, 3, 8, 8))
    write(d / "cnn.ts.txt", str(traced.inlined_graph), written)
    torch.save(model.state_dict(), d / "cnn.state_dict.pt")
    written.append(d / "cnn.state_dict.pt")


def lazy_mlp(x, w1, w2, gelu: bool):
    h = (F.gelu if gelu else torch.relu)(x @ w1)
    y = (h @ w2).sum(1)
    v, i = torch.max(h, 1)
    return [torch.softmax(y, 0), v, i]


def make_ltc(out: Path, written: list[Path]) -> None:
    import torch._lazy
    import torch._lazy.ts_backend

    torch._lazy.ts_backend.init()
    d = out / "ltc"
    d.mkdir()
    for name, hidden, gelu in (("mlp", 4, False), ("mlp_gelu", 6, True)):
        g = torch.Generator().manual_seed(0)
        x, w1, w2 = (torch.randn(*s, generator=g).to("lazy") for s in ((2, 3), (3, hidden), (hidden, 5)))
        roots = lazy_mlp(x, w1, w2, gelu)
        write(d / f"{name}.ltc.txt", torch._C._lazy._get_tensors_text(roots), written)
        write(d / f"{name}.ltc.dot", torch._C._lazy._get_tensors_dot(roots), written)
        write(d / f"{name}_backend.ts.txt", torch._C._lazy._get_tensors_backend(roots), written)
        torch._lazy.mark_step()


def count_nodes(path: Path) -> dict:
    """What the dump itself says: the golden figures fxray's parsers are checked against."""
    text = path.read_text()
    if path.name.endswith(".ltc.txt"):
        return {"ir_nodes": len(re.findall(r"^\s*%\d+ = ", text, re.M)),
                "device_data": text.count("lazy_tensors::device_data")}
    if path.name.endswith(".ltc.dot"):
        return {"dot_nodes": len(re.findall(r"^\s*node\d+ \[", text, re.M)),
                "dot_edges": len(re.findall(r"->", text))}
    header, _, body = text.partition("):\n")
    return {"inputs": header.count("%"),
            "statements": len([l for l in body.splitlines() if "=" in l and not l.strip().startswith("return")]),
            "constants": body.count("prim::Constant")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("torchscript", "ltc"):
        shutil.rmtree(out / sub, ignore_errors=True)
    written: list[Path] = []
    make_torchscript(out, written)
    make_ltc(out, written)
    info = {str(p.relative_to(out)): count_nodes(p) for p in written if not p.name.endswith(".pt")}
    manifest = out / "MANIFEST.json"
    if manifest.exists():
        m = json.loads(manifest.read_text())
        m["torchscript"] = sorted(str(p.relative_to(out)) for p in written if p.parent.name == "torchscript")
        m["ltc"] = sorted(str(p.relative_to(out)) for p in written if p.parent.name == "ltc")
        m["ir_counts"] = info
        manifest.write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    for p in written:
        print(f"  {p.stat().st_size:>7}  {p.relative_to(out)}  {info.get(str(p.relative_to(out)), '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
