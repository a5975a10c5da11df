"""Writes stage_compare.log: a small TORCH_TRACE log of inductor compiles on CPU whose stages (dynamo graph, AOT
graph, inductor post-grad graph) stage compare lines up, with what the samples' logs lack:
  frame 0: an MLP under torch.autocast("cpu", bfloat16) (inference): the dynamo graph has the autocast enter/exit
           nodes, the AOT graph explicit casts; the outputs are bf16
  frame 1: a conv + batch norm in training mode: the running statistics are mutated inputs
           (InputMutationAOTOutput before the user output in the AOT forward's returns)
  frame 2: a function of a tensor and a Python int that is dynamic (a SymInt input, and an int output)

    python tests/data/stage_compare/make_stage_logs.py tests/data/stage_compare/stage_compare.log
"""
import glob
import os
import shutil
import sys
import tempfile

out = sys.argv[1]
trace_dir = tempfile.mkdtemp(prefix="fxray_stage_trace_")
os.environ["TORCH_TRACE"] = trace_dir

import torch  # noqa: E402  (TORCH_TRACE is read at import)
import torch.nn as nn  # noqa: E402

torch.manual_seed(0)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 16)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = torch.relu(self.fc1(x))
            return self.fc2(h).softmax(-1)


class ConvBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x))).mean(dim=(2, 3))


def scaled(x, n):
    return (x * n).sum(-1), n + 1


with torch.no_grad():
    torch.compile(Mlp().eval())(torch.randn(4, 32))
model = ConvBn().train()
torch.compile(model)(torch.randn(2, 3, 8, 8, requires_grad=True)).sum().backward()
f = torch.compile(scaled, dynamic=True)
f(torch.randn(5, 6), 3)

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
