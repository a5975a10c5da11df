
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/cnn_channels_last/cnn_channels_last_joint_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, tangents_1):
        convolution = torch.ops.aten.convolution.default(primals_2, primals_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        add = torch.ops.aten.add.Tensor(primals_3, 1);  primals_3 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, primals_6, primals_7, primals_4, primals_5, True, 0.1, 1e-05);  primals_7 = primals_4 = primals_5 = None
        getitem = _native_batch_norm_legit_functional[0]
        getitem_1 = _native_batch_norm_legit_functional[1]
        getitem_2 = _native_batch_norm_legit_functional[2]
        getitem_3 = _native_batch_norm_legit_functional[3]
        getitem_4 = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        relu = torch.ops.aten.relu.default(getitem);  getitem = None
        alias = torch.ops.aten.alias.default(relu)
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu, [2, 2])
        getitem_5 = max_pool2d_with_indices[0]
        getitem_6 = max_pool2d_with_indices[1];  max_pool2d_with_indices = None
        clone = torch.ops.aten.clone.default(getitem_5, memory_format = torch.contiguous_format);  getitem_5 = None
        _unsafe_view = torch.ops.aten._unsafe_view.default(clone, [2, 128]);  clone = None
        t = torch.ops.aten.t.default(primals_8);  primals_8 = None
        addmm = torch.ops.aten.addmm.default(primals_9, _unsafe_view, t);  primals_9 = None
        t_1 = torch.ops.aten.t.default(t);  t = None
        mm = torch.ops.aten.mm.default(tangents_1, t_1);  t_1 = None
        t_2 = torch.ops.aten.t.default(tangents_1)
        mm_1 = torch.ops.aten.mm.default(t_2, _unsafe_view);  t_2 = _unsafe_view = None
        t_3 = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view = torch.ops.aten.view.default(sum_1, [10]);  sum_1 = None
        t_4 = torch.ops.aten.t.default(t_3);  t_3 = None
        view_1 = torch.ops.aten.view.default(mm, [2, 8, 4, 4]);  mm = None
        max_pool2d_with_indices_backward = torch.ops.aten.max_pool2d_with_indices_backward.default(view_1, relu, [2, 2], [], [0, 0], [1, 1], False, getitem_6);  view_1 = relu = getitem_6 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        le = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where = torch.ops.aten.where.self(le, scalar_tensor, max_pool2d_with_indices_backward);  le = scalar_tensor = max_pool2d_with_indices_backward = None
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(where, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  where = convolution = primals_6 = getitem_1 = getitem_2 = None
        getitem_7 = native_batch_norm_backward[0]
        getitem_8 = native_batch_norm_backward[1]
        getitem_9 = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_7, primals_2, primals_1, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_7 = primals_2 = primals_1 = None
        getitem_11 = convolution_backward[1];  convolution_backward = None
        return [add, getitem_3, getitem_4, addmm, getitem_11, None, None, None, None, getitem_8, getitem_9, t_4, view]

