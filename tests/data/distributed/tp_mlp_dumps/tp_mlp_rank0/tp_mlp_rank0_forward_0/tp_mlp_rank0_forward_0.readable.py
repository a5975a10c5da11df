class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 16][16, 1]cpu", primals_2: "f32[16, 16][16, 1]cpu", primals_3: "f32[16][1]cpu", primals_4: "f32[16, 16][16, 1]cpu", primals_5: "f32[16][1]cpu"):
        # File: torch/distributed/tensor/parallel/style.py:107 in _prepare_input_fn, code: input_tensor = DTensor.from_local(
        view: "f32[4, 16][16, 1]cpu" = torch.ops.aten.view.default(primals_1, [4, 16]);  primals_1 = None

        # No stacktrace found for following nodes
        t: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(primals_2);  primals_2 = None
        addmm: "f32[4, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_3, view, t);  primals_3 = t = None

        # File: torch/distributed/tensor/parallel/style.py:148 in _prepare_output_fn, code: return outputs.to_local() if use_local_output else outputs
        view_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.view.default(addmm, [4, 16]);  addmm = None

        # No stacktrace found for following nodes
        relu: "f32[4, 16][16, 1]cpu" = torch.ops.aten.relu.default(view_1);  view_1 = None
        alias: "f32[4, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu)

        # File: torch/distributed/tensor/parallel/style.py:232 in _prepare_input_fn, code: input_tensor = DTensor.from_local(
        view_2: "f32[4, 16][16, 1]cpu" = torch.ops.aten.view.default(relu, [4, 16]);  relu = None

        # No stacktrace found for following nodes
        t_1: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(primals_4);  primals_4 = None
        div: "f32[16][1]cpu" = torch.ops.aten.div.Tensor(primals_5, 2);  primals_5 = None
        addmm_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.addmm.default(div, view_2, t_1);  div = None

        # recompute: MUST_SAVE File: torch/distributed/tensor/parallel/style.py:290 in _prepare_output_fn, code: outputs = outputs.redistribute(placements=output_layouts, async_op=True)
        all_reduce: "f32[4, 16][16, 1]cpu" = torch.ops._c10d_functional.all_reduce.default(addmm_1, 'sum', '0');  addmm_1 = None
        wait_tensor: "f32[4, 16][16, 1]cpu" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None

        # File: torch/distributed/tensor/parallel/style.py:292 in _prepare_output_fn, code: return outputs.to_local() if use_local_output else outputs
        view_3: "f32[4, 16][16, 1]cpu" = torch.ops.aten.view.default(wait_tensor, [4, 16]);  wait_tensor = None
        return (view_3, view, alias, view_2, t_1)
