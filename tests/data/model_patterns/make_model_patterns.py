"""Writes model_patterns.log here: a TORCH_TRACE of one compiled CPU training step through three constructs real
models use that the corpus lacked (found on models new to it, session 22):
  - a value the model's code calls `output` (Gemma's decoder: FX then names the graph's output node `output_1`);
  - a custom torch.autograd.Function (BLOOM's GeLUFunction: dynamo's higher_order.autograd_function_apply, whose
    forward body returns ((outputs...), (saved...)));
  - a tensor made from a Python number and fed to sqrt (DeBERTa's sqrt(torch.tensor(head_dim) * scale_factor): a
    self._tensor_constantN the log holds no value for).
Run with torch 2.11: python3 tests/data/model_patterns/make_model_patterns.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch

    class TanhGelu(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            t = torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x))
            return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.79788456 * (1 + 3 * 0.044715 * x * x))

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(16, 32)
            self.down = torch.nn.Linear(32, 16)

        def forward(self, x):
            scale = torch.sqrt(torch.tensor(x.size(-1), dtype=torch.float) * 3)
            output = self.down(TanhGelu.apply(self.up(x))) / scale
            return output + x

    torch.manual_seed(0)
    block = Block()
    x = torch.randn(4, 16, requires_grad=True)
    torch.compile(block)(x).sum().backward()
    sys.exit(0)

sys.path.insert(0, os.path.dirname(HERE))
from trace_fixture import write_trace_log  # noqa: E402

write_trace_log(__file__, os.path.join(HERE, "model_patterns.log"))
