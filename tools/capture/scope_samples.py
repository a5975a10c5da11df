"""Writes tests/data/scopes/: a 12-layer residual stack captured with fxray_capture (node_meta.json beside each
dump), for the module-hierarchy tests of the GUI (tests/views). Paths are scrubbed; real inputs are not kept.

Run: ~/.cache/fxray/venv/bin/python tools/capture/scope_samples.py
"""
import os
import shutil
import sys
from pathlib import Path

import torch
import torch.nn as nn

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
import fxray_capture  # noqa: E402

OUT = REPO / "tests" / "data" / "scopes"


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.ln = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, 2 * width)
        self.fc2 = nn.Linear(2 * width, width)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(self.ln(x))))


class Stack(nn.Module):
    def __init__(self, layers=12, width=8):
        super().__init__()
        self.embed = nn.Linear(4, width)
        self.layers = nn.ModuleList([Block(width) for _ in range(layers)])
        self.head = nn.Linear(width, 2)

    def forward(self, x):
        h = self.embed(x)
        for layer in self.layers:
            h = layer(h)
        return self.head(h)


def main() -> None:
    torch.manual_seed(0)
    shutil.rmtree(OUT / "stack12", ignore_errors=True)
    cap = fxray_capture.backend("stack12", OUT, dump_example_input=False, strict=True)
    model = torch.compile(Stack(), backend=cap)
    model(torch.randn(3, 4)).sum().backward()
    site = str(Path(torch.__file__).resolve().parents[1]) + "/"
    for f in (OUT / "stack12").rglob("*"):
        if f.suffix in (".py", ".json"):
            text = f.read_text().replace(str(REPO) + "/", "").replace(site, "")
            f.write_text(text)
    print("wrote", *sorted(str(p.relative_to(REPO)) for p in (OUT / "stack12").iterdir()))


if __name__ == "__main__":
    main()
