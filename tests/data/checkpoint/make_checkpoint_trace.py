#!/usr/bin/env python3
"""Writes checkpoint_trace.log here: a TORCH_TRACE of a training step with activation checkpointing around a block
that holds dropout, compiled by inductor on the CPU (committed: small; rerun to refresh).

    python tests/data/checkpoint/make_checkpoint_trace.py

Dynamo's graphs hold the block as `torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, ...)` with the body
a nested class (HF's gradient checkpointing and torch.utils.checkpoint write the same); AOTAutograd inlines it, and
inductor's post-grad graph draws the dropout mask with its RNG prims.
"""
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch
    from torch.utils.checkpoint import checkpoint

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(16, 32)
            self.fc2 = torch.nn.Linear(32, 16)
            self.drop = torch.nn.Dropout(0.2)

        def forward(self, x):
            return x + self.fc2(self.drop(torch.nn.functional.gelu(self.fc1(x))))

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = torch.nn.ModuleList([Block(), Block()])
            self.head = torch.nn.Linear(16, 4)

        def forward(self, x):
            for b in self.blocks:
                x = checkpoint(b, x, use_reentrant=False)
            return self.head(x)

    torch.manual_seed(0)
    model = Model().train()
    torch.compile(model)(torch.randn(8, 16)).sum().backward()
    sys.exit(0)

trace = os.path.join(HERE, "trace")
shutil.rmtree(trace, ignore_errors=True)
subprocess.run([sys.executable, os.path.abspath(__file__)], check=True,
               env={**os.environ, "TORCH_TRACE": trace, "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"})
(log,) = glob.glob(os.path.join(trace, "*.log"))
shutil.move(log, os.path.join(HERE, "checkpoint_trace.log"))
os.chmod(os.path.join(HERE, "checkpoint_trace.log"), 0o644)
shutil.rmtree(trace)
