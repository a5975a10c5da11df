"""Writes iota_dynamic.log: a TORCH_TRACE log of an inductor compile on the CPU with dynamic shapes, where position
ids come from torch.arange(seq_len) and seq_len is a SymInt: inductor's decomposition turns the arange into
prims.iota(s0, start=0, step=1, dtype=torch.int64, device=cpu) in the AOT and post-grad graphs (the distilbert
`dynamic` recipe's trace showed it). A second call with another length reuses the one dynamic graph.

    python tests/data/dynamic/make_iota_log.py tests/data/dynamic/iota_dynamic.log
"""
import glob
import os
import shutil
import sys
import tempfile

out = sys.argv[1]
trace_dir = tempfile.mkdtemp(prefix="fxray_iota_trace_")
os.environ["TORCH_TRACE"] = trace_dir

import torch  # noqa: E402

torch.manual_seed(0)


def positions(x):
    pos = torch.arange(x.shape[1], device=x.device) + 2  # OPT-style offset position ids
    return x + pos.to(x.dtype)[None, :, None] * 0.5


fn = torch.compile(positions)
x = torch.randn(2, 12, 8)
torch._dynamo.mark_dynamic(x, 1)  # the sequence length only: s0
fn(x)
y = torch.randn(2, 9, 8)
torch._dynamo.mark_dynamic(y, 1)
fn(y)
logs = glob.glob(os.path.join(trace_dir, "*.log"))
assert len(logs) == 1, logs


def drop_records(src, dst, kinds=("chromium_event", "compilation_metrics")):
    """Copies the log without records of `kinds` (profiling: most of its bytes, nothing fxray reads)."""
    with open(src) as f:
        lines = f.read().split("\n")
    kept, skip = [], False
    for line in lines:
        if not line.startswith("\t"):
            skip = any(line.find('{"%s"' % k) >= 0 for k in kinds)
        if not skip:
            kept.append(line)
    with open(dst, "w") as f:
        f.write("\n".join(kept))


drop_records(logs[0], out)
shutil.rmtree(trace_dir)
print(out)
