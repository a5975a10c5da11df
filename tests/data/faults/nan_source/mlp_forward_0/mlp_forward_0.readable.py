class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[128, 64][64, 1]cuda:0", primals_2: "f32[128][1]cuda:0", primals_3: "f32[32, 64][64, 1]cuda:0", primals_4: "f32[10, 128][128, 1]cuda:0", primals_5: "f32[10][1]cuda:0"):
        # File: /src/lab/gen_dumps.py:36 in forward, code: def forward(s, x): return s.b(F.relu(s.a(x)))
        t: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm: "f32[32, 128][128, 1]cuda:0" = torch.ops.aten.addmm.default(primals_2, primals_3, t);  primals_2 = t = None
        relu: "f32[32, 128][128, 1]cuda:0" = torch.ops.aten.log.default(addmm);  addmm = None
        alias: "f32[32, 128][128, 1]cuda:0" = torch.ops.aten.alias.default(relu)
        t_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.t.default(primals_4);  primals_4 = None
        addmm_1: "f32[32, 10][10, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, t_1);  primals_5 = None
        return (addmm_1, primals_3, relu, alias, t_1)
