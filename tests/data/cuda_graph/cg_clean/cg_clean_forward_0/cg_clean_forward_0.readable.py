class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu", arg1_1: "f32[16, 32][32, 1]cpu", arg2_1: "f32[32][1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:35 in clean, code: return torch.softmax(torch.relu(x @ w + b), dim=-1)
        mm: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mm.default(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
        add: "f32[8, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(mm, arg2_1);  mm = arg2_1 = None
        relu: "f32[8, 32][32, 1]cpu" = torch.ops.aten.relu.default(add);  add = None
        _softmax: "f32[8, 32][32, 1]cpu" = torch.ops.aten._softmax.default(relu, -1, False);  relu = None
        return (_softmax,)
