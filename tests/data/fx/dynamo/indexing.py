class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 32][32, 1]cpu"):
        l_x_ = L_x_

        # File: tools/capture/dynamo_grammar_samples.py:55 in indexing, code: return x[..., :16], x[None, 1:, ...], x[:, None, 3]
        getitem: "f32[4, 16][32, 1]cpu" = l_x_[(Ellipsis, slice(None, 16, None))]
        getitem_1: "f32[1, 3, 32][128, 32, 1]cpu" = l_x_[(None, slice(1, None, None), Ellipsis)]
        getitem_2: "f32[4, 1][32, 32]cpu" = l_x_[(slice(None, None, None), None, 3)];  l_x_ = None
        return (getitem, getitem_1, getitem_2)
