
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_mutation/cg_mutation_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1):
        mul = torch.ops.aten.mul.Tensor(arg0_1, 0.9)
        mean = torch.ops.aten.mean.dim(arg1_1, [0])
        mul_1 = torch.ops.aten.mul.Tensor(mean, 0.1);  mean = None
        add = torch.ops.aten.add.Tensor(mul, mul_1);  mul = mul_1 = None
        sub = torch.ops.aten.sub.Tensor(arg1_1, add);  arg1_1 = None
        copy_ = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        return (sub,)

