
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
        self.load_state_dict(torch.load(r'/work/main/tests/data/zerotensor/sgn/sgn_forward_0/state_dict.pt'))



    def forward(self, primals_1):
        sgn = torch.ops.aten.sgn.default(primals_1);  primals_1 = None
        return (sgn,)

