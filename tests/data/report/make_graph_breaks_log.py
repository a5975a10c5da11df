"""Writes graph_breaks.log: a small TORCH_TRACE log with what a compile report must show and tlparse's test logs
lack (they predate these records): graph breaks with reason and user stack (dynamo_graph_break_reason), a
recompile with the guard that failed (recompile_reasons), a compilation failure with its traceback (dynamo_error),
on CPU with the eager and aot_eager backends (seconds, no C++ compiler).

    python tests/data/report/make_graph_breaks_log.py tests/data/report/graph_breaks.log
"""
import glob
import os
import shutil
import sys
import tempfile

out = sys.argv[1]
trace_dir = tempfile.mkdtemp(prefix="fxray_report_trace_")
os.environ["TORCH_TRACE"] = trace_dir

import torch  # noqa: E402  (TORCH_TRACE is read at import)
import torch._dynamo  # noqa: E402


def scale(x):
    print("scaling")  # a graph break: print is not traceable
    return x * 2


@torch.compile(backend="aot_eager", dynamic=False)
def with_break(x):
    y = torch.sin(x) + 1
    y = scale(y)
    return torch.cos(y)


def broken_backend(gm, example_inputs):
    raise RuntimeError("broken backend")


@torch.compile(backend=broken_backend)
def fails(x):
    return torch.relu(x) - 1


torch._dynamo.config.suppress_errors = True
with_break(torch.randn(4))
with_break(torch.randn(6))   # another shape: a recompile, the size guard failed
fails(torch.randn(3))        # the backend raises: a compilation failure, run eagerly

torch._logging._internal.trace_log.handlers[0].flush()
logs = sorted(glob.glob(os.path.join(trace_dir, "*.log")))
# chromium_event records (timing spans, most of the log's size) are dropped, each with its payload lines; every
# other record stays byte for byte, so its MD5 still holds.
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
