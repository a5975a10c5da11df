class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:50 in item, code: return x * 2, x.abs().max().item()
        mul: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        abs_1: "f32[8, 16][16, 1]cpu" = torch.ops.aten.abs.default(arg0_1);  arg0_1 = None
        max_1: "f32[][]cpu" = torch.ops.aten.max.default(abs_1);  abs_1 = None
        _local_scalar_dense: "Sym(zuf0)" = torch.ops.aten._local_scalar_dense.default(max_1);  max_1 = None
        scalar_tensor: "f64[][]cpu" = torch.ops.aten.scalar_tensor.default(_local_scalar_dense, dtype = torch.float64, device = device(type='cpu'), pin_memory = False);  _local_scalar_dense = None
        return (mul, scalar_tensor)
