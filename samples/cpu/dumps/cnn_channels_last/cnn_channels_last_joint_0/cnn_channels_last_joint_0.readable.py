class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[8, 3, 3, 3][27, 1, 9, 3]cpu"; primals_2: "f32[2, 3, 8, 8][192, 1, 24, 3]cpu"; primals_3: "i64[][]cpu"; primals_4: "f32[8][1]cpu"; primals_5: "f32[8][1]cpu"; primals_6: "f32[8][1]cpu"; primals_7: "f32[8][1]cpu"; primals_8: "f32[10, 128][128, 1]cpu"; primals_9: "f32[10][1]cpu"; tangents_1: "f32[2, 10][10, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
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
        t_1: "f32[10, 128][128, 1]cpu" = torch.ops.aten.t.default(t);  t = None
        mm: "f32[2, 128][128, 1]cpu" = torch.ops.aten.mm.default(tangents_1, t_1);  t_1 = None
        t_2: "f32[10, 2][1, 10]cpu" = torch.ops.aten.t.default(tangents_1)
        mm_1: "f32[10, 128][128, 1]cpu" = torch.ops.aten.mm.default(t_2, _unsafe_view);  t_2 = _unsafe_view = None
        t_3: "f32[128, 10][1, 128]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1: "f32[1, 10][10, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[10][1]cpu" = torch.ops.aten.view.default(sum_1, [10]);  sum_1 = None
        t_4: "f32[10, 128][128, 1]cpu" = torch.ops.aten.t.default(t_3);  t_3 = None
        view_1: "f32[2, 8, 4, 4][128, 16, 4, 1]cpu" = torch.ops.aten.view.default(mm, [2, 8, 4, 4]);  mm = None

        # File: tools/capture/make_samples.py:80 in forward, code: y = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        max_pool2d_with_indices_backward: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.max_pool2d_with_indices_backward.default(view_1, relu, [2, 2], [], [0, 0], [1, 1], False, getitem_6);  view_1 = relu = getitem_6 = None
        alias_1: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        le: "b8[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = torch.ops.aten.where.self(le, scalar_tensor, max_pool2d_with_indices_backward);  le = scalar_tensor = max_pool2d_with_indices_backward = None
        native_batch_norm_backward = torch.ops.aten.native_batch_norm_backward.default(where, convolution, primals_6, getitem_3, getitem_4, getitem_1, getitem_2, True, 1e-05, [True, True, True]);  where = convolution = primals_6 = getitem_1 = getitem_2 = None
        getitem_7: "f32[2, 8, 8, 8][512, 1, 64, 8]cpu" = native_batch_norm_backward[0]
        getitem_8: "f32[8][1]cpu" = native_batch_norm_backward[1]
        getitem_9: "f32[8][1]cpu" = native_batch_norm_backward[2];  native_batch_norm_backward = None
        convolution_backward = torch.ops.aten.convolution_backward.default(getitem_7, primals_2, primals_1, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, False]);  getitem_7 = primals_2 = primals_1 = None
        getitem_11: "f32[8, 3, 3, 3][27, 1, 9, 3]cpu" = convolution_backward[1];  convolution_backward = None
        return pytree.tree_unflatten([add, getitem_3, getitem_4, addmm, getitem_11, None, None, None, None, getitem_8, getitem_9, t_4, view], self._out_spec)
