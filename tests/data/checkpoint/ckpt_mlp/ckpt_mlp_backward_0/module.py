
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
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/checkpoint/ckpt_mlp/ckpt_mlp_backward_0/state_dict.pt'))



    def forward(self, primals_3, primals_4, primals_5, addmm, t_2, rng_state_output_0, rng_state_output_1, tangents_1):
        t_3 = torch.ops.aten.t.default(t_2);  t_2 = None
        mm = torch.ops.aten.mm.default(tangents_1, t_3);  t_3 = None
        t_4 = torch.ops.aten.t.default(tangents_1)
        t_1 = torch.ops.aten.t.default(primals_4);  primals_4 = None
        addmm_1 = torch.ops.aten.addmm.default(primals_5, addmm, t_1);  primals_5 = None
        gelu = torch.ops.aten.gelu.default(addmm_1)
        run_with_rng_state = torch.ops.higher_order.run_with_rng_state(rng_state_output_0, torch.ops.aten.native_dropout.default, gelu, 0.25, True);  rng_state_output_0 = gelu = None
        getitem = run_with_rng_state[0]
        getitem_1 = run_with_rng_state[1];  run_with_rng_state = None
        new_empty = torch.ops.aten.new_empty.default(addmm, [6, 1], pin_memory = False)
        run_with_rng_state_1 = torch.ops.higher_order.run_with_rng_state(rng_state_output_1, torch.ops.aten.bernoulli.p, new_empty, 0.75);  rng_state_output_1 = new_empty = None
        mul = torch.ops.aten.mul.Tensor(getitem, run_with_rng_state_1);  getitem = None
        div = torch.ops.aten.div.Tensor(mul, 0.75);  mul = None
        add = torch.ops.aten.add.Tensor(addmm, div);  div = None
        mm_1 = torch.ops.aten.mm.default(t_4, add);  t_4 = add = None
        t_5 = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view = torch.ops.aten.view.default(sum_1, [4]);  sum_1 = None
        t_6 = torch.ops.aten.t.default(t_5);  t_5 = None
        div_1 = torch.ops.aten.div.Tensor(mm, 0.75)
        mul_1 = torch.ops.aten.mul.Tensor(div_1, run_with_rng_state_1);  div_1 = run_with_rng_state_1 = None
        native_dropout_backward = torch.ops.aten.native_dropout_backward.default(mul_1, getitem_1, 1.3333333333333333);  mul_1 = getitem_1 = None
        mul_2 = torch.ops.aten.mul.Tensor(addmm_1, 0.7071067811865476)
        erf = torch.ops.aten.erf.default(mul_2);  mul_2 = None
        add_1 = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_3 = torch.ops.aten.mul.Tensor(add_1, 0.5);  add_1 = None
        mul_4 = torch.ops.aten.mul.Tensor(addmm_1, addmm_1)
        mul_5 = torch.ops.aten.mul.Tensor(mul_4, -0.5);  mul_4 = None
        exp = torch.ops.aten.exp.default(mul_5);  mul_5 = None
        mul_6 = torch.ops.aten.mul.Tensor(exp, 0.3989422804014327);  exp = None
        mul_7 = torch.ops.aten.mul.Tensor(addmm_1, mul_6);  addmm_1 = mul_6 = None
        add_2 = torch.ops.aten.add.Tensor(mul_3, mul_7);  mul_3 = mul_7 = None
        mul_8 = torch.ops.aten.mul.Tensor(native_dropout_backward, add_2);  native_dropout_backward = add_2 = None
        t_7 = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_2 = torch.ops.aten.mm.default(mul_8, t_7);  t_7 = None
        t_8 = torch.ops.aten.t.default(mul_8)
        mm_3 = torch.ops.aten.mm.default(t_8, addmm);  t_8 = addmm = None
        t_9 = torch.ops.aten.t.default(mm_3);  mm_3 = None
        sum_2 = torch.ops.aten.sum.dim_IntList(mul_8, [0], True);  mul_8 = None
        view_1 = torch.ops.aten.view.default(sum_2, [16]);  sum_2 = None
        add_3 = torch.ops.aten.add.Tensor(mm, mm_2);  mm = mm_2 = None
        t_10 = torch.ops.aten.t.default(t_9);  t_9 = None
        t_11 = torch.ops.aten.t.default(add_3)
        mm_4 = torch.ops.aten.mm.default(t_11, primals_3);  t_11 = primals_3 = None
        t_12 = torch.ops.aten.t.default(mm_4);  mm_4 = None
        sum_3 = torch.ops.aten.sum.dim_IntList(add_3, [0], True);  add_3 = None
        view_2 = torch.ops.aten.view.default(sum_3, [16]);  sum_3 = None
        t_13 = torch.ops.aten.t.default(t_12);  t_12 = None
        return (t_13, view_2, None, t_10, view_1, t_6, view)

