class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu", arg1_1: "f32[8][1]cpu", arg2_1: "f32[4, 16][16, 1]cpu"):
        # File: /work/wt-sweep/tests/data/sweep/make_sweep.py:39 in forward, code: e = torch.exp(self.fc(x) / self.temperature)
        t: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(arg0_1);  arg0_1 = None
        addmm: "f32[4, 8][8, 1]cpu" = torch.ops.aten.addmm.default(arg1_1, arg2_1, t);  arg1_1 = arg2_1 = t = None
        div: "f32[4, 8][8, 1]cpu" = torch.ops.aten.div.Tensor(addmm, 0.054);  addmm = None
        exp: "f32[4, 8][8, 1]cpu" = torch.ops.aten.exp.default(div);  div = None

        # File: /work/wt-sweep/tests/data/sweep/make_sweep.py:40 in forward, code: return e / e.sum(-1, keepdim=True)
        sum_1: "f32[4, 1][1, 1]cpu" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div_1: "f32[4, 8][8, 1]cpu" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (div_1,)
