class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[4, 16][16, 1]cpu"; primals_2: "f32[16, 16][16, 1]cpu"; primals_3: "f32[16][1]cpu"; primals_4: "f32[16, 16][16, 1]cpu"; primals_5: "f32[16][1]cpu"; tangents_1: "f32[4, 16][16, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
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

        # File: torch/distributed/tensor/parallel/style.py:290 in _prepare_output_fn, code: outputs = outputs.redistribute(placements=output_layouts, async_op=True)
        all_reduce: "f32[4, 16][16, 1]cpu" = torch.ops._c10d_functional.all_reduce.default(addmm_1, 'sum', '0');  addmm_1 = None
        wait_tensor: "f32[4, 16][16, 1]cpu" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None

        # File: torch/distributed/tensor/parallel/style.py:292 in _prepare_output_fn, code: return outputs.to_local() if use_local_output else outputs
        view_3: "f32[4, 16][16, 1]cpu" = torch.ops.aten.view.default(wait_tensor, [4, 16]);  wait_tensor = None

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
        return pytree.tree_unflatten([view_3, None, t_12, view_7, t_7, view_5], self._out_spec)
