class GraphModule(torch.nn.Module):
    def forward(self, L_q_: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu"):
        l_q_ = L_q_

        # File: torch/nn/attention/flex_attention.py:1300 in _create_empty_block_mask, code: kv_num_blocks=torch.ones([1, 1, 1], dtype=torch.int32, device=device),
        child: "i32[1, 1, 1][1, 1, 1]cpu" = torch.ones([1, 1, 1], dtype = torch.int32, device = device(type='cpu'))

        # File: torch/nn/attention/flex_attention.py:1301 in _create_empty_block_mask, code: kv_indices=torch.zeros([1, 1, 1, 1], dtype=torch.int32, device=device),
        child_1: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.zeros([1, 1, 1, 1], dtype = torch.int32, device = device(type='cpu'))

        # File: torch/_functorch/vmap.py:295 in vmap_impl, code: lazy_load_decompositions()
        lazy_load_decompositions = torch._functorch.predispatch.lazy_load_decompositions();  lazy_load_decompositions = None

        # File: torch/_functorch/vmap.py:503 in _flat_vmap, code: with vmap_increment_nesting(batch_size, randomness) as vmap_level:
        _vmap_increment_nesting = torch._functorch.predispatch._vmap_increment_nesting(1, 'error');  _vmap_increment_nesting = None

        # File: torch/_functorch/vmap.py:173 in <listcomp>, code: arg if in_dim is None else _add_batch_dim(arg, in_dim, vmap_level)
        child_2: "i32[1, 1][1, 1]cpu" = torch._functorch.predispatch._add_batch_dim(child, 0, 1)
        child_3: "i32[1, 1, 1][1, 1, 1]cpu" = torch._functorch.predispatch._add_batch_dim(child_1, 0, 1)

        # File: torch/_functorch/vmap.py:295 in vmap_impl, code: lazy_load_decompositions()
        lazy_load_decompositions_1 = torch._functorch.predispatch.lazy_load_decompositions();  lazy_load_decompositions_1 = None

        # File: torch/_functorch/vmap.py:503 in _flat_vmap, code: with vmap_increment_nesting(batch_size, randomness) as vmap_level:
        _vmap_increment_nesting_1 = torch._functorch.predispatch._vmap_increment_nesting(1, 'error');  _vmap_increment_nesting_1 = None

        # File: torch/_functorch/vmap.py:173 in <listcomp>, code: arg if in_dim is None else _add_batch_dim(arg, in_dim, vmap_level)
        _add_batch_dim_2: "i32[1][1]cpu" = torch._functorch.predispatch._add_batch_dim(child_2, 0, 2);  child_2 = None
        _add_batch_dim_3: "i32[1, 1][1, 1]cpu" = torch._functorch.predispatch._add_batch_dim(child_3, 0, 2);  child_3 = None

        # File: torch/nn/attention/flex_attention.py:379 in create_dense_one, code: dense_mask = kv_indices.new_zeros(num_rows, num_cols + 1, dtype=torch.int32)
        dense_mask: "i32[1, 2][2, 1]cpu" = _add_batch_dim_3.new_zeros(1, 2, dtype = torch.int32)

        # File: torch/nn/attention/flex_attention.py:381 in create_dense_one, code: row_indices = torch.arange(num_rows, dtype=torch.int, device=device).unsqueeze(
        arange: "i32[1][1]cpu" = torch.arange(1, dtype = torch.int32, device = device(type='cpu'))
        row_indices: "i32[1, 1][1, 1]cpu" = arange.unsqueeze(-1);  arange = None

        # File: torch/nn/attention/flex_attention.py:384 in create_dense_one, code: col_range = torch.arange(num_cols, dtype=torch.int, device=device)
        col_range: "i32[1][1]cpu" = torch.arange(1, dtype = torch.int32, device = device(type='cpu'))

        # File: torch/nn/attention/flex_attention.py:385 in create_dense_one, code: index_mask = col_range < kv_num_blocks.unsqueeze(-1)
        unsqueeze_1: "i32[1, 1][1, 1]cpu" = _add_batch_dim_2.unsqueeze(-1);  _add_batch_dim_2 = None
        index_mask: "b8[1, 1][1, 1]cpu" = col_range < unsqueeze_1;  col_range = unsqueeze_1 = None

        # File: torch/nn/attention/flex_attention.py:388 in create_dense_one, code: valid_indices = torch.where(index_mask, kv_indices, num_cols)
        valid_indices: "i32[1, 1][1, 1]cpu" = torch.where(index_mask, _add_batch_dim_3, 1);  index_mask = _add_batch_dim_3 = None

        # File: torch/nn/attention/flex_attention.py:391 in create_dense_one, code: dense_mask[row_indices, valid_indices] = dense_mask.new_ones(())
        new_ones: "i32[][]cpu" = dense_mask.new_ones(())
        dense_mask[(row_indices, valid_indices)] = new_ones;  setitem = dense_mask;  row_indices = valid_indices = new_ones = setitem = None

        # File: torch/nn/attention/flex_attention.py:392 in create_dense_one, code: return dense_mask[:, :num_cols].contiguous()
        getitem: "i32[1, 1][2, 1]cpu" = dense_mask[(slice(None, None, None), slice(None, 1, None))];  dense_mask = None
        batched_outputs: "i32[1, 1][2, 1]cpu" = getitem.contiguous();  getitem = None

        # File: torch/_functorch/vmap.py:204 in _maybe_remove_batch_dim, code: return _remove_batch_dim(batched_output, vmap_level, batch_size, out_dim)
        batched_outputs_1: "i32[1, 1, 1][2, 2, 1]cpu" = torch._functorch.predispatch._remove_batch_dim(batched_outputs, 2, 1, 0);  batched_outputs = None

        # No stacktrace found for following nodes
        _vmap_decrement_nesting = torch._functorch.predispatch._vmap_decrement_nesting();  _vmap_decrement_nesting = None

        # File: torch/_functorch/vmap.py:204 in _maybe_remove_batch_dim, code: return _remove_batch_dim(batched_output, vmap_level, batch_size, out_dim)
        out: "i32[1, 1, 1, 1][2, 2, 2, 1]cpu" = torch._functorch.predispatch._remove_batch_dim(batched_outputs_1, 1, 1, 0);  batched_outputs_1 = None

        # No stacktrace found for following nodes
        _vmap_decrement_nesting_1 = torch._functorch.predispatch._vmap_decrement_nesting();  _vmap_decrement_nesting_1 = None

        # File: torch/nn/attention/flex_attention.py:414 in _transpose_ordered, code: return _dense_to_ordered(dense.transpose(-2, -1))
        transpose: "i32[1, 1, 1, 1][2, 2, 1, 2]cpu" = out.transpose(-2, -1);  out = None

        # File: torch/nn/attention/flex_attention.py:403 in _dense_to_ordered, code: dense_mask = dense_mask.to(dtype=torch.int32)
        dense_mask_1: "i32[1, 1, 1, 1][2, 2, 1, 2]cpu" = transpose.to(dtype = torch.int32);  transpose = None

        # File: torch/nn/attention/flex_attention.py:404 in _dense_to_ordered, code: num_blocks_in_row = dense_mask.sum(dim=-1)
        num_blocks_in_row: "i64[1, 1, 1][1, 1, 1]cpu" = dense_mask_1.sum(dim = -1)

        # File: torch/nn/attention/flex_attention.py:405 in _dense_to_ordered, code: col_indices = torch.argsort(dense_mask, dim=-1, descending=True, stable=True)
        col_indices: "i64[1, 1, 1, 1][1, 1, 1, 1]cpu" = torch.argsort(dense_mask_1, dim = -1, descending = True, stable = True);  dense_mask_1 = None

        # File: torch/nn/attention/flex_attention.py:407 in _dense_to_ordered, code: num_blocks_in_row.to(torch.int32, memory_format=torch.contiguous_format),
        q_num_blocks: "i32[1, 1, 1][1, 1, 1]cpu" = num_blocks_in_row.to(torch.int32, memory_format = torch.contiguous_format);  num_blocks_in_row = None

        # File: torch/nn/attention/flex_attention.py:408 in _dense_to_ordered, code: col_indices.to(torch.int32, memory_format=torch.contiguous_format),
        q_indices: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu" = col_indices.to(torch.int32, memory_format = torch.contiguous_format);  col_indices = None

        # File: torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        score_mod_0 = self.score_mod_0
        mask_fn_0 = self.mask_fn_0
        flex_attention = torch.ops.higher_order.flex_attention(l_q_, l_q_, l_q_, score_mod_0, (1, 1, child, child_1, None, None, q_num_blocks, q_indices, None, None, 1073741824, 1073741824, mask_fn_0), 0.35355339059327373, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': False, 'OUTPUT_MAX': False}, (), ());  l_q_ = score_mod_0 = child = child_1 = q_num_blocks = q_indices = mask_fn_0 = None
        out_1: "f32[1, 2, 16, 8][256, 128, 8, 1]cpu" = flex_attention[0];  flex_attention = None
        return (out_1,)

    class score_mod_0(torch.nn.Module):
        def forward(self, child: "f32[][]cpu", child_1: "i32[][]cpu", child_2: "i32[][]cpu", child_3: "i32[][]cpu", child_4: "i32[][]cpu"):
            # File: tools/capture/dynamo_grammar_samples.py:80 in score_mod, code: return score + (q - kv)
            sub: "i32[][]cpu" = child_3 - child_4;  child_3 = child_4 = None
            add: "f32[][]cpu" = child + sub;  child = sub = None
            return add

    class mask_fn_0(torch.nn.Module):
        def forward(self, child: "i32[][]cpu", child_1: "i32[][]cpu", child_2: "i32[][]cpu", child_3: "i32[][]cpu"):
            # File: torch/nn/attention/flex_attention.py:338 in noop_mask, code: return batch.new_ones(size=(), dtype=torch.bool, device=batch.device)
            new_ones: "b8[][]cpu" = child.new_ones(size = (), dtype = torch.bool, device = device(type='cpu'));  child = None
            return new_ones
