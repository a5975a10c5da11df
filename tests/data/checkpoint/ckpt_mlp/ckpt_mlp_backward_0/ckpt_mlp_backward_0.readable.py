class GraphModule(torch.nn.Module):
    def forward(self, primals_3: "f32[6, 8][8, 1]cpu", primals_4: "f32[16, 16][16, 1]cpu", primals_5: "f32[16][1]cpu", addmm: "f32[6, 16][16, 1]cpu", t_2: "f32[16, 4][1, 16]cpu", rng_state_output_0: "u8[s11][1]cpu", rng_state_output_1: "u8[s11][1]cpu", tangents_1: "f32[6, 4][4, 1]cpu"):
        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        t_3: "f32[4, 16][16, 1]cpu" = torch.ops.aten.t.default(t_2);  t_2 = None
        mm: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mm.default(tangents_1, t_3);  t_3 = None
        t_4: "f32[4, 6][1, 4]cpu" = torch.ops.aten.t.default(tangents_1)

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:38 in forward, code: h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        t_1: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(primals_4);  primals_4 = None
        addmm_1: "f32[6, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_5, addmm, t_1);  primals_5 = None
        gelu: "f32[6, 16][16, 1]cpu" = torch.ops.aten.gelu.default(addmm_1)

        # No stacktrace found for following nodes
        run_with_rng_state = torch.ops.higher_order.run_with_rng_state(rng_state_output_0, torch.ops.aten.native_dropout.default, gelu, 0.25, True);  rng_state_output_0 = gelu = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:38 in forward, code: h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        getitem: "f32[6, 16][16, 1]cpu" = run_with_rng_state[0]
        getitem_1: "b8[6, 16][16, 1]cpu" = run_with_rng_state[1];  run_with_rng_state = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:39 in forward, code: keep = x.new_empty(x.shape[0], 1).bernoulli_(0.75)  # drop path, per sample
        new_empty: "f32[6, 1][1, 1]cpu" = torch.ops.aten.new_empty.default(addmm, [6, 1], pin_memory = False)

        # No stacktrace found for following nodes
        run_with_rng_state_1 = torch.ops.higher_order.run_with_rng_state(rng_state_output_1, torch.ops.aten.bernoulli.p, new_empty, 0.75);  rng_state_output_1 = new_empty = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:40 in forward, code: return x + h * keep / 0.75
        mul: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(getitem, run_with_rng_state_1);  getitem = None
        div: "f32[6, 16][16, 1]cpu" = torch.ops.aten.div.Tensor(mul, 0.75);  mul = None
        add: "f32[6, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(addmm, div);  div = None

        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        mm_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_4, add);  t_4 = add = None
        t_5: "f32[16, 4][1, 16]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1: "f32[1, 4][4, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[4][1]cpu" = torch.ops.aten.view.default(sum_1, [4]);  sum_1 = None
        t_6: "f32[4, 16][16, 1]cpu" = torch.ops.aten.t.default(t_5);  t_5 = None

        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:40 in forward, code: return x + h * keep / 0.75
        div_1: "f32[6, 16][16, 1]cpu" = torch.ops.aten.div.Tensor(mm, 0.75)
        mul_1: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(div_1, run_with_rng_state_1);  div_1 = run_with_rng_state_1 = None

        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:38 in forward, code: h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        native_dropout_backward: "f32[6, 16][16, 1]cpu" = torch.ops.aten.native_dropout_backward.default(mul_1, getitem_1, 1.3333333333333333);  mul_1 = getitem_1 = None
        mul_2: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(addmm_1, 0.7071067811865476)
        erf: "f32[6, 16][16, 1]cpu" = torch.ops.aten.erf.default(mul_2);  mul_2 = None
        add_1: "f32[6, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_3: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(add_1, 0.5);  add_1 = None
        mul_4: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(addmm_1, addmm_1)
        mul_5: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(mul_4, -0.5);  mul_4 = None
        exp: "f32[6, 16][16, 1]cpu" = torch.ops.aten.exp.default(mul_5);  mul_5 = None
        mul_6: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(exp, 0.3989422804014327);  exp = None
        mul_7: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(addmm_1, mul_6);  addmm_1 = mul_6 = None
        add_2: "f32[6, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(mul_3, mul_7);  mul_3 = mul_7 = None
        mul_8: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(native_dropout_backward, add_2);  native_dropout_backward = add_2 = None
        t_7: "f32[16, 16][16, 1]cpu" = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_2: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mm.default(mul_8, t_7);  t_7 = None
        t_8: "f32[16, 6][1, 16]cpu" = torch.ops.aten.t.default(mul_8)
        mm_3: "f32[16, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_8, addmm);  t_8 = addmm = None
        t_9: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(mm_3);  mm_3 = None
        sum_2: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_8, [0], True);  mul_8 = None
        view_1: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_2, [16]);  sum_2 = None
        add_3: "f32[6, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(mm, mm_2);  mm = mm_2 = None
        t_10: "f32[16, 16][16, 1]cpu" = torch.ops.aten.t.default(t_9);  t_9 = None

        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        t_11: "f32[16, 6][1, 16]cpu" = torch.ops.aten.t.default(add_3)
        mm_4: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_11, primals_3);  t_11 = primals_3 = None
        t_12: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_4);  mm_4 = None
        sum_3: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_3, [0], True);  add_3 = None
        view_2: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_3, [16]);  sum_3 = None
        t_13: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_12);  t_12 = None
        return (t_13, view_2, None, t_10, view_1, t_6, view)
