
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
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/checkpoint/ckpt_mlp/ckpt_mlp_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7):
        t = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_3, t);  primals_2 = t = None
        t_1 = torch.ops.aten.t.default(primals_4)
        addmm_1 = torch.ops.aten.addmm.default(primals_5, addmm, t_1);  t_1 = None
        gelu = torch.ops.aten.gelu.default(addmm_1);  addmm_1 = None
        run_and_save_rng_state = torch.ops.higher_order.run_and_save_rng_state(torch.ops.aten.native_dropout.default, gelu, 0.25, True);  gelu = None
        getitem_2 = run_and_save_rng_state[0]
        getitem_3 = run_and_save_rng_state[1];  run_and_save_rng_state = None
        getitem = getitem_3[0];  getitem_3 = None
        new_empty = torch.ops.aten.new_empty.default(addmm, [6, 1], pin_memory = False)
        run_and_save_rng_state_1 = torch.ops.higher_order.run_and_save_rng_state(torch.ops.aten.bernoulli.p, new_empty, 0.75);  new_empty = None
        getitem_4 = run_and_save_rng_state_1[0]
        getitem_5 = run_and_save_rng_state_1[1];  run_and_save_rng_state_1 = None
        mul = torch.ops.aten.mul.Tensor(getitem, getitem_5);  getitem = getitem_5 = None
        div = torch.ops.aten.div.Tensor(mul, 0.75);  mul = None
        add = torch.ops.aten.add.Tensor(addmm, div);  div = None
        t_2 = torch.ops.aten.t.default(primals_6);  primals_6 = None
        addmm_2 = torch.ops.aten.addmm.default(primals_7, add, t_2);  primals_7 = add = None
        return (addmm_2, primals_3, primals_4, primals_5, addmm, t_2, getitem_2, getitem_4)

