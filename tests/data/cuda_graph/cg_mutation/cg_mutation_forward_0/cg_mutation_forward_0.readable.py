class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16][1]cpu", arg1_1: "f32[8, 16][16, 1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:40 in mutation, code: running.mul_(0.9).add_(x.mean(0), alpha=0.1)
        mul: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 0.9)
        mean: "f32[16][1]cpu" = torch.ops.aten.mean.dim(arg1_1, [0])
        mul_1: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(mean, 0.1);  mean = None
        add: "f32[16][1]cpu" = torch.ops.aten.add.Tensor(mul, mul_1);  mul = mul_1 = None

        # File: tools/capture/cuda_graph_samples.py:41 in mutation, code: return x - running
        sub: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sub.Tensor(arg1_1, add);  arg1_1 = None

        # File: tools/capture/cuda_graph_samples.py:40 in mutation, code: running.mul_(0.9).add_(x.mean(0), alpha=0.1)
        copy_: "f32[16][1]cpu" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        return (sub,)
