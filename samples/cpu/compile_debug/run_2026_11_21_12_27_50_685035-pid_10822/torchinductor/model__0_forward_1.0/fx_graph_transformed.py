class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[64, 32]", primals_2: "f32[64]", primals_3: "Sym(s77)", primals_4: "f32[s77, 32]", primals_5: "f32[10, 64]", primals_6: "f32[10]"):
        # File: tools/capture/make_samples.py:58 in forward, code: return self.fc2(F.relu(self.fc1(x)))
        permute: "f32[32, 64]" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        addmm: "f32[s77, 64]" = torch.ops.aten.addmm.default(primals_2, primals_4, permute);  primals_2 = permute = None
        relu: "f32[s77, 64]" = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1: "f32[64, 10]" = torch.ops.aten.permute.default(primals_5, [1, 0])
        addmm_1: "f32[s77, 10]" = torch.ops.aten.addmm.default(primals_6, relu, permute_1);  primals_6 = permute_1 = None
        return (addmm_1, primals_4, primals_5, relu, primals_3)
