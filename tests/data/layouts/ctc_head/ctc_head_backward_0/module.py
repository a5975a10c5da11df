
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
        self.load_state_dict(torch.load(r'/work/wt-gaps21/tests/data/layouts/ctc_head/ctc_head_backward_0/state_dict.pt'))



    def forward(self, alias, tangents_1):
        transpose_1 = torch.ops.aten.transpose.int(tangents_1, 0, 1);  tangents_1 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        _log_softmax_backward_data = torch.ops.aten._log_softmax_backward_data.default(transpose_1, alias_1, -1, torch.float32);  transpose_1 = alias_1 = None
        return (_log_softmax_backward_data,)

