class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 3, 3, 3][27, 9, 3, 1]cpu", primals_2: "f32[2, 3, 8, 8][192, 64, 8, 1]cpu", primals_3: "i64[][]cpu", primals_4: "f32[8][1]cpu", primals_5: "f32[8][1]cpu", primals_6: "f32[8][1]cpu", primals_7: "f32[8][1]cpu", primals_8: "f32[4, 8][8, 1]cpu", primals_9: "f32[4][1]cpu"):
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
        return (add, getitem_3, getitem_4, add_1, primals_1, primals_2, primals_6, convolution, getitem_1, getitem_2, getitem_3, getitem_4, t, _unsafe_view)
