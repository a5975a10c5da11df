"""Writes dropout_training.log: a TORCH_TRACE log of inductor compiles on CPU as users train, with randomness and
a transient Inf in them:
  frame 0: an MLP with nn.Dropout(0.1) left on, a training step: inductor's replace_random pass turns the dropout
           into prims.inductor_seeds / inductor_lookup_seed / inductor_random in the AOT forward, the runnable and
           the post-grad graphs; the dynamo graph calls torch.nn.functional.dropout
  frame 1: T5's relative-position bucket (transformers' T5Attention._relative_position_bucket, inlined): log(0) = -inf
           for the zero distances, cast to an integer and thrown away by `where`; no output holds an Inf
  frame 2: attention with dropout inside SDPA (`scaled_dot_product_attention(..., dropout_p=0.1)`, as HF's sdpa
           attention trains): the dynamo graph's fused kernel draws inside, the AOT graphs draw through
           inductor_random in the decomposed math

    python tests/data/rng/make_rng_logs.py tests/data/rng/dropout_training.log [cuda]
(with `cuda`, the same compiles on the GPU: scripts/rng-device.sh)
"""
import glob
import math
import os
import shutil
import sys
import tempfile

out = sys.argv[1]
device = sys.argv[2] if len(sys.argv) > 2 else "cpu"
trace_dir = tempfile.mkdtemp(prefix="fxray_rng_trace_")
os.environ["TORCH_TRACE"] = trace_dir
# 8-lane (AVX2) C++ kernels: they run on AVX2 and AVX-512 CPUs alike, 16-lane ones only on AVX-512.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402  (TORCH_TRACE is read at import)
import torch.nn as nn  # noqa: E402

torch.manual_seed(0)


class DropoutMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.drop = nn.Dropout(0.1)
        self.fc2 = nn.Linear(64, 16)

    def forward(self, x):
        return self.fc2(self.drop(torch.relu(self.fc1(x))))


def relative_position_bucket(query_length: int, key_length: int, num_buckets=32, max_distance=128):
    context = torch.arange(query_length, dtype=torch.long, device=device)[:, None]
    memory = torch.arange(key_length, dtype=torch.long, device=device)[None, :]
    relative_position = memory - context
    num_buckets //= 2
    buckets = (relative_position > 0).to(torch.long) * num_buckets
    relative_position = torch.abs(relative_position)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, relative_position, large)


def t5_bias(x, table):
    bucket = relative_position_bucket(x.shape[0], x.shape[0])
    return x + table[bucket].sum(-1)


class DropoutAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(32, 96)

    def forward(self, x):
        q, k, v = self.qkv(x).view(2, 8, 3, 4, 8).permute(2, 0, 3, 1, 4)
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.1).sum(1)


model = DropoutMlp().train().to(device)
torch.compile(model)(torch.randn(8, 32, device=device)).sum().backward()
torch.compile(t5_bias)(torch.randn(12, 12, device=device), torch.randn(32, 4, device=device))
torch.compile(DropoutAttention().train().to(device))(torch.randn(2, 8, 32, device=device)).sum().backward()

torch._logging._internal.trace_log.handlers[0].flush()
logs = sorted(glob.glob(os.path.join(trace_dir, "*.log")))
# chromium_event records (timing spans) are dropped with their payloads; every other record stays byte for byte.
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
