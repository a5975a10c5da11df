"""Writes bf16_gaps.log here: a TORCH_TRACE of one CPU training step in bfloat16 through ops whose CPU kernels take no
bfloat16 while their CUDA kernels do (issue 21, cross-device replay: a bf16 graph recorded on a GPU replays on a
machine without one): avg_pool3d, antialiased bilinear upsampling, multi_margin_loss, trace, beside ops that have
bfloat16 CPU kernels. Compiled with inductor: its compiled code calls aten's CPU kernel for the antialiased upsampling
and stops there, as eager does, but by then the dynamo graph and AOTAutograd's forward and backward graphs are in the
log, and those are what a CUDA run records for fxray to replay on this CPU.
Run with torch 2.11: python3 tests/data/dtype_gaps/make_bf16_gaps.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch
    import torch.nn.functional as F

    def step(volume, image, w, target):
        pooled = F.avg_pool3d(volume * w, 2)                                   # [2, 3, 2, 4, 4]
        small = F.interpolate(image, scale_factor=0.5, mode="bilinear", antialias=True)  # [2, 3, 4, 4]
        scores = (pooled.mean(2) + small).flatten(1)[:, :5]                    # [2, 5]
        loss = F.multi_margin_loss(scores, target) + torch.trace(scores @ scores.t()) * 1e-3
        return loss

    g = torch.Generator().manual_seed(0)
    volume = torch.randn(2, 3, 4, 8, 8, generator=g).bfloat16()
    image = torch.randn(2, 3, 8, 8, generator=g).bfloat16()
    w = torch.randn(8, generator=g).bfloat16().requires_grad_()
    target = torch.tensor([1, 3])
    try:
        torch.compile(step)(volume, image, w, target).backward()
    except NotImplementedError as e:  # the CPU kernel's gap, after the graphs were logged
        print("the compiled CPU step stopped as expected:", str(e).splitlines()[0])
    sys.exit(0)

sys.path.insert(0, os.path.dirname(HERE))
from trace_fixture import write_trace_log  # noqa: E402

write_trace_log(__file__, os.path.join(HERE, "bf16_gaps.log"))
