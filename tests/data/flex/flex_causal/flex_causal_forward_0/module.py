
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
        setattr(self, 'sdpa_score0', torch.load(r'/work/wt-gaps21/tests/data/flex/flex_causal/flex_causal_forward_0/sdpa_score0.pt', weights_only=False)) # <lambda>()
        setattr(self, 'sdpa_mask0', torch.load(r'/work/wt-gaps21/tests/data/flex/flex_causal/flex_causal_forward_0/sdpa_mask0.pt', weights_only=False)) # <lambda>()
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/flex/flex_causal/flex_causal_forward_0/state_dict.pt'))



    def forward(self, arg0_1, arg1_1, arg2_1):
        arange_2 = torch.ops.aten.arange.start(0, 16, device = device(type='cpu'), pin_memory = False)
        arange_3 = torch.ops.aten.arange.start(0, 16, device = device(type='cpu'), pin_memory = False)
        view = torch.ops.aten.view.default(arange_2, [16, 1]);  arange_2 = None
        le = torch.ops.aten.le.Tensor(arange_3, view);  arange_3 = view = None
        expand = torch.ops.aten.expand.default(le, [1, 16, 16]);  le = None
        expand_1 = torch.ops.aten.expand.default(expand, [1, 1, 16, 16]);  expand = None
        constant_pad_nd = torch.ops.aten.constant_pad_nd.default(expand_1, [0, 112, 0, 112], 0.0);  expand_1 = None
        view_1 = torch.ops.aten.view.default(constant_pad_nd, [1, 1, 1, 128, 1, 128]);  constant_pad_nd = None
        permute = torch.ops.aten.permute.default(view_1, [0, 1, 2, 4, 3, 5]);  view_1 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(permute, [-2, -1]);  permute = None
        eq = torch.ops.aten.eq.Scalar(sum_1, 16384)
        gt = torch.ops.aten.gt.Scalar(sum_1, 0)
        lt = torch.ops.aten.lt.Scalar(sum_1, 16384);  sum_1 = None
        bitwise_and = torch.ops.aten.bitwise_and.Tensor(gt, lt);  gt = lt = None
        _to_copy = torch.ops.aten._to_copy.default(bitwise_and, dtype = torch.int8);  bitwise_and = None
        _to_copy_1 = torch.ops.aten._to_copy.default(eq, dtype = torch.int8);  eq = None
        _to_copy_2 = torch.ops.aten._to_copy.default(_to_copy, dtype = torch.int32);  _to_copy = None
        sum_2 = torch.ops.aten.sum.dim_IntList(_to_copy_2, [-1])
        sort = torch.ops.aten.sort.stable(_to_copy_2, stable = True, descending = True);  _to_copy_2 = None
        getitem_1 = sort[1];  sort = None
        _to_copy_3 = torch.ops.aten._to_copy.default(sum_2, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_2 = None
        _to_copy_4 = torch.ops.aten._to_copy.default(getitem_1, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_1 = None
        _to_copy_5 = torch.ops.aten._to_copy.default(_to_copy_1, dtype = torch.int32);  _to_copy_1 = None
        sum_3 = torch.ops.aten.sum.dim_IntList(_to_copy_5, [-1])
        sort_1 = torch.ops.aten.sort.stable(_to_copy_5, stable = True, descending = True);  _to_copy_5 = None
        getitem_3 = sort_1[1];  sort_1 = None
        _to_copy_6 = torch.ops.aten._to_copy.default(sum_3, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_3 = None
        _to_copy_7 = torch.ops.aten._to_copy.default(getitem_3, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_3 = None
        new_zeros = torch.ops.aten.new_zeros.default(_to_copy_4, [1, 1, 1, 2], dtype = torch.int32, pin_memory = False)
        arange_4 = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze = torch.ops.aten.unsqueeze.default(arange_4, -1);  arange_4 = None
        arange_5 = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze_1 = torch.ops.aten.unsqueeze.default(_to_copy_3, 3)
        lt_1 = torch.ops.aten.lt.Tensor(arange_5, unsqueeze_1);  arange_5 = unsqueeze_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(1, dtype = torch.int32, layout = torch.strided, device = device(type='cpu'))
        where = torch.ops.aten.where.self(lt_1, _to_copy_4, scalar_tensor);  lt_1 = scalar_tensor = None
        new_ones = torch.ops.aten.new_ones.default(new_zeros, [1, 1], pin_memory = False)
        arange_6 = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_2 = torch.ops.aten.unsqueeze.default(arange_6, -1);  arange_6 = None
        unsqueeze_3 = torch.ops.aten.unsqueeze.default(unsqueeze_2, -1);  unsqueeze_2 = None
        view_2 = torch.ops.aten.view.default(new_ones, [1, 1, 1, 1]);  new_ones = None
        arange_7 = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_4 = torch.ops.aten.unsqueeze.default(arange_7, -1);  arange_7 = None
        unsqueeze_5 = torch.ops.aten.unsqueeze.default(unsqueeze_4, -1);  unsqueeze_4 = None
        unsqueeze_6 = torch.ops.aten.unsqueeze.default(unsqueeze_5, -1);  unsqueeze_5 = None
        index_put = torch.ops.aten.index_put.default(new_zeros, [unsqueeze_6, unsqueeze_3, unsqueeze, where], view_2);  new_zeros = unsqueeze_6 = unsqueeze_3 = unsqueeze = where = view_2 = None
        slice_3 = torch.ops.aten.slice.Tensor(index_put, 3, 0, 1);  index_put = None
        transpose_1 = torch.ops.aten.transpose.int(slice_3, -2, -1);  slice_3 = None
        sum_4 = torch.ops.aten.sum.dim_IntList(transpose_1, [-1])
        sort_2 = torch.ops.aten.sort.stable(transpose_1, stable = True, descending = True);  transpose_1 = None
        getitem_5 = sort_2[1];  sort_2 = None
        _to_copy_8 = torch.ops.aten._to_copy.default(sum_4, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_4 = None
        _to_copy_9 = torch.ops.aten._to_copy.default(getitem_5, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_5 = None
        new_zeros_1 = torch.ops.aten.new_zeros.default(_to_copy_7, [1, 1, 1, 2], dtype = torch.int32, pin_memory = False)
        arange_8 = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze_7 = torch.ops.aten.unsqueeze.default(arange_8, -1);  arange_8 = None
        arange_9 = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze_8 = torch.ops.aten.unsqueeze.default(_to_copy_6, 3)
        lt_2 = torch.ops.aten.lt.Tensor(arange_9, unsqueeze_8);  arange_9 = unsqueeze_8 = None
        scalar_tensor_1 = torch.ops.aten.scalar_tensor.default(1, dtype = torch.int32, layout = torch.strided, device = device(type='cpu'))
        where_1 = torch.ops.aten.where.self(lt_2, _to_copy_7, scalar_tensor_1);  lt_2 = scalar_tensor_1 = None
        new_ones_1 = torch.ops.aten.new_ones.default(new_zeros_1, [1, 1], pin_memory = False)
        arange_10 = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_9 = torch.ops.aten.unsqueeze.default(arange_10, -1);  arange_10 = None
        unsqueeze_10 = torch.ops.aten.unsqueeze.default(unsqueeze_9, -1);  unsqueeze_9 = None
        view_3 = torch.ops.aten.view.default(new_ones_1, [1, 1, 1, 1]);  new_ones_1 = None
        arange_11 = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_11 = torch.ops.aten.unsqueeze.default(arange_11, -1);  arange_11 = None
        unsqueeze_12 = torch.ops.aten.unsqueeze.default(unsqueeze_11, -1);  unsqueeze_11 = None
        unsqueeze_13 = torch.ops.aten.unsqueeze.default(unsqueeze_12, -1);  unsqueeze_12 = None
        index_put_1 = torch.ops.aten.index_put.default(new_zeros_1, [unsqueeze_13, unsqueeze_10, unsqueeze_7, where_1], view_3);  new_zeros_1 = unsqueeze_13 = unsqueeze_10 = unsqueeze_7 = where_1 = view_3 = None
        slice_6 = torch.ops.aten.slice.Tensor(index_put_1, 3, 0, 1);  index_put_1 = None
        transpose_3 = torch.ops.aten.transpose.int(slice_6, -2, -1);  slice_6 = None
        sum_5 = torch.ops.aten.sum.dim_IntList(transpose_3, [-1])
        sort_3 = torch.ops.aten.sort.stable(transpose_3, stable = True, descending = True);  transpose_3 = None
        getitem_7 = sort_3[1];  sort_3 = None
        _to_copy_10 = torch.ops.aten._to_copy.default(sum_5, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_5 = None
        _to_copy_11 = torch.ops.aten._to_copy.default(getitem_7, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_7 = None
        sdpa_score0 = self.sdpa_score0
        sdpa_mask0 = self.sdpa_mask0
        flex_attention = torch.ops.higher_order.flex_attention(arg0_1, arg1_1, arg2_1, sdpa_score0, (16, 16, _to_copy_3, _to_copy_4, _to_copy_6, _to_copy_7, _to_copy_8, _to_copy_9, _to_copy_10, _to_copy_11, 128, 128, sdpa_mask0), 0.35355339059327373, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': False, 'OUTPUT_MAX': False}, (), ());  arg0_1 = arg1_1 = arg2_1 = sdpa_score0 = _to_copy_3 = _to_copy_4 = _to_copy_6 = _to_copy_7 = _to_copy_8 = _to_copy_9 = _to_copy_10 = _to_copy_11 = sdpa_mask0 = None
        getitem_8 = flex_attention[0];  flex_attention = None
        return (getitem_8,)

