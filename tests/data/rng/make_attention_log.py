"""Writes a TORCH_TRACE log of a compiled attention block on the device given (cuda by default): on the CPU its
graphs replay with kernels that pick other output layouts than CUDA's (SDPA's backends), which fxray must report as
a difference of the devices, not as stride mismatches (tests/cli/test_cross_device.py).

    python tests/data/rng/make_attention_log.py tests/data/rng/attention_cuda.log [cuda]
"""
import glob
import os
import shutil
import sys
import tempfile

out = sys.argv[1]
device = sys.argv[2] if len(sys.argv) > 2 else "cuda"
trace_dir = tempfile.mkdtemp(prefix="fxray_attn_trace_")
os.environ["TORCH_TRACE"] = trace_dir

import torch  # noqa: E402  (TORCH_TRACE is read at import)
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(b, t, c))


model = Attention().to(device)
with torch.no_grad():
    torch.compile(model)(torch.randn(2, 16, 64, device=device))
model.train()
torch.compile(model)(torch.randn(2, 16, 64, device=device, requires_grad=True)).sum().backward()

torch._logging._internal.trace_log.handlers[0].flush()
logs = sorted(glob.glob(os.path.join(trace_dir, "*.log")))
kept, skipping = [], False
for line in open(logs[0], encoding="utf-8"):
    if not line.startswith("\t"):
        skipping = '] {"chromium_event"' in line
    if not skipping:
        kept.append(line)
with open(out, "w", encoding="utf-8") as f:
    f.writelines(kept)
shutil.rmtree(trace_dir)
print(out)
