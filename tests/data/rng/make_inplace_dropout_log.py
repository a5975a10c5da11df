"""Writes inplace_dropout.log: a TORCH_TRACE log of an inductor training compile on the CPU whose classifier ends
as torchvision's EfficientNet's does, in nn.Dropout(p, inplace=True), with a batch norm after it (whose running stats,
inputs the compile mutates, depend on the dropout's draws, as EfficientNet's do on its stochastic depth's). Dynamo's
graph calls
torch.nn.functional.dropout(x, 0.2, True, True) (aten.dropout_); no decomposition makes that native_dropout (whose
mask is rand > p): its composite kernel draws bernoulli_(1 - p), and the AOT and post-grad graphs hold
bernoulli.p(empty, 0.8). Stage compare's aligned RNG must draw both alike, and inductor's generated code, which draws
its own, is compared by rate where an output (a running stat included) depends on the draws (tests/cli/test_trace_cuts.py).
    python tests/data/rng/make_inplace_dropout_log.py tests/data/rng/inplace_dropout.log
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

out = sys.argv[1]
trace_dir = tempfile.mkdtemp(prefix="fxray_inplace_dropout_")
os.environ["TORCH_TRACE"] = trace_dir
# 8-lane (AVX2) C++ kernels: they run on AVX2 and AVX-512 CPUs alike, 16-lane ones only on AVX-512.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402  (TORCH_TRACE is read at import)
import torch.nn as nn  # noqa: E402

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.Dropout(0.2, inplace=True), nn.BatchNorm1d(64), nn.Linear(64, 10)).train()
torch.compile(model)(torch.randn(8, 32)).sum().backward()

torch._logging._internal.trace_log.handlers[0].flush()
log = sorted(glob.glob(os.path.join(trace_dir, "*.log")))[0]
# The stages of `fxray compare`, the forward's generated code and the compile's metrics, payloads whole (slice_trace.py).
records = ["dynamo_output_graph", "aot_forward_graph", "aot_joint_graph", "inductor_post_grad_graph", "inductor_output_code",
           "compilation_metrics"]
subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "slice_trace.py"), log, "0/0", out,
                *records], check=True)
shutil.rmtree(trace_dir)
