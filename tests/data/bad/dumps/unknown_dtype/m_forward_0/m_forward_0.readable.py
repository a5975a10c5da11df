class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "q7[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(primals_1)
        return (relu,)
