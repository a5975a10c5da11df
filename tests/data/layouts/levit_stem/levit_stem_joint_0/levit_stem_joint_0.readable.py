class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu"; primals_2: "f32[2, 3, 8, 8][192, 64, 8, 1]cpu"; primals_3: "i64[][]cpu"; primals_4: "f32[8][1]cpu"; primals_5: "f32[8][1]cpu"; primals_6: "f32[8][1]cpu"; primals_7: "f32[8][1]cpu"; primals_8: "f32[4, 8][8, 1]cpu"; primals_9: "f32[4][1]cpu"; tangents_1: "f32[2, 16, 4][64, 4, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /work/wt-vision/tests/data/layouts/make_levit_stem.py:34 in forward, code: return self.linear(self.bn(self.conv(x)).flatten(2).transpose(1, 2))
        convolution: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten.convolution.default(primals_2, primals_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)
        add: "i64[][]cpu" = torch.ops.aten.add.Tensor(primals_3, 1);  primals_3 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, primals_6, primals_7, primals_4, primals_5, True, 0.1, 1e-05);  primals_7 = primals_4 = primals_5 = None
        getitem: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu" = _native_batch_norm_legit_functional[0]
        getitem_1: "f32[8][1]cpu" = _native_batch_norm_legit_functional[1]
        getitem_2: "f32[8][1]cpu" = _native_batch_norm_legit_functional[2]
        getitem_3: "f32[8][1]cpu" = _native_batch_norm_legit_functional[3]
        getitem_4: "f32[8][1]cpu" = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        view: "f32[2, 8, 16][128, 16, 1]cpu" = torch.ops.aten.view.default(getitem, [2, 8, 16]);  getitem = None
        transpose: "f32[2, 16, 8][128, 1, 16]cpu" = torch.ops.aten.transpose.int(view, 1, 2);  view = None
        t: "f32[8, 4][1, 8]cpu" = torch.ops.aten.t.default(primals_8);  primals_8 = None
        clone: "f32[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten.clone.default(transpose, memory_format = torch.contiguous_format);  transpose = None
        _unsafe_view: "f32[32, 8][8, 1]cpu" = torch.ops.aten._unsafe_view.default(clone, [32, 8]);  clone = None
        mm: "f32[32, 4][4, 1]cpu" = torch.ops.aten.mm.default(_unsafe_view, t)
        _unsafe_view_1: "f32[2, 16, 4][64, 4, 1]cpu" = torch.ops.aten._unsafe_view.default(mm, [2, 16, 4]);  mm = None
        add_1: "f32[2, 16, 4][64, 4, 1]cpu" = torch.ops.aten.add.Tensor(_unsafe_view_1, primals_9);  _unsafe_view_1 = primals_9 = None
        sum_1: "f32[1, 1, 4][4, 4, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0, 1], True)
        view_1: "f32[4][1]cpu" = torch.ops.aten.view.default(sum_1, [4]);  sum_1 = None
        view_2: "f32[32, 4][4, 1]cpu" = torch.ops.aten.view.default(tangents_1, [32, 4]);  tangents_1 = None
        t_1: "f32[4, 32][1, 4]cpu" = torch.ops.aten.t.default(view_2)
        mm_1: "f32[4, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_1, _unsafe_view);  t_1 = _unsafe_view = None
        t_2: "f32[8, 4][1, 8]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        t_3: "f32[4, 8][8, 1]cpu" = torch.ops.aten.t.default(t);  t = None
        mm_2: "f32[32, 8][8, 1]cpu" = torch.ops.aten.mm.default(view_2, t_3);  view_2 = t_3 = None
        view_3: "f32[2, 16, 8][128, 8, 1]cpu" = torch.ops.aten.view.default(mm_2, [2, 16, 8]);  mm_2 = None
        t_4: "f32[4, 8][8, 1]cpu" = torch.ops.aten.t.default(t_2);  t_2 = None
        transpose_1: "f32[2, 8, 16][128, 1, 8]cpu" = torch.ops.aten.transpose.int(view_3, 1, 2);  view_3 = None
        view_4: "f32[2, 8, 4, 4][128, 1, 32, 8]cpu" = torch.ops.aten.view.default(transpose_1, [2, 8, 4, 4]);  transpose_1 = None
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(view_4, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  view_4 = convolution = primals_6 = getitem_1 = getitem_2 = None
        getitem_5: "f32[2, 8, 4, 4][128, 1, 32, 8]cpu" = native_batch_norm_backward[0]
        getitem_6: "f32[8][1]cpu" = native_batch_norm_backward[1]
        getitem_7: "f32[8][1]cpu" = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_5, primals_2, primals_1, [0], [2, 2], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_5 = primals_2 = primals_1 = None
        getitem_9: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu" = convolution_backward[1];  convolution_backward = None
        return pytree.tree_unflatten([add, getitem_3, getitem_4, add_1, getitem_9, None, None, None, None, getitem_6, getitem_7, t_4, view_1], self._out_spec)
