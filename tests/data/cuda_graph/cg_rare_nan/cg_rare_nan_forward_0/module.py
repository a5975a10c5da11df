
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_rare_nan/cg_rare_nan_forward_0/state_dict.pt'))



    def forward(self, arg0_1):
        rand_like = torch.ops.aten.rand_like.default(arg0_1, pin_memory = False)
        sub = torch.ops.aten.sub.Tensor(rand_like, 0.0008);  rand_like = None
        log = torch.ops.aten.log.default(sub);  sub = None
        add = torch.ops.aten.add.Tensor(log, arg0_1);  log = arg0_1 = None
        return (add,)

