#!/usr/bin/env python3
"""Writes flex_causal.log beside this script (committed; rerun to refresh): a TORCH_TRACE of make_flex.py's
flex_attention inference compiled by inductor on the CPU (chromium events left out). Its fx_graph_runnable holds the
score/mask subgraphs only as `self.sdpa_score0 = <lambda>()` (after_aot writes the GraphModule's repr); the same
compile's AOT and post-grad records hold them as nested classes.

    python tests/data/flex/make_flex_log.py [OUT.log]
"""
import glob
import os
import shutil
import sys
import tempfile
from pathlib import Path

out = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent / "flex_causal.log")
trace_dir = tempfile.mkdtemp(prefix="fxray_flex_trace_")
os.environ["TORCH_TRACE"] = trace_dir
# 8-lane (AVX2) C++ kernels: they run on AVX2 and AVX-512 CPUs alike, 16-lane ones only on AVX-512.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402  (TORCH_TRACE is read at import)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_flex import attend  # noqa: E402

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 16, 8) for _ in range(3))
with torch.no_grad():
    torch.compile(attend, dynamic=False)(q, k, v)

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
