class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 8][8, 1]cpu", arg1_1: "i64[64][1]cpu", arg2_1: "f32[64, 8][8, 1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:54 in index_add, code: return x.index_add(0, idx, src) * 2
        index_add: "f32[32, 8][8, 1]cpu" = torch.ops.aten.index_add.default(arg0_1, 0, arg1_1, arg2_1);  arg0_1 = arg1_1 = arg2_1 = None
        mul: "f32[32, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(index_add, 2);  index_add = None
        return (mul,)
