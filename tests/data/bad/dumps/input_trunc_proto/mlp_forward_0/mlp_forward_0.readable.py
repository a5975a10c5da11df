class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[64, 32][32, 1]cpu", primals_2: "f32[64][1]cpu", primals_3: "Sym(s77)", primals_4: "f32[s77, 32][32, 1]cpu", primals_5: "f32[10, 64][64, 1]cpu", primals_6: "f32[10][1]cpu"):
        # File: tools/capture/make_samples.py:58 in forward, code: return self.fc2(F.relu(self.fc1(x)))
        t: "f32[32, 64][1, 32]cpu" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.addmm.default(primals_2, primals_4, t);  primals_2 = t = None
        relu: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        alias: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.alias.default(relu)
        t_1: "f32[64, 10][1, 64]cpu" = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm_1: "f32[s77, 10][10, 1]cpu" = torch.ops.aten.addmm.default(primals_6, relu, t_1);  primals_6 = None
        return (addmm_1, primals_4, relu, alias, t_1, primals_3)
