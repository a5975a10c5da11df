
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
        self.load_state_dict(torch.load(r'/work/main/tests/data/mixed_norms/autocast_norms/autocast_norms_backward_0/state_dict.pt'))



    def forward(self, primals_6, primals_8, primals_12, primals_13, _to_copy, _to_copy_1, convolution, getitem, getitem_1, getitem_2, getitem_3, getitem_4, alias, alias_1, t, _unsafe_view, add_1, getitem_9, getitem_10, tangents_1):
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
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(_to_copy_8, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  _to_copy_8 = convolution = primals_6 = getitem_3 = getitem_4 = getitem_1 = getitem_2 = None
        getitem_17 = native_batch_norm_backward[0]
        getitem_18 = native_batch_norm_backward[1]
        getitem_19 = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_17, _to_copy_1, _to_copy, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_17 = _to_copy_1 = _to_copy = None
        getitem_21 = convolution_backward[1];  convolution_backward = None
        _to_copy_9 = torch.ops.aten._to_copy.default(getitem_21, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  getitem_21 = None
        return (_to_copy_9, None, None, None, None, getitem_18, getitem_19, getitem_15, getitem_16, _to_copy_6, _to_copy_7, getitem_12, getitem_13)

