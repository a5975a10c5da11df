class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[64][1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:61 in rare_nan, code: return torch.log(torch.rand_like(x) - 0.0008) + x
        rand_like: "f32[64][1]cpu" = torch.ops.aten.rand_like.default(arg0_1, pin_memory = False)
        sub: "f32[64][1]cpu" = torch.ops.aten.sub.Tensor(rand_like, 0.0008);  rand_like = None
        log: "f32[64][1]cpu" = torch.ops.aten.log.default(sub);  sub = None
        add: "f32[64][1]cpu" = torch.ops.aten.add.Tensor(log, arg0_1);  log = arg0_1 = None
        return (add,)
