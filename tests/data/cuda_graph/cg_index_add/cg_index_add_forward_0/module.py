
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_index_add/cg_index_add_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1, arg2_1):
        index_add = torch.ops.aten.index_add.default(arg0_1, 0, arg1_1, arg2_1);  arg0_1 = arg1_1 = arg2_1 = None
        mul = torch.ops.aten.mul.Tensor(index_add, 2);  index_add = None
        return (mul,)

