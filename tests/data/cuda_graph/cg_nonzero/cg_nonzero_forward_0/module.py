
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
        self.load_state_dict(torch.load(r'tests/data/cuda_graph/cg_nonzero/cg_nonzero_forward_0/state_dict.pt'))



    def forward(self, arg0_1):
        gt = torch.ops.aten.gt.Scalar(arg0_1, 0)
        index = torch.ops.aten.index.Tensor(arg0_1, [gt]);  gt = None
        sym_size_int = torch.ops.aten.sym_size.int(index, 0)
        ge = sym_size_int >= 0
        _assert_scalar = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u0 >= 0 on node 'ge'");  ge = _assert_scalar = None
        le = sym_size_int <= 128;  sym_size_int = None
        _assert_scalar_1 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for expression u0 <= 128 on node 'le'");  le = _assert_scalar_1 = None
        sum_1 = torch.ops.aten.sum.default(index);  index = None
        view = torch.ops.aten.view.default(sum_1, [1]);  sum_1 = None
        mean = torch.ops.aten.mean.default(arg0_1);  arg0_1 = None
        add_2 = torch.ops.aten.add.Tensor(view, mean);  view = mean = None
        return (add_2,)

