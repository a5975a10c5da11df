
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_clean/cg_clean_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1, arg2_1):
        mm = torch.ops.aten.mm.default(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
        add = torch.ops.aten.add.Tensor(mm, arg2_1);  mm = arg2_1 = None
        relu = torch.ops.aten.relu.default(add);  add = None
        _softmax = torch.ops.aten._softmax.default(relu, -1, False);  relu = None
        return (_softmax,)

