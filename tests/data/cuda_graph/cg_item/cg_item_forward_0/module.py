
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_item/cg_item_forward_0/state_dict.pt'))



    def forward(self, arg0_1):
        mul = torch.ops.aten.mul.Tensor(arg0_1, 2)
        abs_1 = torch.ops.aten.abs.default(arg0_1);  arg0_1 = None
        max_1 = torch.ops.aten.max.default(abs_1);  abs_1 = None
        _local_scalar_dense = torch.ops.aten._local_scalar_dense.default(max_1);  max_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(_local_scalar_dense, dtype = torch.float64, device = device(type='cpu'), pin_memory = False);  _local_scalar_dense = None
        return (mul, scalar_tensor)

