
import torch
from math import inf
from math import nan
NoneType = type(None)
import torch
from torch import device
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree

from torch.nn import *
class FxModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/moe/moe_experts/moe_experts_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1):
        grouped_mm_fallback = torch.ops.transformers.grouped_mm_fallback.default(arg0_1, arg1_1, arg2_1);  arg0_1 = arg1_1 = None
        silu = torch.ops.aten.silu.default(grouped_mm_fallback);  grouped_mm_fallback = None
        grouped_mm_fallback_1 = torch.ops.transformers.grouped_mm_fallback.default(silu, arg3_1, arg2_1);  silu = arg3_1 = arg2_1 = None
        return (grouped_mm_fallback_1,)

