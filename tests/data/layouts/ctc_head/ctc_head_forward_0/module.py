
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
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/layouts/ctc_head/ctc_head_forward_0/state_dict.pt'))



    def forward(self, primals_1):
        _log_softmax = torch.ops.aten._log_softmax.default(primals_1, -1, False);  primals_1 = None
        alias = torch.ops.aten.alias.default(_log_softmax)
        transpose = torch.ops.aten.transpose.int(_log_softmax, 0, 1);  _log_softmax = None
        full = torch.ops.aten.full.default([2], 12, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        full_1 = torch.ops.aten.full.default([2], 4, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        return (transpose, full, full_1, alias)

