class GraphModule(torch.nn.Module):
    def forward(self, L_hidden_states_: "f32[2, 12, 8][96, 8, 1]cpu", L_stack0_: "b8[2, 12][12, 1]cpu", L_self_parameters_masked_spec_embed_: "f32[8][1]cpu", L_self_modules_proj_parameters_weight_: "f32[8, 8][8, 1]cpu", L_self_modules_proj_parameters_bias_: "f32[8][1]cpu"):
        l_hidden_states_ = L_hidden_states_
        l_stack0_ = L_stack0_
        l_self_parameters_masked_spec_embed_ = L_self_parameters_masked_spec_embed_
        l_self_modules_proj_parameters_weight_ = L_self_modules_proj_parameters_weight_
        l_self_modules_proj_parameters_bias_ = L_self_modules_proj_parameters_bias_

        # File: /work/wt-specaug/tests/data/numpy_random/make_numpy_random.py:55 in torch_dynamo_resume_in_forward_at_54, code: mask = torch.tensor(mask, device=hidden_states.device, dtype=torch.bool)
        mask: "b8[2, 12][12, 1]cpu" = torch.tensor(l_stack0_, device = device(type='cpu'), dtype = torch.bool);  l_stack0_ = None

        # File: /work/wt-specaug/tests/data/numpy_random/make_numpy_random.py:56 in torch_dynamo_resume_in_forward_at_54, code: hidden_states[mask] = self.masked_spec_embed.to(hidden_states.dtype)
        to: "f32[8][1]cpu" = l_self_parameters_masked_spec_embed_.to(torch.float32);  l_self_parameters_masked_spec_embed_ = None
        l_hidden_states_[mask] = to;  setitem = l_hidden_states_;  mask = to = setitem = None

        # File: /work/wt-specaug/tests/data/numpy_random/make_numpy_random.py:57 in torch_dynamo_resume_in_forward_at_54, code: return self.proj(hidden_states)
        linear: "f32[2, 12, 8][96, 8, 1]cpu" = torch._C._nn.linear(l_hidden_states_, l_self_modules_proj_parameters_weight_, l_self_modules_proj_parameters_bias_);  l_hidden_states_ = l_self_modules_proj_parameters_weight_ = l_self_modules_proj_parameters_bias_ = None
        return (linear,)
