class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_

        # File: tools/capture/dynamo_grammar_samples.py:88 in checkpoint, code: return torch.utils.checkpoint.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
        wrap_body_0 = self.wrap_body_0
        tag_activation_checkpoint = torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, l_x_, use_reentrant = False);  wrap_body_0 = l_x_ = None
        getitem: "f32[4][1]cpu" = tag_activation_checkpoint[0];  tag_activation_checkpoint = None
        return (getitem,)

    class wrap_body_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4][1]cpu"):
            # File: tools/capture/dynamo_grammar_samples.py:88 in <lambda>, code: return torch.utils.checkpoint.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
            sin: "f32[4][1]cpu" = l_x_.sin();  l_x_ = None
            cos: "f32[4][1]cpu" = sin.cos();  sin = None
            return (cos,)
