
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
        self.load_state_dict(torch.load(r'/work/main/tests/data/rng/philox_dump/philox/philox_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1, arg2_1):
        native_dropout = torch.ops.aten.native_dropout.default(arg0_1, 0.5, True);  arg0_1 = None
        getitem = native_dropout[0];  native_dropout = None
        _scaled_dot_product_efficient_attention = torch.ops.aten._scaled_dot_product_efficient_attention.default(getitem, arg1_1, arg2_1, None, True, scale = 1.0);  arg1_1 = arg2_1 = None
        getitem_3 = _scaled_dot_product_efficient_attention[1]
        getitem_4 = _scaled_dot_product_efficient_attention[2]
        getitem_5 = _scaled_dot_product_efficient_attention[3];  _scaled_dot_product_efficient_attention = None
        mul = torch.ops.aten.mul.Tensor(getitem, 2);  getitem = None
        return (mul, getitem_3, getitem_4, getitem_5)

