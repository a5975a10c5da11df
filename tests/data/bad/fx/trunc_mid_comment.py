class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[64, 32][32, 1]cpu", primals_2: "f32[64][1]cpu", primals_3: "Sym(s77)", primals_4: "f32[s77, 32][32, 1]cpu", primals_5: "f32[10, 64][64, 1]cpu", primals_6: "f32[10][1]cpu"):
        # File: tools/capture/make_samples.py:58 in forward, 