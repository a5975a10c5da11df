
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
        self.load_state_dict(torch.load(r'/work/main/tests/data/zerotensor/sgn/sgn_backward_0/state_dict.pt'))



    def forward(self, tangents_1):
        _efficientzerotensor = torch.ops.aten._efficientzerotensor.default([20, 20], dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        return (_efficientzerotensor,)

