class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[16, 8][8, 1]cpu", primals_2: "f32[16][1]cpu", primals_3: "f32[6, 8][8, 1]cpu", primals_4: "f32[16, 16][16, 1]cpu", primals_5: "f32[16][1]cpu", primals_6: "f32[4, 16][16, 1]cpu", primals_7: "f32[4][1]cpu"):
        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        t: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_1);  primals_1 = None

        # recompute: MUST_SAVE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        addmm: "f32[6, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_2, primals_3, t);  primals_2 = t = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:38 in forward, code: h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        t_1: "f32[16, 16][1, 16]cpu" = torch.ops.aten.t.default(primals_4)
        addmm_1: "f32[6, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_5, addmm, t_1);  t_1 = None
        gelu: "f32[6, 16][16, 1]cpu" = torch.ops.aten.gelu.default(addmm_1);  addmm_1 = None

        # No stacktrace found for following nodes
        run_and_save_rng_state = torch.ops.higher_order.run_and_save_rng_state(torch.ops.aten.native_dropout.default, gelu, 0.25, True);  gelu = None
        getitem_2: "u8[s11][1]cpu" = run_and_save_rng_state[0]

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:38 in forward, code: h = self.drop(torch.nn.functional.gelu(self.fc(x)))
        getitem_3 = run_and_save_rng_state[1];  run_and_save_rng_state = None
        getitem: "f32[6, 16][16, 1]cpu" = getitem_3[0];  getitem_3 = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:39 in forward, code: keep = x.new_empty(x.shape[0], 1).bernoulli_(0.75)  # drop path, per sample
        new_empty: "f32[6, 1][1, 1]cpu" = torch.ops.aten.new_empty.default(addmm, [6, 1], pin_memory = False)

        # No stacktrace found for following nodes
        run_and_save_rng_state_1 = torch.ops.higher_order.run_and_save_rng_state(torch.ops.aten.bernoulli.p, new_empty, 0.75);  new_empty = None
        getitem_4: "u8[s11][1]cpu" = run_and_save_rng_state_1[0]

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:39 in forward, code: keep = x.new_empty(x.shape[0], 1).bernoulli_(0.75)  # drop path, per sample
        getitem_5: "f32[6, 1][1, 1]cpu" = run_and_save_rng_state_1[1];  run_and_save_rng_state_1 = None

        # ac_graph_id: 2 - PREFER_RECOMPUTE File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:40 in forward, code: return x + h * keep / 0.75
        mul: "f32[6, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(getitem, getitem_5);  getitem = getitem_5 = None
        div: "f32[6, 16][16, 1]cpu" = torch.ops.aten.div.Tensor(mul, 0.75);  mul = None
        add: "f32[6, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(addmm, div);  div = None

        # File: /work/wt-gaps21/tests/data/checkpoint/make_checkpoint.py:51 in forward, code: return self.out(ckpt.checkpoint(self.block, self.inp(x), use_reentrant=False))
        t_2: "f32[16, 4][1, 16]cpu" = torch.ops.aten.t.default(primals_6);  primals_6 = None
        addmm_2: "f32[6, 4][4, 1]cpu" = torch.ops.aten.addmm.default(primals_7, add, t_2);  primals_7 = add = None
        return (addmm_2, primals_3, primals_4, primals_5, addmm, t_2, getitem_2, getitem_4)
