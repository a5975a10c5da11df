class GraphModule(torch.nn.Module):
    def forward(self, primals_6: "f32[8][1]cpu", primals_8: "f32[8][1]cpu", primals_12: "f32[8][1]cpu", primals_13: "f32[8][1]cpu", _to_copy: "bf16[8, 3, 3, 3][27, 9, 3, 1]cpu", _to_copy_1: "bf16[2, 3, 4, 4][48, 16, 4, 1]cpu", convolution: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu", getitem: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu", getitem_1: "bf16[8][1]cpu", getitem_2: "bf16[8][1]cpu", getitem_3: "f32[8][1]cpu", getitem_4: "f32[8][1]cpu", alias: "bf16[2, 2][2, 1]cpu", alias_1: "bf16[2, 2][2, 1]cpu", t: "bf16[8, 8][1, 8]cpu", _unsafe_view: "bf16[32, 8][8, 1]cpu", add_1: "bf16[2, 16, 8][128, 8, 1]cpu", getitem_9: "bf16[2, 16, 1][16, 1, 1]cpu", getitem_10: "bf16[2, 16, 1][16, 1, 1]cpu", tangents_1: "f32[2, 16, 8][128, 8, 1]cpu"):
        # File: /work/main/tests/data/mixed_norms/make_mixed_norms.py:40 in forward, code: return self.ln(h.to(torch.bfloat16)).float()  # LayerNorm runs in f32 under autocast unless given bf16
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
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(_to_copy_8, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  _to_copy_8 = convolution = primals_6 = getitem_3 = getitem_4 = getitem_1 = getitem_2 = None
        getitem_17: "bf16[2, 8, 4, 4][128, 16, 4, 1]cpu" = native_batch_norm_backward[0]
        getitem_18: "f32[8][1]cpu" = native_batch_norm_backward[1]
        getitem_19: "f32[8][1]cpu" = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_17, _to_copy_1, _to_copy, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_17 = _to_copy_1 = _to_copy = None
        getitem_21: "bf16[8, 3, 3, 3][27, 9, 3, 1]cpu" = convolution_backward[1];  convolution_backward = None
        _to_copy_9: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu" = torch.ops.aten._to_copy.default(getitem_21, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'));  getitem_21 = None
        return (_to_copy_9, None, None, None, None, getitem_18, getitem_19, getitem_15, getitem_16, _to_copy_6, _to_copy_7, getitem_12, getitem_13)
