class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 3, 3, 3][27, 1, 9, 3]cpu", primals_2: "f32[2, 3, 8, 8][192, 1, 24, 3]cpu", primals_3: "i64[][]cpu", primals_4: "f32[8][1]cpu", primals_5: "f32[8][1]cpu", primals_6: "f32[8][1]cpu", primals_7: "f32[8][1]cpu", primals_8: "f32[10, 128][128, 1]cpu", primals_9: "f32[10][1]cpu"):
        # File: tools/capture/make_samples.py:80 in forward, code: y = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        convolution: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.convolution.default(primals_2, primals_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        add: "i64[][]cpu" = torch.ops.aten.add.Tensor(primals_3, 1);  primals_3 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, primals_6, primals_7, primals_4, primals_5, True, 0.1, 1e-05);  primals_7 = primals_4 = primals_5 = None
        getitem: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = _native_batch_norm_legit_functional[0]
        getitem_1: "f32[8][1]cpu" = _native_batch_norm_legit_functional[1]
        getitem_2: "f32[8][1]cpu" = _native_batch_norm_legit_functional[2]
        getitem_3: "f32[8][1]cpu" = _native_batch_norm_legit_functional[3]
        getitem_4: "f32[8][1]cpu" = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        relu: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.relu.default(getitem);  getitem = None
        alias: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.alias.default(relu)
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu, [2, 2])
        getitem_5: "f32[2, 8, 4, 4][128, 1, 32, 8]cpu" = max_pool2d_with_indices[0]
        getitem_6: "i64[2, 8, 4, 4][128, 1, 32, 8]cpu" = max_pool2d_with_indices[1];  max_pool2d_with_indices = None

        # File: tools/capture/make_samples.py:81 in forward, code: return self.fc(torch.flatten(y, 1))
        clone: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten.clone.default(getitem_5, memory_format = torch.contiguous_format);  getitem_5 = None
        _unsafe_view: "f32[2, 128][128, 1]cpu" = torch.ops.aten._unsafe_view.default(clone, [2, 128]);  clone = None
        t: "f32[128, 10][1, 128]cpu" = torch.ops.aten.t.default(primals_8);  primals_8 = None
        addmm: "f32[2, 10][10, 1]cpu" = torch.ops.aten.addmm.default(primals_9, _unsafe_view, t);  primals_9 = None
        return (add, getitem_3, getitem_4, addmm, primals_1, primals_2, primals_6, convolution, getitem_1, getitem_2, getitem_3, getitem_4, relu, alias, getitem_6, _unsafe_view, t)
