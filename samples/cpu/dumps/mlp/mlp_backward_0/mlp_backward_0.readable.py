class GraphModule(torch.nn.Module):
    def forward(self, primals_3: "Sym(s77)", primals_4: "f32[s77, 32][32, 1]cpu", relu: "f32[s77, 64][64, 1]cpu", alias: "f32[s77, 64][64, 1]cpu", t_1: "f32[64, 10][1, 64]cpu", tangents_1: "f32[s77, 10][10, 1]cpu"):
        # File: tools/capture/make_samples.py:58 in forward, code: return self.fc2(F.relu(self.fc1(x)))
        t_2: "f32[10, 64][64, 1]cpu" = torch.ops.aten.t.default(t_1);  t_1 = None
        mm: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.mm.default(tangents_1, t_2);  t_2 = None
        t_3: "f32[10, s77][1, 10]cpu" = torch.ops.aten.t.default(tangents_1)
        mm_1: "f32[10, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_3, relu);  t_3 = relu = None
        t_4: "f32[64, 10][1, 64]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1: "f32[1, 10][10, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[10][1]cpu" = torch.ops.aten.view.default(sum_1, [10]);  sum_1 = None
        t_5: "f32[10, 64][64, 1]cpu" = torch.ops.aten.t.default(t_4);  t_4 = None
        alias_1: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        le: "b8[s77, 64][64, 1]cpu" = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.where.self(le, scalar_tensor, mm);  le = scalar_tensor = mm = None
        t_6: "f32[64, s77][1, 64]cpu" = torch.ops.aten.t.default(where)
        mm_2: "f32[64, 32][32, 1]cpu" = torch.ops.aten.mm.default(t_6, primals_4);  t_6 = primals_4 = None
        t_7: "f32[32, 64][1, 32]cpu" = torch.ops.aten.t.default(mm_2);  mm_2 = None
        sum_2: "f32[1, 64][64, 1]cpu" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_2, [64]);  sum_2 = None
        t_8: "f32[64, 32][32, 1]cpu" = torch.ops.aten.t.default(t_7);  t_7 = None
        return (t_8, view_1, None, None, t_5, view)
