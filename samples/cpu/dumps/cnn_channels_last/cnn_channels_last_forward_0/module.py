
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/cnn_channels_last/cnn_channels_last_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9):
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
        return (add, getitem_3, getitem_4, addmm, primals_1, primals_2, primals_6, convolution, getitem_1, getitem_2, getitem_3, getitem_4, relu, alias, getitem_6, _unsafe_view, t)

