class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu", arg1_1: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu", arg2_1: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu"):
        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1185 in create_mask, code: m = torch.arange(0, Q_LEN, device=device)
        arange_2: "i64[16][1]cpu" = torch.ops.aten.arange.start(0, 16, device = device(type='cpu'), pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1186 in create_mask, code: n = torch.arange(0, KV_LEN, device=device)
        arange_3: "i64[16][1]cpu" = torch.ops.aten.arange.start(0, 16, device = device(type='cpu'), pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/_dynamo/_trace_wrapped_higher_order_op.py:158 in __torch_function__, code: return func(*args, **(kwargs or {}))
        view: "i64[16, 1][1, 1]cpu" = torch.ops.aten.view.default(arange_2, [16, 1]);  arange_2 = None
        le: "b8[16, 16][16, 1]cpu" = torch.ops.aten.le.Tensor(arange_3, view);  arange_3 = view = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/_functorch/vmap.py:204 in _maybe_remove_batch_dim, code: return _remove_batch_dim(batched_output, vmap_level, batch_size, out_dim)
        expand: "b8[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.expand.default(le, [1, 16, 16]);  le = None
        expand_1: "b8[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.expand.default(expand, [1, 1, 16, 16]);  expand = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/functional.py:5430 in pad, code: return torch._C._nn.pad(input, pad, mode, value)
        constant_pad_nd: "b8[1, 1, 128, 128][16384, 16384, 128, 1]cpu" = torch.ops.aten.constant_pad_nd.default(expand_1, [0, 112, 0, 112], 0.0);  expand_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1065 in _convert_mask_to_block_mask, code: mask = mask.view(
        view_1: "b8[1, 1, 1, 128, 1, 128][16384, 16384, 16384, 128, 128, 1]cpu" = torch.ops.aten.view.default(constant_pad_nd, [1, 1, 1, 128, 1, 128]);  constant_pad_nd = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1068 in _convert_mask_to_block_mask, code: mask = mask.permute(
        permute: "b8[1, 1, 1, 1, 128, 128][16384, 16384, 16384, 128, 128, 1]cpu" = torch.ops.aten.permute.default(view_1, [0, 1, 2, 4, 3, 5]);  view_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1071 in _convert_mask_to_block_mask, code: mask_block_sum = mask.sum(
        sum_1: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(permute, [-2, -1]);  permute = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1076 in _convert_mask_to_block_mask, code: full_blocks = mask_block_sum == full_block_sum
        eq: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.eq.Scalar(sum_1, 16384)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1077 in _convert_mask_to_block_mask, code: partial_blocks = (mask_block_sum > 0) & (mask_block_sum < full_block_sum)
        gt: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.gt.Scalar(sum_1, 0)
        lt: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.lt.Scalar(sum_1, 16384);  sum_1 = None
        bitwise_and: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.bitwise_and.Tensor(gt, lt);  gt = lt = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1078 in _convert_mask_to_block_mask, code: partial_blocks = partial_blocks.to(dtype=torch.int8)
        _to_copy: "i8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(bitwise_and, dtype = torch.int8);  bitwise_and = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1079 in _convert_mask_to_block_mask, code: full_blocks = full_blocks.to(dtype=torch.int8)
        _to_copy_1: "i8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(eq, dtype = torch.int8);  eq = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:403 in _dense_to_ordered, code: dense_mask = dense_mask.to(dtype=torch.int32)
        _to_copy_2: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(_to_copy, dtype = torch.int32);  _to_copy = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        sum_2: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(_to_copy_2, [-1])

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        sort = torch.ops.aten.sort.stable(_to_copy_2, stable = True, descending = True);  _to_copy_2 = None
        getitem_1: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = sort[1];  sort = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_3: "i32[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten._to_copy.default(sum_2, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_4: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(getitem_1, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:403 in _dense_to_ordered, code: dense_mask = dense_mask.to(dtype=torch.int32)
        _to_copy_5: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(_to_copy_1, dtype = torch.int32);  _to_copy_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        sum_3: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(_to_copy_5, [-1])

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        sort_1 = torch.ops.aten.sort.stable(_to_copy_5, stable = True, descending = True);  _to_copy_5 = None
        getitem_3: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = sort_1[1];  sort_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_6: "i32[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten._to_copy.default(sum_3, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_7: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(getitem_3, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:379 in create_dense_one, code: dense_mask = kv_indices.new_zeros(num_rows, num_cols + 1, dtype=torch.int32)
        new_zeros: "i32[1, 1, 1, 2][2, 2, 2, 1]cpu" = torch.ops.aten.new_zeros.default(_to_copy_4, [1, 1, 1, 2], dtype = torch.int32, pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:381 in create_dense_one, code: row_indices = torch.arange(num_rows, dtype=torch.int, device=device).unsqueeze(
        arange_4: "i32[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze: "i32[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_4, -1);  arange_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:384 in create_dense_one, code: col_range = torch.arange(num_cols, dtype=torch.int, device=device)
        arange_5: "i32[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:385 in create_dense_one, code: index_mask = col_range < kv_num_blocks.unsqueeze(-1)
        unsqueeze_1: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(_to_copy_3, 3)
        lt_1: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.lt.Tensor(arange_5, unsqueeze_1);  arange_5 = unsqueeze_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:388 in create_dense_one, code: valid_indices = torch.where(index_mask, kv_indices, num_cols)
        scalar_tensor: "i32[][]cpu" = torch.ops.aten.scalar_tensor.default(1, dtype = torch.int32, layout = torch.strided, device = device(type='cpu'))
        where: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.where.self(lt_1, _to_copy_4, scalar_tensor);  lt_1 = scalar_tensor = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:391 in create_dense_one, code: dense_mask[row_indices, valid_indices] = dense_mask.new_ones(())
        new_ones: "i32[1, 1][1, 1]cpu" = torch.ops.aten.new_ones.default(new_zeros, [1, 1], pin_memory = False)
        arange_6: "i64[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_2: "i64[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_6, -1);  arange_6 = None
        unsqueeze_3: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_2, -1);  unsqueeze_2 = None
        view_2: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.view.default(new_ones, [1, 1, 1, 1]);  new_ones = None
        arange_7: "i64[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_4: "i64[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_7, -1);  arange_7 = None
        unsqueeze_5: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_4, -1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_5, -1);  unsqueeze_5 = None
        index_put: "i32[1, 1, 1, 2][2, 2, 2, 1]cpu" = torch.ops.aten.index_put.default(new_zeros, [unsqueeze_6, unsqueeze_3, unsqueeze, where], view_2);  new_zeros = unsqueeze_6 = unsqueeze_3 = unsqueeze = where = view_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:414 in _transpose_ordered, code: return _dense_to_ordered(dense.transpose(-2, -1))
        slice_3: "i32[1, 1, 1, 1][2, 2, 2, 1]cpu" = torch.ops.aten.slice.Tensor(index_put, 3, 0, 1);  index_put = None
        transpose_1: "i32[1, 1, 1, 1][2, 2, 1, 2]cpu" = torch.ops.aten.transpose.int(slice_3, -2, -1);  slice_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        sum_4: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(transpose_1, [-1])

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        sort_2 = torch.ops.aten.sort.stable(transpose_1, stable = True, descending = True);  transpose_1 = None
        getitem_5: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = sort_2[1];  sort_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_8: "i32[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten._to_copy.default(sum_4, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_9: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(getitem_5, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:379 in create_dense_one, code: dense_mask = kv_indices.new_zeros(num_rows, num_cols + 1, dtype=torch.int32)
        new_zeros_1: "i32[1, 1, 1, 2][2, 2, 2, 1]cpu" = torch.ops.aten.new_zeros.default(_to_copy_7, [1, 1, 1, 2], dtype = torch.int32, pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:381 in create_dense_one, code: row_indices = torch.arange(num_rows, dtype=torch.int, device=device).unsqueeze(
        arange_8: "i32[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)
        unsqueeze_7: "i32[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_8, -1);  arange_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:384 in create_dense_one, code: col_range = torch.arange(num_cols, dtype=torch.int, device=device)
        arange_9: "i32[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int32, device = device(type='cpu'), pin_memory = False)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:385 in create_dense_one, code: index_mask = col_range < kv_num_blocks.unsqueeze(-1)
        unsqueeze_8: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(_to_copy_6, 3)
        lt_2: "b8[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.lt.Tensor(arange_9, unsqueeze_8);  arange_9 = unsqueeze_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:388 in create_dense_one, code: valid_indices = torch.where(index_mask, kv_indices, num_cols)
        scalar_tensor_1: "i32[][]cpu" = torch.ops.aten.scalar_tensor.default(1, dtype = torch.int32, layout = torch.strided, device = device(type='cpu'))
        where_1: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.where.self(lt_2, _to_copy_7, scalar_tensor_1);  lt_2 = scalar_tensor_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:391 in create_dense_one, code: dense_mask[row_indices, valid_indices] = dense_mask.new_ones(())
        new_ones_1: "i32[1, 1][1, 1]cpu" = torch.ops.aten.new_ones.default(new_zeros_1, [1, 1], pin_memory = False)
        arange_10: "i64[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_9: "i64[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_10, -1);  arange_10 = None
        unsqueeze_10: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_9, -1);  unsqueeze_9 = None
        view_3: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.view.default(new_ones_1, [1, 1, 1, 1]);  new_ones_1 = None
        arange_11: "i64[1][1]cpu" = torch.ops.aten.arange.default(1, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze_11: "i64[1, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange_11, -1);  arange_11 = None
        unsqueeze_12: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_11, -1);  unsqueeze_11 = None
        unsqueeze_13: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_12, -1);  unsqueeze_12 = None
        index_put_1: "i32[1, 1, 1, 2][2, 2, 2, 1]cpu" = torch.ops.aten.index_put.default(new_zeros_1, [unsqueeze_13, unsqueeze_10, unsqueeze_7, where_1], view_3);  new_zeros_1 = unsqueeze_13 = unsqueeze_10 = unsqueeze_7 = where_1 = view_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:414 in _transpose_ordered, code: return _dense_to_ordered(dense.transpose(-2, -1))
        slice_6: "i32[1, 1, 1, 1][2, 2, 2, 1]cpu" = torch.ops.aten.slice.Tensor(index_put_1, 3, 0, 1);  index_put_1 = None
        transpose_3: "i32[1, 1, 1, 1][2, 2, 1, 2]cpu" = torch.ops.aten.transpose.int(slice_6, -2, -1);  slice_6 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        sum_5: "i64[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(transpose_3, [-1])

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        sort_3 = torch.ops.aten.sort.stable(transpose_3, stable = True, descending = True);  transpose_3 = None
        getitem_7: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = sort_3[1];  sort_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_10: "i32[1, 1, 1][1, 1, 1]cpu" = torch.ops.aten._to_copy.default(sum_5, dtype = torch.int32, memory_format = torch.contiguous_format);  sum_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        _to_copy_11: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.ops.aten._to_copy.default(getitem_7, dtype = torch.int32, memory_format = torch.contiguous_format);  getitem_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        sdpa_score0 = self.sdpa_score0
        sdpa_mask0 = self.sdpa_mask0
        flex_attention = torch.ops.higher_order.flex_attention(arg0_1, arg1_1, arg2_1, sdpa_score0, (16, 16, _to_copy_3, _to_copy_4, _to_copy_6, _to_copy_7, _to_copy_8, _to_copy_9, _to_copy_10, _to_copy_11, 128, 128, sdpa_mask0), 0.35355339059327373, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': False, 'OUTPUT_MAX': False}, (), ());  arg0_1 = arg1_1 = arg2_1 = sdpa_score0 = _to_copy_3 = _to_copy_4 = _to_copy_6 = _to_copy_7 = _to_copy_8 = _to_copy_9 = _to_copy_10 = _to_copy_11 = sdpa_mask0 = None
        getitem_8: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu" = flex_attention[0];  flex_attention = None
        return (getitem_8,)

    class sdpa_score0(torch.nn.Module):
        def forward(self, arg0_1: "f32[][]cpu", arg1_1: "i32[][]cpu", arg2_1: "i32[][]cpu", arg3_1: "i32[][]cpu", arg4_1: "i32[][]cpu"):
            # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
            sub: "i32[][]cpu" = torch.ops.aten.sub.Tensor(arg3_1, arg4_1);  arg3_1 = arg4_1 = None
            mul: "f32[][]cpu" = torch.ops.aten.mul.Tensor(sub, 0.1);  sub = None
            add: "f32[][]cpu" = torch.ops.aten.add.Tensor(arg0_1, mul);  arg0_1 = mul = None
            return add

    class sdpa_mask0(torch.nn.Module):
        def forward(self, arg0_1: "i32[][]cpu", arg1_1: "i32[][]cpu", arg2_1: "i32[][]cpu", arg3_1: "i32[][]cpu"):
            # File: /work/wt-gaps21/tests/data/flex/make_flex.py:28 in causal, code: return kv_idx <= q_idx
            le: "b8[][]cpu" = torch.ops.aten.le.Tensor(arg3_1, arg2_1);  arg3_1 = arg2_1 = None
            return le
