
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/mlp/mlp_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6):
        t = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_4, t);  primals_2 = t = None
        relu = torch.ops.aten.relu.default(addmm);  addmm = None
        alias = torch.ops.aten.alias.default(relu)
        t_1 = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm_1 = torch.ops.aten.addmm.default(primals_6, relu, t_1);  primals_6 = None
        return (addmm_1, primals_4, relu, alias, t_1, primals_3)
