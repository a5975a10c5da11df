class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[64, 32][32, 1]cpu",  # PlainAOTInput(idx=0)
        primals_2: "f32[64][1]cpu",  # PlainAOTInput(idx=1)
        primals_3: "Sym(s77)",  # PlainAOTInput(idx=2)
        primals_4: "f32[s77, 32][32, 1]cpu",  # PlainAOTInput(idx=3)
