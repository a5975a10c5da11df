class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu", primals_2: "f32[2, 3, 4, 4][48, 16, 4, 1]cpu", primals_3: "i64[][]cpu", primals_4: "f32[8][1]cpu", primals_5: "f32[8][1]cpu", primals_6: "f32[8][1]cpu", primals_7: "f32[8][1]cpu", primals_8: "f32[8][1]cpu", primals_9: "f32[8][1]cpu", primals_10: "f32[8, 8][8, 1]cpu", primals_11: "f32[8][1]cpu", primals_12: "f32[8][1]cpu", primals_13: "f32[8][1]cpu"):
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
        return (add, getitem_3, getitem_4, _to_copy_4, primals_6, primals_8, primals_12, primals_13, _to_copy, _to_copy_1, convolution, getitem, getitem_1, getitem_2, getitem_3, getitem_4, alias, alias_1, t, _unsafe_view, add_1, getitem_9, getitem_10)
