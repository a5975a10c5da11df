
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
        self.load_state_dict(torch.load(r'tests/data/distributed/tp_mlp_dumps/tp_mlp_rank1/tp_mlp_rank1_joint_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, tangents_1):
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
        t_3 = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_1 = torch.ops.aten.mm.default(tangents_1, t_3);  t_3 = None
        t_5 = torch.ops.aten.t.default(tangents_1)
        mm_3 = torch.ops.aten.mm.default(t_5, view_2);  t_5 = view_2 = None
        t_6 = torch.ops.aten.t.default(mm_3);  mm_3 = None
        sum_2 = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view_5 = torch.ops.aten.view.default(sum_2, [16]);  sum_2 = None
        t_7 = torch.ops.aten.t.default(t_6);  t_6 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        le = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where = torch.ops.aten.where.self(le, scalar_tensor, mm_1);  le = scalar_tensor = mm_1 = None
        t_9 = torch.ops.aten.t.default(where)
        mm_5 = torch.ops.aten.mm.default(t_9, view);  t_9 = view = None
        t_10 = torch.ops.aten.t.default(mm_5);  mm_5 = None
        sum_4 = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_7 = torch.ops.aten.view.default(sum_4, [16]);  sum_4 = None
        t_12 = torch.ops.aten.t.default(t_10);  t_10 = None
        return [view_3, None, t_12, view_7, t_7, view_5]

