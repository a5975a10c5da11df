
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
        self.load_state_dict(torch.load(r'/work/main/tests/data/mixed_norms/autocast_norms/autocast_norms_joint_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, tangents_1):
        _to_copy = torch.ops.aten._to_copy.default(primals_1, dtype = torch.bfloat16);  primals_1 = None
        _to_copy_1 = torch.ops.aten._to_copy.default(primals_2, dtype = torch.bfloat16);  primals_2 = None
        convolution = torch.ops.aten.convolution.default(_to_copy_1, _to_copy, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        add = torch.ops.aten.add.Tensor(primals_3, 1);  primals_3 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, primals_6, primals_7, primals_4, primals_5, True, 0.1, 1e-05);  primals_7 = primals_4 = primals_5 = None
        getitem = _native_batch_norm_legit_functional[0]
        getitem_1 = _native_batch_norm_legit_functional[1]
        getitem_2 = _native_batch_norm_legit_functional[2]
        getitem_3 = _native_batch_norm_legit_functional[3]
        getitem_4 = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        native_group_norm = torch.ops.aten.native_group_norm.default(getitem, primals_8, primals_9, 2, 8, 16, 2, 1e-05);  primals_9 = None
        getitem_5 = native_group_norm[0]
        getitem_6 = native_group_norm[1]
        getitem_7 = native_group_norm[2];  native_group_norm = None
        alias = torch.ops.aten.alias.default(getitem_6);  getitem_6 = None
        alias_1 = torch.ops.aten.alias.default(getitem_7);  getitem_7 = None
        view = torch.ops.aten.view.default(getitem_5, [2, 8, 16]);  getitem_5 = None
        transpose = torch.ops.aten.transpose.int(view, 1, 2);  view = None
        _to_copy_2 = torch.ops.aten._to_copy.default(primals_11, dtype = torch.bfloat16);  primals_11 = None
        _to_copy_3 = torch.ops.aten._to_copy.default(primals_10, dtype = torch.bfloat16);  primals_10 = None
        t = torch.ops.aten.t.default(_to_copy_3);  _to_copy_3 = None
        clone = torch.ops.aten.clone.default(transpose, memory_format = torch.contiguous_format);  transpose = None
        _unsafe_view = torch.ops.aten._unsafe_view.default(clone, [32, 8]);  clone = None
        mm = torch.ops.aten.mm.default(_unsafe_view, t)
        _unsafe_view_1 = torch.ops.aten._unsafe_view.default(mm, [2, 16, 8]);  mm = None
        add_1 = torch.ops.aten.add.Tensor(_unsafe_view_1, _to_copy_2);  _unsafe_view_1 = _to_copy_2 = None
        native_layer_norm = torch.ops.aten.native_layer_norm.default(add_1, [8], primals_12, primals_13, 1e-05)
        getitem_8 = native_layer_norm[0]
        getitem_9 = native_layer_norm[1]
        getitem_10 = native_layer_norm[2];  native_layer_norm = None
        _to_copy_4 = torch.ops.aten._to_copy.default(getitem_8, dtype = torch.float32);  getitem_8 = None
        _to_copy_5 = torch.ops.aten._to_copy.default(tangents_1, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'));  tangents_1 = None
        native_layer_norm_backward = torch.ops.aten.native_layer_norm_backward.default(_to_copy_5, add_1, [8], getitem_9, getitem_10, primals_12, primals_13, [True, True, True]);  _to_copy_5 = add_1 = getitem_9 = getitem_10 = primals_12 = primals_13 = None
        getitem_11 = native_layer_norm_backward[0]
        getitem_12 = native_layer_norm_backward[1]
        getitem_13 = native_layer_norm_backward[2];  native_layer_norm_backward = None
        sum_1 = torch.ops.aten.sum.dim_IntList(getitem_11, [0, 1], True)
        view_1 = torch.ops.aten.view.default(sum_1, [8]);  sum_1 = None
        view_2 = torch.ops.aten.view.default(getitem_11, [32, 8]);  getitem_11 = None
        t_1 = torch.ops.aten.t.default(view_2)
        mm_1 = torch.ops.aten.mm.default(t_1, _unsafe_view);  t_1 = _unsafe_view = None
        t_2 = torch.ops.aten.t.default(mm_1);  mm_1 = None
        t_3 = torch.ops.aten.t.default(t);  t = None
        mm_2 = torch.ops.aten.mm.default(view_2, t_3);  view_2 = t_3 = None
        view_3 = torch.ops.aten.view.default(mm_2, [2, 16, 8]);  mm_2 = None
        t_4 = torch.ops.aten.t.default(t_2);  t_2 = None
        _to_copy_6 = torch.ops.aten._to_copy.default(t_4, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  t_4 = None
        _to_copy_7 = torch.ops.aten._to_copy.default(view_1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  view_1 = None
        transpose_1 = torch.ops.aten.transpose.int(view_3, 1, 2);  view_3 = None
        view_4 = torch.ops.aten.view.default(transpose_1, [2, 8, 4, 4]);  transpose_1 = None
        alias_2 = torch.ops.aten.alias.default(alias);  alias = None
        alias_3 = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        clone_1 = torch.ops.aten.clone.default(view_4, memory_format = torch.contiguous_format);  view_4 = None
        native_group_norm_backward = torch.ops.aten.native_group_norm_backward.default(clone_1, getitem, alias_2, alias_3, primals_8, 2, 8, 16, 2, [True, True, True]);  clone_1 = getitem = alias_2 = alias_3 = primals_8 = None
        getitem_14 = native_group_norm_backward[0]
        getitem_15 = native_group_norm_backward[1]
        getitem_16 = native_group_norm_backward[2];  native_group_norm_backward = None
        _to_copy_8 = torch.ops.aten._to_copy.default(getitem_14, dtype = torch.bfloat16);  getitem_14 = None
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(_to_copy_8, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  _to_copy_8 = convolution = primals_6 = getitem_1 = getitem_2 = None
        getitem_17 = native_batch_norm_backward[0]
        getitem_18 = native_batch_norm_backward[1]
        getitem_19 = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_17, _to_copy_1, _to_copy, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_17 = _to_copy_1 = _to_copy = None
        getitem_21 = convolution_backward[1];  convolution_backward = None
        _to_copy_9 = torch.ops.aten._to_copy.default(getitem_21, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  getitem_21 = None
        return [add, getitem_3, getitem_4, _to_copy_4, _to_copy_9, None, None, None, None, getitem_18, getitem_19, getitem_15, getitem_16, _to_copy_6, _to_copy_7, getitem_12, getitem_13]

