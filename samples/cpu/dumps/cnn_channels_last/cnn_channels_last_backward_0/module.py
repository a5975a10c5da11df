
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/cnn_channels_last/cnn_channels_last_backward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_6, convolution, getitem_1, getitem_2, getitem_3, getitem_4, relu, alias, getitem_6, _unsafe_view, t, tangents_1):
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
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(where, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  where = convolution = primals_6 = getitem_3 = getitem_4 = getitem_1 = getitem_2 = None
        getitem_7 = native_batch_norm_backward[0]
        getitem_8 = native_batch_norm_backward[1]
        getitem_9 = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_7, primals_2, primals_1, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_7 = primals_2 = primals_1 = None
        getitem_11 = convolution_backward[1];  convolution_backward = None
        return (getitem_11, None, None, None, None, getitem_8, getitem_9, t_4, view)

