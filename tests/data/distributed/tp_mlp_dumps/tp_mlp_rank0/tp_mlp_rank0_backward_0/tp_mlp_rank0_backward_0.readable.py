class GraphModule(torch.nn.Module):
    def forward(self, view: "f32[4, 16][16, 1]cpu", alias: "f32[4, 16][16, 1]cpu", view_2: "f32[4, 16][16, 1]cpu", t_1: "f32[16, 16][1, 16]cpu", tangents_1: "f32[4, 16][16, 1]cpu"):
        # No stacktrace found for following nodes
        t_3: "f32[16, 16][16, 1]cpu" = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.mm.default(tangents_1, t_3);  t_3 = None
        t_5: "f32[16, 4][1, 16]cpu" = torch.ops.aten.t.default(tangents_1)
        mm_3: "f32[16, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_5, view_2);  t_5 = view_2 = None
        t_6: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(mm_3);  mm_3 = None
        sum_2: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view_5: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_2, [16]);  sum_2 = None
        t_7: "f32[16, 16][16, 1]cpu" = torch.ops.aten.t.default(t_6);  t_6 = None
        alias_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        le: "b8[4, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[4, 16][16, 1]cpu" = torch.ops.aten.where.self(le, scalar_tensor, mm_1);  le = scalar_tensor = mm_1 = None
        t_9: "f32[16, 4][1, 16]cpu" = torch.ops.aten.t.default(where)
        mm_5: "f32[16, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_9, view);  t_9 = view = None
        t_10: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(mm_5);  mm_5 = None
        sum_4: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_7: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_4, [16]);  sum_4 = None
        t_12: "f32[16, 16][16, 1]cpu" = torch.ops.aten.t.default(t_10);  t_10 = None
        return (None, t_12, view_7, t_7, view_5)
