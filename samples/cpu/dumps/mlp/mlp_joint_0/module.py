
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/mlp/mlp_joint_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, tangents_1):
        t = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_4, t);  primals_2 = t = None
        relu = torch.ops.aten.relu.default(addmm);  addmm = None
        alias = torch.ops.aten.alias.default(relu)
        t_1 = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm_1 = torch.ops.aten.addmm.default(primals_6, relu, t_1);  primals_6 = None
        t_2 = torch.ops.aten.t.default(t_1);  t_1 = None
        mm = torch.ops.aten.mm.default(tangents_1, t_2);  t_2 = None
        t_3 = torch.ops.aten.t.default(tangents_1)
        mm_1 = torch.ops.aten.mm.default(t_3, relu);  t_3 = relu = None
        t_4 = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view = torch.ops.aten.view.default(sum_1, [10]);  sum_1 = None
        t_5 = torch.ops.aten.t.default(t_4);  t_4 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        le = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where = torch.ops.aten.where.self(le, scalar_tensor, mm);  le = scalar_tensor = mm = None
        t_6 = torch.ops.aten.t.default(where)
        mm_2 = torch.ops.aten.mm.default(t_6, primals_4);  t_6 = primals_4 = None
        t_7 = torch.ops.aten.t.default(mm_2);  mm_2 = None
        sum_2 = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1 = torch.ops.aten.view.default(sum_2, [64]);  sum_2 = None
        t_8 = torch.ops.aten.t.default(t_7);  t_7 = None
        return [addmm_1, t_8, view_1, None, None, t_5, view]

