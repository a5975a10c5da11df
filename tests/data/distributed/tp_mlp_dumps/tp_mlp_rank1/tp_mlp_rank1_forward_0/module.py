
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
        self.load_state_dict(torch.load(r'tests/data/distributed/tp_mlp_dumps/tp_mlp_rank1/tp_mlp_rank1_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5):
        view = torch.ops.aten.view.default(primals_1, [4, 16]);  primals_1 = None
        t = torch.ops.aten.t.default(primals_2);  primals_2 = None
        addmm = torch.ops.aten.addmm.default(primals_3, view, t);  primals_3 = t = None
        view_1 = torch.ops.aten.view.default(addmm, [4, 16]);  addmm = None
        relu = torch.ops.aten.relu.default(view_1);  view_1 = None
        alias = torch.ops.aten.alias.default(relu)
        view_2 = torch.ops.aten.view.default(relu, [4, 16]);  relu = None
        t_1 = torch.ops.aten.t.default(primals_4);  primals_4 = None
        div = torch.ops.aten.div.Tensor(primals_5, 2);  primals_5 = None
        addmm_1 = torch.ops.aten.addmm.default(div, view_2, t_1);  div = None
        all_reduce = torch.ops._c10d_functional.all_reduce.default(addmm_1, 'sum', '0');  addmm_1 = None
        wait_tensor = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        view_3 = torch.ops.aten.view.default(wait_tensor, [4, 16]);  wait_tensor = None
        return (view_3, view, alias, view_2, t_1)

