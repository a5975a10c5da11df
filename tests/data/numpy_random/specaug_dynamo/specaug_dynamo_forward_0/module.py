
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
        self.load_state_dict(torch.load(r'/work/wt-specaug/tests/data/numpy_random/specaug_dynamo/specaug_dynamo_forward_0/state_dict.pt'))



    def forward(self):
        wrapped_rand = torch__dynamo_utils_wrapped_rand(1)
        return (wrapped_rand,)

