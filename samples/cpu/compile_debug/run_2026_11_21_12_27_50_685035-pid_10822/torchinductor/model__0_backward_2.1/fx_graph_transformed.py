class GraphModule(torch.nn.Module):
    def forward(self, primals_3: "Sym(s77)", primals_4: "f32[s77, 32]", primals_5: "f32[10, 64]", relu: "f32[s77, 64]", tangents_1: "f32[s77, 10]"):
        # File: tools/capture/make_samples.py:58 in forward, code: return self.fc2(F.relu(self.fc1(x)))
        permute_1: "f32[64, 10]" = torch.ops.aten.permute.default(primals_5, [1, 0]);  primals_5 = None
        permute_2: "f32[10, 64]" = torch.ops.aten.permute.default(permute_1, [1, 0]);  permute_1 = None
        mm: "f32[s77, 64]" = torch.ops.aten.mm.default(tangents_1, permute_2);  permute_2 = None
        permute_3: "f32[10, s77]" = torch.ops.aten.permute.default(tangents_1, [1, 0])
        mm_1: "f32[10, 64]" = torch.ops.aten.mm.default(permute_3, relu);  permute_3 = None
        sum_1: "f32[1, 10]" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[10]" = torch.ops.aten.reshape.default(sum_1, [10]);  sum_1 = None
        le: "b8[s77, 64]" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        full_default: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where: "f32[s77, 64]" = torch.ops.aten.where.self(le, full_default, mm);  le = full_default = mm = None
        permute_6: "f32[64, s77]" = torch.ops.aten.permute.default(where, [1, 0])
        mm_2: "f32[64, 32]" = torch.ops.aten.mm.default(permute_6, primals_4);  permute_6 = primals_4 = None
        sum_2: "f32[1, 64]" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1: "f32[64]" = torch.ops.aten.reshape.default(sum_2, [64]);  sum_2 = None
        return (mm_2, view_1, None, None, mm_1, view)
