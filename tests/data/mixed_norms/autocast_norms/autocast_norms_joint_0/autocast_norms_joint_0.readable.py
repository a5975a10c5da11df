class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu"; primals_2: "f32[2, 3, 4, 4][48, 16, 4, 1]cpu"; primals_3: "i64[][]cpu"; primals_4: "f32[8][1]cpu"; primals_5: "f32[8][1]cpu"; primals_6: "f32[8][1]cpu"; primals_7: "f32[8][1]cpu"; primals_8: "f32[8][1]cpu"; primals_9: "f32[8][1]cpu"; primals_10: "f32[8, 8][8, 1]cpu"; primals_11: "f32[8][1]cpu"; primals_12: "f32[8][1]cpu"; primals_13: "f32[8][1]cpu"; tangents_1: "f32[2, 16, 8][128, 8, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:38 in forward, code: h = self.gn(self.bn(self.conv(x)))
        _to_copy: "bf16[8, 3, 3, 3][27, 9, 3, 1]cpu" = torch.ops.aten._to_copy.default(primals_1, dtype = torch.bfloat16);  primals_1 = None
        _to_copy_1: "bf16[2, 3, 4, 4][48, 16, 4, 1]cpu" = torch.ops.aten._to_copy.default(primals_2, dtype = torch.bfloat16);  primals_2 = None
        convolution: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten.convolution.default(_to_copy_1, _to_copy, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        add: "i64[][]cpu" = torch.ops.aten.add.Tensor(primals_3, 1);  primals_3 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, primals_6, primals_7, primals_4, primals_5, True, 0.1, 1e-05);  primals_7 = primals_4 = primals_5 = None
        getitem: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = _native_batch_norm_legit_functional[0]
        getitem_1: "bf16[8][1]cpu" = _native_batch_norm_legit_functional[1]
        getitem_2: "bf16[8][1]cpu" = _native_batch_norm_legit_functional[2]
        getitem_3: "f32[8][1]cpu" = _native_batch_norm_legit_functional[3]
        getitem_4: "f32[8][1]cpu" = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        native_group_norm = torch.ops.aten.native_group_norm.default(getitem, primals_8, primals_9, 2, 8, 16, 2, 1e-05);  primals_9 = None
        getitem_5: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = native_group_norm[0]
        getitem_6: "bf16[2, 2][2, 1]cpu" = native_group_norm[1]
        getitem_7: "bf16[2, 2][2, 1]cpu" = native_group_norm[2];  native_group_norm = None
        alias: "bf16[2, 2][2, 1]cpu" = torch.ops.aten.alias.default(getitem_6);  getitem_6 = None
        alias_1: "bf16[2, 2][2, 1]cpu" = torch.ops.aten.alias.default(getitem_7);  getitem_7 = None

        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:39 in forward, code: h = self.linear(h.flatten(2).transpose(1, 2))
        view: "bf16[2, 8, 16][128, 16, 1]cpu" = torch.ops.aten.view.default(getitem_5, [2, 8, 16]);  getitem_5 = None
        transpose: "bf16[2, 16, 8][128, 1, 16]cpu" = torch.ops.aten.transpose.int(view, 1, 2);  view = None
        _to_copy_2: "bf16[8][1]cpu" = torch.ops.aten._to_copy.default(primals_11, dtype = torch.bfloat16);  primals_11 = None
        _to_copy_3: "bf16[8, 8][8, 1]cpu" = torch.ops.aten._to_copy.default(primals_10, dtype = torch.bfloat16);  primals_10 = None
        t: "bf16[8, 8][1, 8]cpu" = torch.ops.aten.t.default(_to_copy_3);  _to_copy_3 = None
        clone: "bf16[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten.clone.default(transpose, memory_format = torch.contiguous_format);  transpose = None
        _unsafe_view: "bf16[32, 8][8, 1]cpu" = torch.ops.aten._unsafe_view.default(clone, [32, 8]);  clone = None
        mm: "bf16[32, 8][8, 1]cpu" = torch.ops.aten.mm.default(_unsafe_view, t)
        _unsafe_view_1: "bf16[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten._unsafe_view.default(mm, [2, 16, 8]);  mm = None
        add_1: "bf16[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten.add.Tensor(_unsafe_view_1, _to_copy_2);  _unsafe_view_1 = _to_copy_2 = None

        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:40 in forward, code: return self.ln(h.to(torch.bfloat16)).float()  # LayerNorm runs in f32 under autocast unless given bf16
        native_layer_norm = torch.ops.aten.native_layer_norm.default(add_1, [8], primals_12, primals_13, 1e-05)
        getitem_8: "bf16[2, 16, 8][128, 8, 1]cpu" = native_layer_norm[0]
        getitem_9: "bf16[2, 16, 1][16, 1, 1]cpu" = native_layer_norm[1]
        getitem_10: "bf16[2, 16, 1][16, 1, 1]cpu" = native_layer_norm[2];  native_layer_norm = None
        _to_copy_4: "f32[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten._to_copy.default(getitem_8, dtype = torch.float32);  getitem_8 = None
        _to_copy_5: "bf16[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten._to_copy.default(tangents_1, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'));  tangents_1 = None
        native_layer_norm_backward = torch.ops.aten.native_layer_norm_backward.default(_to_copy_5, add_1, [8], getitem_9, getitem_10, primals_12, primals_13, [True, True, True]);  _to_copy_5 = add_1 = getitem_9 = getitem_10 = primals_12 = primals_13 = None
        getitem_11: "bf16[2, 16, 8][128, 8, 1]cpu" = native_layer_norm_backward[0]
        getitem_12: "f32[8][1]cpu" = native_layer_norm_backward[1]
        getitem_13: "f32[8][1]cpu" = native_layer_norm_backward[2];  native_layer_norm_backward = None

        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:39 in forward, code: h = self.linear(h.flatten(2).transpose(1, 2))
        sum_1: "bf16[1, 1, 8][8, 8, 1]cpu" = torch.ops.aten.sum.dim_IntList(getitem_11, [0, 1], True)
        view_1: "bf16[8][1]cpu" = torch.ops.aten.view.default(sum_1, [8]);  sum_1 = None
        view_2: "bf16[32, 8][8, 1]cpu" = torch.ops.aten.view.default(getitem_11, [32, 8]);  getitem_11 = None
        t_1: "bf16[8, 32][1, 8]cpu" = torch.ops.aten.t.default(view_2)
        mm_1: "bf16[8, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_1, _unsafe_view);  t_1 = _unsafe_view = None
        t_2: "bf16[8, 8][1, 8]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        t_3: "bf16[8, 8][8, 1]cpu" = torch.ops.aten.t.default(t);  t = None
        mm_2: "bf16[32, 8][8, 1]cpu" = torch.ops.aten.mm.default(view_2, t_3);  view_2 = t_3 = None
        view_3: "bf16[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten.view.default(mm_2, [2, 16, 8]);  mm_2 = None
        t_4: "bf16[8, 8][8, 1]cpu" = torch.ops.aten.t.default(t_2);  t_2 = None
        _to_copy_6: "f32[8, 8][8, 1]cpu" = torch.ops.aten._to_copy.default(t_4, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  t_4 = None
        _to_copy_7: "f32[8][1]cpu" = torch.ops.aten._to_copy.default(view_1, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  view_1 = None
        transpose_1: "bf16[2, 8, 16][128, 1, 8]cpu" = torch.ops.aten.transpose.int(view_3, 1, 2);  view_3 = None
        view_4: "bf16[2, 8, 4, 4][128, 1, 32, 8]cpu" = torch.ops.aten.view.default(transpose_1, [2, 8, 4, 4]);  transpose_1 = None

        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:38 in forward, code: h = self.gn(self.bn(self.conv(x)))
        alias_2: "bf16[2, 2][2, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        alias_3: "bf16[2, 2][2, 1]cpu" = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        clone_1: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten.clone.default(view_4, memory_format = torch.contiguous_format);  view_4 = None
        native_group_norm_backward = torch.ops.aten.native_group_norm_backward.default(clone_1, getitem, alias_2, alias_3, primals_8, 2, 8, 16, 2, [True, True, True]);  clone_1 = getitem = alias_2 = alias_3 = primals_8 = None
        getitem_14: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu" = native_group_norm_backward[0]
        getitem_15: "f32[8][1]cpu" = native_group_norm_backward[1]
        getitem_16: "f32[8][1]cpu" = native_group_norm_backward[2];  native_group_norm_backward = None
        _to_copy_8: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten._to_copy.default(getitem_14, dtype = torch.bfloat16);  getitem_14 = None
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(_to_copy_8, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  _to_copy_8 = convolution = primals_6 = getitem_1 = getitem_2 = None
        getitem_17: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = native_batch_norm_backward[0]
        getitem_18: "f32[8][1]cpu" = native_batch_norm_backward[1]
        getitem_19: "f32[8][1]cpu" = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_17, _to_copy_1, _to_copy, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_17 = _to_copy_1 = _to_copy = None
        getitem_21: "bf16[8, 3, 3, 3][27, 9, 3, 1]cpu" = convolution_backward[1];  convolution_backward = None
        _to_copy_9: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu" = torch.ops.aten._to_copy.default(getitem_21, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  getitem_21 = None
        return pytree.tree_unflatten([add, getitem_3, getitem_4, _to_copy_4, _to_copy_9, None, None, None, None, getitem_18, getitem_19, getitem_15, getitem_16, _to_copy_6, _to_copy_7, getitem_12, getitem_13], self._out_spec)
