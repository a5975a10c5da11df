
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
        self.load_state_dict(torch.load(r'/work/wt-specaug/tests/data/numpy_random/specaug_dynamo/specaug_dynamo_forward_1/state_dict.pt'))



    def forward(self, L_hidden_states_ : torch.Tensor, L_stack0_ : torch.Tensor, L_self_parameters_masked_spec_embed_ : torch.nn.parameter.Parameter, L_self_modules_proj_parameters_weight_ : torch.nn.parameter.Parameter, L_self_modules_proj_parameters_bias_ : torch.nn.parameter.Parameter):
        l_hidden_states_ = L_hidden_states_
        l_stack0_ = L_stack0_
        l_self_parameters_masked_spec_embed_ = L_self_parameters_masked_spec_embed_
        l_self_modules_proj_parameters_weight_ = L_self_modules_proj_parameters_weight_
        l_self_modules_proj_parameters_bias_ = L_self_modules_proj_parameters_bias_
        mask = torch.tensor(l_stack0_, device = device(type='cpu'), dtype = torch.bool);  l_stack0_ = None
        to = l_self_parameters_masked_spec_embed_.to(torch.float32);  l_self_parameters_masked_spec_embed_ = None
        l_hidden_states_[mask] = to;  setitem = l_hidden_states_;  mask = to = setitem = None
        linear = torch._C._nn.linear(l_hidden_states_, l_self_modules_proj_parameters_weight_, l_self_modules_proj_parameters_bias_);  l_hidden_states_ = l_self_modules_proj_parameters_weight_ = l_self_modules_proj_parameters_bias_ = None
        return (linear,)

