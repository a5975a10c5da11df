class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu"):
        # File: tools/capture/cuda_graph_samples.py:45 in nonzero, code: return x[x > 0].sum().reshape(1) + x.mean()
        gt: "b8[8, 16][16, 1]cpu" = torch.ops.aten.gt.Scalar(arg0_1, 0)
        index: "f32[u0][1]cpu" = torch.ops.aten.index.Tensor(arg0_1, [gt]);  gt = None
        sym_size_int: "Sym(u0)" = torch.ops.aten.sym_size.int(index, 0)
        ge: "Sym(u0 >= 0)" = sym_size_int >= 0
        _assert_scalar = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u0 >= 0 on node 'ge'");  ge = _assert_scalar = None
        le: "Sym(u0 <= 128)" = sym_size_int <= 128;  sym_size_int = None
        _assert_scalar_1 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for expression u0 <= 128 on node 'le'");  le = _assert_scalar_1 = None
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(index);  index = None
        view: "f32[1][1]cpu" = torch.ops.aten.view.default(sum_1, [1]);  sum_1 = None
        mean: "f32[][]cpu" = torch.ops.aten.mean.default(arg0_1);  arg0_1 = None
        add_2: "f32[1][1]cpu" = torch.ops.aten.add.Tensor(view, mean);  view = mean = None
        return (add_2,)
