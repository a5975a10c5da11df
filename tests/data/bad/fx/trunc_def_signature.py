class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[64, 32][32, 1]cpu", primals_2: "f32[64][1]cpu", primals_3: "Sym(s77)", 