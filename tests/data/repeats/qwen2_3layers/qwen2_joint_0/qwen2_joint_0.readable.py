class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "i64[2, 16][16, 1]cpu"; primals_2: "f32[256, 64][64, 1]cpu"; primals_3: "f32[8][1]cpu"; primals_4: "f32[64][1]cpu"; primals_5: "f32[64, 64][64, 1]cpu"; primals_6: "f32[64][1]cpu"; primals_7: "f32[32, 64][64, 1]cpu"; primals_8: "f32[32][1]cpu"; primals_9: "f32[32, 64][64, 1]cpu"; primals_10: "f32[32][1]cpu"; primals_11: "f32[64, 64][64, 1]cpu"; primals_12: "f32[64][1]cpu"; primals_13: "f32[128, 64][64, 1]cpu"; primals_14: "f32[128, 64][64, 1]cpu"; primals_15: "f32[64, 128][128, 1]cpu"; primals_16: "f32[64][1]cpu"; primals_17: "f32[64, 64][64, 1]cpu"; primals_18: "f32[64][1]cpu"; primals_19: "f32[32, 64][64, 1]cpu"; primals_20: "f32[32][1]cpu"; primals_21: "f32[32, 64][64, 1]cpu"; primals_22: "f32[32][1]cpu"; primals_23: "f32[64, 64][64, 1]cpu"; primals_24: "f32[64][1]cpu"; primals_25: "f32[128, 64][64, 1]cpu"; primals_26: "f32[128, 64][64, 1]cpu"; primals_27: "f32[64, 128][128, 1]cpu"; primals_28: "f32[64][1]cpu"; primals_29: "f32[64, 64][64, 1]cpu"; primals_30: "f32[64][1]cpu"; primals_31: "f32[32, 64][64, 1]cpu"; primals_32: "f32[32][1]cpu"; primals_33: "f32[32, 64][64, 1]cpu"; primals_34: "f32[32][1]cpu"; primals_35: "f32[64, 64][64, 1]cpu"; primals_36: "f32[64][1]cpu"; primals_37: "f32[128, 64][64, 1]cpu"; primals_38: "f32[128, 64][64, 1]cpu"; primals_39: "f32[64, 128][128, 1]cpu"; primals_40: "f32[64][1]cpu"; primals_41: "f32[256, 64][64, 1]cpu"; tangents_1: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_2: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_3: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_4: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_5: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_6: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu"; tangents_7: "f32[][]cpu"; tangents_8: "f32[2, 16, 256][4096, 256, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, primals_25, primals_26, primals_27, primals_28, primals_29, primals_30, primals_31, primals_32, primals_33, primals_34, primals_35, primals_36, primals_37, primals_38, primals_39, primals_40, primals_41, tangents_1, tangents_2, tangents_3, tangents_4, tangents_5, tangents_6, tangents_7, tangents_8, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:356 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        embedding: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.embedding.default(primals_2, primals_1);  primals_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:363 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16][1]cpu" = torch.ops.aten.arange.default(16, device = device(type='cpu'), pin_memory = False)
        add: "i64[16][1]cpu" = torch.ops.aten.add.Tensor(arange, 0);  arange = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:364 in forward, code: position_ids = position_ids.unsqueeze(0)
        unsqueeze: "i64[1, 16][16, 1]cpu" = torch.ops.aten.unsqueeze.default(add, 0);  add = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_3: "i64[16][1]cpu" = torch.ops.aten.arange.default(16, device = device(type='cpu'), pin_memory = False)
        add_1: "i64[16][1]cpu" = torch.ops.aten.add.Tensor(arange_3, 0);  arange_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_4: "i64[16][1]cpu" = torch.ops.aten.arange.default(16, device = device(type='cpu'), pin_memory = False)
        add_2: "i64[16][1]cpu" = torch.ops.aten.add.Tensor(arange_4, 0);  arange_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_1: "i64[1, 16][16, 1]cpu" = torch.ops.aten.unsqueeze.default(add_1, 0);  add_1 = None
        unsqueeze_2: "i64[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 1);  unsqueeze_1 = None
        unsqueeze_3: "i64[1, 1, 16, 1][16, 16, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_4: "i64[1, 16][16, 1]cpu" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_5: "i64[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 1, 16][16, 16, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 2);  unsqueeze_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:81 in causal_mask_function, code: return kv_idx <= q_idx
        le: "b8[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.le.Tensor(unsqueeze_6, unsqueeze_3);  unsqueeze_6 = unsqueeze_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand: "b8[2, 1, 16, 16][0, 256, 16, 1]cpu" = torch.ops.aten.expand.default(le, [2, -1, 16, 16]);  le = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:92 in forward, code: inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1).to(x.device)
        unsqueeze_7: "f32[1, 8][8, 1]cpu" = torch.ops.aten.unsqueeze.default(primals_3, 0);  primals_3 = None
        unsqueeze_8: "f32[1, 8, 1][8, 1, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 2);  unsqueeze_7 = None
        expand_1: "f32[1, 8, 1][8, 1, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_8, [1, -1, 1]);  unsqueeze_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:93 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        unsqueeze_9: "i64[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        _to_copy: "f32[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten._to_copy.default(unsqueeze_9, dtype = torch.float32);  unsqueeze_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:97 in forward, code: freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        expand_2: "f32[1, 8, 1][8, 1, 1]cpu" = torch.ops.aten.expand.default(expand_1, [1, 8, 1]);  expand_1 = None
        view: "f32[1, 8, 1][8, 1, 1]cpu" = torch.ops.aten.view.default(expand_2, [1, 8, 1]);  expand_2 = None
        expand_3: "f32[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.expand.default(_to_copy, [1, 1, 16]);  _to_copy = None
        view_1: "f32[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.view.default(expand_3, [1, 1, 16]);  expand_3 = None
        bmm: "f32[1, 8, 16][128, 16, 1]cpu" = torch.ops.aten.bmm.default(view, view_1);  view = view_1 = None
        view_2: "f32[1, 8, 16][128, 16, 1]cpu" = torch.ops.aten.view.default(bmm, [1, 8, 16]);  bmm = None
        transpose: "f32[1, 16, 8][128, 1, 16]cpu" = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:98 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        cat: "f32[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.cat.default([transpose, transpose], -1);  transpose = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:99 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.cos.default(cat)
        mul: "f32[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:100 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.sin.default(cat);  cat = None
        mul_1: "f32[1, 16, 16][256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(embedding, 2)
        mean: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_3: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        alias: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt)
        mul_2: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(embedding, rsqrt)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_3: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_4, mul_2)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_3: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_3, [32, 64])
        t: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm: "f32[32, 64][64, 1]cpu" = torch.ops.aten.addmm.default(primals_6, view_3, t);  primals_6 = None
        view_4: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(addmm, [2, 16, 64]);  addmm = None
        view_5: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_4, [2, 16, -1, 16]);  view_4 = None
        transpose_1: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_5, 1, 2);  view_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_6: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_3, [32, 64])
        t_1: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_7);  primals_7 = None
        addmm_1: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_8, view_6, t_1);  primals_8 = None
        view_7: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_1, [2, 16, 32]);  addmm_1 = None
        view_8: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_7, [2, 16, -1, 16]);  view_7 = None
        transpose_2: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_8, 1, 2);  view_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_9: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_3, [32, 64]);  mul_3 = None
        t_2: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_9);  primals_9 = None
        addmm_2: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_10, view_9, t_2);  primals_10 = None
        view_10: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_2, [2, 16, 32]);  addmm_2 = None
        view_11: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_10, [2, 16, -1, 16]);  view_10 = None
        transpose_3: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_11, 1, 2);  view_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:131 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_10: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul, 1)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:132 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_11: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul_1, 1)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_4: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_1, unsqueeze_10)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_1: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_1, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_2: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_1, 3, 8, 9223372036854775807);  transpose_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_2);  slice_2 = None
        cat_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg, slice_1], -1);  neg = slice_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_5: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_11);  cat_1 = None
        add_4: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_6: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_2, unsqueeze_10)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_3: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_2, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_4: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_2, 3, 8, 9223372036854775807);  transpose_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f32[2, 2, 16, 8][256, 8, 16, 1]cpu" = torch.ops.aten.neg.default(slice_4);  slice_4 = None
        cat_2: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg_1, slice_3], -1);  neg_1 = slice_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_7: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_11);  cat_2 = None
        add_5: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant0: "f32[0][1]cpu" = self._tensor_constant0
        lift_fresh_copy: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant1: "f32[0][1]cpu" = self._tensor_constant1
        lift_fresh_copy_1: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant1);  _tensor_constant1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_3: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy, add_5], -2);  lift_fresh_copy = add_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_4: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy_1, transpose_3], -2);  lift_fresh_copy_1 = transpose_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_12: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_3, 2)
        expand_4: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_12, [2, 2, 2, 16, 16]);  unsqueeze_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_4, memory_format = torch.contiguous_format);  expand_4 = None
        _unsafe_view: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone, [2, 4, 16, 16]);  clone = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_13: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_4, 2)
        expand_5: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_13, [2, 2, 2, 16, 16]);  unsqueeze_13 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_1: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        _unsafe_view_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_1, [2, 4, 16, 16]);  clone_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        scalar_tensor: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, device = device(type='cpu'))
        scalar_tensor_1: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.where.self(expand, scalar_tensor_1, scalar_tensor);  scalar_tensor_1 = scalar_tensor = None
        _scaled_dot_product_flash_attention_for_cpu = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(add_4, _unsafe_view, _unsafe_view_1, attn_mask = where, scale = 0.25)
        getitem: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu[0]
        getitem_1: "f32[2, 4, 16][64, 1, 4]cpu" = _scaled_dot_product_flash_attention_for_cpu[1];  _scaled_dot_product_flash_attention_for_cpu = None
        alias_1: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(getitem)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_4: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.transpose.int(getitem, 1, 2);  getitem = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_12: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(transpose_4, [2, 16, -1]);  transpose_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        t_3: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_11);  primals_11 = None
        view_13: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(view_12, [32, 64]);  view_12 = None
        mm: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_13, t_3)
        _unsafe_view_2: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm, [2, 16, 64]);  mm = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:291 in forward, code: hidden_states = residual + hidden_states
        add_6: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(embedding, _unsafe_view_2);  _unsafe_view_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_6, 2)
        mean_1: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_7: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_7);  add_7 = None
        alias_2: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_1)
        mul_8: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_6, rsqrt_1)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_9: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_12, mul_8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_4: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_13);  primals_13 = None
        view_14: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_9, [32, 64])
        mm_1: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_14, t_4)
        _unsafe_view_3: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_1, [2, 16, 128]);  mm_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.silu.default(_unsafe_view_3)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_5: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_14);  primals_14 = None
        view_15: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_9, [32, 64]);  mul_9 = None
        mm_2: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_15, t_5)
        _unsafe_view_4: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_2, [2, 16, 128]);  mm_2 = None
        mul_10: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(silu, _unsafe_view_4)
        t_6: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(primals_15);  primals_15 = None
        view_16: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_10, [32, 128]);  mul_10 = None
        mm_3: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_16, t_6)
        _unsafe_view_5: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_3, [2, 16, 64]);  mm_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:297 in forward, code: hidden_states = residual + hidden_states
        add_8: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_6, _unsafe_view_5);  _unsafe_view_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_3: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_8, 2)
        mean_2: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_9: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_9);  add_9 = None
        alias_3: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_2)
        mul_11: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_8, rsqrt_2)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_12: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_16, mul_11)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_17: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_12, [32, 64])
        t_7: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_17);  primals_17 = None
        addmm_3: "f32[32, 64][64, 1]cpu" = torch.ops.aten.addmm.default(primals_18, view_17, t_7);  primals_18 = None
        view_18: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(addmm_3, [2, 16, 64]);  addmm_3 = None
        view_19: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_18, [2, 16, -1, 16]);  view_18 = None
        transpose_5: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_19, 1, 2);  view_19 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_20: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_12, [32, 64])
        t_8: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_19);  primals_19 = None
        addmm_4: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_20, view_20, t_8);  primals_20 = None
        view_21: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_4, [2, 16, 32]);  addmm_4 = None
        view_22: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_21, [2, 16, -1, 16]);  view_21 = None
        transpose_6: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_22, 1, 2);  view_22 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_23: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_12, [32, 64]);  mul_12 = None
        t_9: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_21);  primals_21 = None
        addmm_5: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_22, view_23, t_9);  primals_22 = None
        view_24: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_5, [2, 16, 32]);  addmm_5 = None
        view_25: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_24, [2, 16, -1, 16]);  view_24 = None
        transpose_7: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_25, 1, 2);  view_25 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:131 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_14: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul, 1)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:132 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_15: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul_1, 1)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_13: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_5, unsqueeze_14)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_5: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_5, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_6: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_5, 3, 8, 9223372036854775807);  transpose_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_2: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_6);  slice_6 = None
        cat_5: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg_2, slice_5], -1);  neg_2 = slice_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_14: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_5, unsqueeze_15);  cat_5 = None
        add_10: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.add.Tensor(mul_13, mul_14);  mul_13 = mul_14 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_15: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_6, unsqueeze_14)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_7: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_6, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_8: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_6, 3, 8, 9223372036854775807);  transpose_6 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "f32[2, 2, 16, 8][256, 8, 16, 1]cpu" = torch.ops.aten.neg.default(slice_8);  slice_8 = None
        cat_6: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg_3, slice_7], -1);  neg_3 = slice_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_16: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_6, unsqueeze_15);  cat_6 = None
        add_11: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.add.Tensor(mul_15, mul_16);  mul_15 = mul_16 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant2: "f32[0][1]cpu" = self._tensor_constant2
        lift_fresh_copy_2: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant2);  _tensor_constant2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant3: "f32[0][1]cpu" = self._tensor_constant3
        lift_fresh_copy_3: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant3);  _tensor_constant3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_7: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy_2, add_11], -2);  lift_fresh_copy_2 = add_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_8: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy_3, transpose_7], -2);  lift_fresh_copy_3 = transpose_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_16: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_7, 2)
        expand_6: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_16, [2, 2, 2, 16, 16]);  unsqueeze_16 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_2: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        _unsafe_view_6: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_2, [2, 4, 16, 16]);  clone_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_17: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_8, 2)
        expand_7: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_17, [2, 2, 2, 16, 16]);  unsqueeze_17 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_3: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        _unsafe_view_7: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_3, [2, 4, 16, 16]);  clone_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        scalar_tensor_2: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, device = device(type='cpu'))
        scalar_tensor_3: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_1: "f32[2, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.where.self(expand, scalar_tensor_3, scalar_tensor_2);  scalar_tensor_3 = scalar_tensor_2 = None
        _scaled_dot_product_flash_attention_for_cpu_1 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(add_10, _unsafe_view_6, _unsafe_view_7, attn_mask = where_1, scale = 0.25)
        getitem_2: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_1[0]
        getitem_3: "f32[2, 4, 16][64, 1, 4]cpu" = _scaled_dot_product_flash_attention_for_cpu_1[1];  _scaled_dot_product_flash_attention_for_cpu_1 = None
        alias_4: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(getitem_2)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_8: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.transpose.int(getitem_2, 1, 2);  getitem_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_26: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(transpose_8, [2, 16, -1]);  transpose_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        t_10: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_23);  primals_23 = None
        view_27: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(view_26, [32, 64]);  view_26 = None
        mm_4: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_27, t_10)
        _unsafe_view_8: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_4, [2, 16, 64]);  mm_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:291 in forward, code: hidden_states = residual + hidden_states
        add_12: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_8, _unsafe_view_8);  _unsafe_view_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_4: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_12, 2)
        mean_3: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_13: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_13);  add_13 = None
        alias_5: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_3)
        mul_17: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_12, rsqrt_3)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_18: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_24, mul_17)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_11: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_25);  primals_25 = None
        view_28: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_18, [32, 64])
        mm_5: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_28, t_11)
        _unsafe_view_9: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_5, [2, 16, 128]);  mm_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu_1: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.silu.default(_unsafe_view_9)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_12: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_26);  primals_26 = None
        view_29: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_18, [32, 64]);  mul_18 = None
        mm_6: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_29, t_12)
        _unsafe_view_10: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_6, [2, 16, 128]);  mm_6 = None
        mul_19: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(silu_1, _unsafe_view_10)
        t_13: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(primals_27);  primals_27 = None
        view_30: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_19, [32, 128]);  mul_19 = None
        mm_7: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_30, t_13)
        _unsafe_view_11: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_7, [2, 16, 64]);  mm_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:297 in forward, code: hidden_states = residual + hidden_states
        add_14: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_12, _unsafe_view_11);  _unsafe_view_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_5: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_14, 2)
        mean_4: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_15: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_15);  add_15 = None
        alias_6: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_4)
        mul_20: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_14, rsqrt_4)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_21: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_28, mul_20)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_31: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_21, [32, 64])
        t_14: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_29);  primals_29 = None
        addmm_6: "f32[32, 64][64, 1]cpu" = torch.ops.aten.addmm.default(primals_30, view_31, t_14);  primals_30 = None
        view_32: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(addmm_6, [2, 16, 64]);  addmm_6 = None
        view_33: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_32, [2, 16, -1, 16]);  view_32 = None
        transpose_9: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_33, 1, 2);  view_33 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_34: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_21, [32, 64])
        t_15: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_31);  primals_31 = None
        addmm_7: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_32, view_34, t_15);  primals_32 = None
        view_35: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_7, [2, 16, 32]);  addmm_7 = None
        view_36: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_35, [2, 16, -1, 16]);  view_35 = None
        transpose_10: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_36, 1, 2);  view_36 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_37: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_21, [32, 64]);  mul_21 = None
        t_16: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(primals_33);  primals_33 = None
        addmm_8: "f32[32, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_34, view_37, t_16);  primals_34 = None
        view_38: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten.view.default(addmm_8, [2, 16, 32]);  addmm_8 = None
        view_39: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.view.default(view_38, [2, 16, -1, 16]);  view_38 = None
        transpose_11: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.transpose.int(view_39, 1, 2);  view_39 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:131 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_18: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul, 1);  mul = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:132 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_19: "f32[1, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(mul_1, 1);  mul_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_22: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_9, unsqueeze_18)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_9: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_9, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_10: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_9, 3, 8, 9223372036854775807);  transpose_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_4: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_10);  slice_10 = None
        cat_9: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg_4, slice_9], -1);  neg_4 = slice_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_23: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_9, unsqueeze_19);  cat_9 = None
        add_16: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.add.Tensor(mul_22, mul_23);  mul_22 = mul_23 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_24: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.mul.Tensor(transpose_10, unsqueeze_18)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_11: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_10, 3, 0, 8)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_12: "f32[2, 2, 16, 8][512, 16, 32, 1]cpu" = torch.ops.aten.slice.Tensor(transpose_10, 3, 8, 9223372036854775807);  transpose_10 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_5: "f32[2, 2, 16, 8][256, 8, 16, 1]cpu" = torch.ops.aten.neg.default(slice_12);  slice_12 = None
        cat_10: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([neg_5, slice_11], -1);  neg_5 = slice_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_25: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(cat_10, unsqueeze_19);  cat_10 = None
        add_17: "f32[2, 2, 16, 16][512, 16, 32, 1]cpu" = torch.ops.aten.add.Tensor(mul_24, mul_25);  mul_24 = mul_25 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant4: "f32[0][1]cpu" = self._tensor_constant4
        lift_fresh_copy_4: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant4);  _tensor_constant4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant5: "f32[0][1]cpu" = self._tensor_constant5
        lift_fresh_copy_5: "f32[0][1]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant5);  _tensor_constant5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_11: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy_4, add_17], -2);  lift_fresh_copy_4 = add_17 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_12: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.cat.default([lift_fresh_copy_5, transpose_11], -2);  lift_fresh_copy_5 = transpose_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_20: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_11, 2)
        expand_8: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_20, [2, 2, 2, 16, 16]);  unsqueeze_20 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_4: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_8, memory_format = torch.contiguous_format);  expand_8 = None
        _unsafe_view_12: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_4, [2, 4, 16, 16]);  clone_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_21: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(cat_12, 2)
        expand_9: "f32[2, 2, 2, 16, 16][512, 256, 0, 16, 1]cpu" = torch.ops.aten.expand.default(unsqueeze_21, [2, 2, 2, 16, 16]);  unsqueeze_21 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_5: "f32[2, 2, 2, 16, 16][1024, 512, 256, 16, 1]cpu" = torch.ops.aten.clone.default(expand_9, memory_format = torch.contiguous_format);  expand_9 = None
        _unsafe_view_13: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_5, [2, 4, 16, 16]);  clone_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        scalar_tensor_4: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, device = device(type='cpu'))
        scalar_tensor_5: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_2: "f32[2, 1, 16, 16][256, 256, 16, 1]cpu" = torch.ops.aten.where.self(expand, scalar_tensor_5, scalar_tensor_4);  expand = scalar_tensor_5 = scalar_tensor_4 = None
        _scaled_dot_product_flash_attention_for_cpu_2 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(add_16, _unsafe_view_12, _unsafe_view_13, attn_mask = where_2, scale = 0.25)
        getitem_4: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_2[0]
        getitem_5: "f32[2, 4, 16][64, 1, 4]cpu" = _scaled_dot_product_flash_attention_for_cpu_2[1];  _scaled_dot_product_flash_attention_for_cpu_2 = None
        alias_7: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(getitem_4)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_12: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.transpose.int(getitem_4, 1, 2);  getitem_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_40: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(transpose_12, [2, 16, -1]);  transpose_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        t_17: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(primals_35);  primals_35 = None
        view_41: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(view_40, [32, 64]);  view_40 = None
        mm_8: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_41, t_17)
        _unsafe_view_14: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_8, [2, 16, 64]);  mm_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:291 in forward, code: hidden_states = residual + hidden_states
        add_18: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_14, _unsafe_view_14);  _unsafe_view_14 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_6: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_18, 2)
        mean_5: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_6, [-1], True);  pow_6 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_19: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_5, 1e-06);  mean_5 = None
        rsqrt_5: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_19);  add_19 = None
        alias_8: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_5)
        mul_26: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_18, rsqrt_5)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_27: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_36, mul_26)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_18: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_37);  primals_37 = None
        view_42: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_27, [32, 64])
        mm_9: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_42, t_18)
        _unsafe_view_15: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_9, [2, 16, 128]);  mm_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu_2: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.silu.default(_unsafe_view_15)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_19: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(primals_38);  primals_38 = None
        view_43: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(mul_27, [32, 64]);  mul_27 = None
        mm_10: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_43, t_19)
        _unsafe_view_16: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_10, [2, 16, 128]);  mm_10 = None
        mul_28: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(silu_2, _unsafe_view_16)
        t_20: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(primals_39);  primals_39 = None
        view_44: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_28, [32, 128]);  mul_28 = None
        mm_11: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_44, t_20)
        _unsafe_view_17: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_11, [2, 16, 64]);  mm_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:297 in forward, code: hidden_states = residual + hidden_states
        add_20: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_18, _unsafe_view_17);  _unsafe_view_17 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_7: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_20, 2)
        mean_6: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mean.dim(pow_7, [-1], True);  pow_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_21: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.add.Tensor(mean_6, 1e-06);  mean_6 = None
        rsqrt_6: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.rsqrt.default(add_21);  add_21 = None
        alias_9: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(rsqrt_6)
        mul_29: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_20, rsqrt_6)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_30: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(primals_40, mul_29)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:465 in forward, code: logits = self.lm_head(hidden_states[:, slice_indices, :])
        alias_10: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.alias.default(mul_30);  mul_30 = None
        t_21: "f32[64, 256][1, 64]cpu" = torch.ops.aten.t.default(primals_41);  primals_41 = None
        view_45: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(alias_10, [32, 64]);  alias_10 = None
        mm_12: "f32[32, 256][256, 1]cpu" = torch.ops.aten.mm.default(view_45, t_21)
        _unsafe_view_18: "f32[2, 16, 256][4096, 256, 1]cpu" = torch.ops.aten._unsafe_view.default(mm_12, [2, 16, 256]);  mm_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/functional.py:5430 in pad, code: return torch._C._nn.pad(input, pad, mode, value)
        constant_pad_nd: "i64[2, 17][17, 1]cpu" = torch.ops.aten.constant_pad_nd.default(primals_1, [0, 1], -100.0)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/loss/loss_utils.py:64 in ForCausalLMLoss, code: shift_labels = labels[..., 1:].contiguous()
        slice_13: "i64[2, 16][17, 1]cpu" = torch.ops.aten.slice.Tensor(constant_pad_nd, 1, 1, 9223372036854775807);  constant_pad_nd = None
        clone_6: "i64[2, 16][16, 1]cpu" = torch.ops.aten.clone.default(slice_13, memory_format = torch.contiguous_format);  slice_13 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/loss/loss_utils.py:67 in ForCausalLMLoss, code: logits = logits.view(-1, vocab_size)
        view_46: "f32[32, 256][256, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_18, [-1, 256])

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/loss/loss_utils.py:68 in ForCausalLMLoss, code: shift_labels = shift_labels.view(-1)
        view_47: "i64[32][1]cpu" = torch.ops.aten.view.default(clone_6, [-1]);  clone_6 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/loss/loss_utils.py:40 in fixed_cross_entropy, code: loss = nn.functional.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)
        _log_softmax: "f32[32, 256][256, 1]cpu" = torch.ops.aten._log_softmax.default(view_46, 1, False);  view_46 = None
        alias_11: "f32[32, 256][256, 1]cpu" = torch.ops.aten.alias.default(_log_softmax)
        nll_loss_forward = torch.ops.aten.nll_loss_forward.default(_log_softmax, view_47, None, 1, -100)
        getitem_6: "f32[][]cpu" = nll_loss_forward[0]
        getitem_7: "f32[][]cpu" = nll_loss_forward[1];  nll_loss_forward = None
        nll_loss_backward: "f32[32, 256][256, 1]cpu" = torch.ops.aten.nll_loss_backward.default(tangents_7, _log_softmax, view_47, None, 1, -100, getitem_7);  tangents_7 = _log_softmax = view_47 = getitem_7 = None
        alias_12: "f32[32, 256][256, 1]cpu" = torch.ops.aten.alias.default(alias_11);  alias_11 = None
        _log_softmax_backward_data: "f32[32, 256][256, 1]cpu" = torch.ops.aten._log_softmax_backward_data.default(nll_loss_backward, alias_12, 1, torch.float32);  nll_loss_backward = alias_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/loss/loss_utils.py:67 in ForCausalLMLoss, code: logits = logits.view(-1, vocab_size)
        view_48: "f32[2, 16, 256][4096, 256, 1]cpu" = torch.ops.aten.view.default(_log_softmax_backward_data, [2, 16, 256]);  _log_softmax_backward_data = None
        add_22: "f32[2, 16, 256][4096, 256, 1]cpu" = torch.ops.aten.add.Tensor(tangents_8, view_48);  tangents_8 = view_48 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:465 in forward, code: logits = self.lm_head(hidden_states[:, slice_indices, :])
        view_49: "f32[32, 256][256, 1]cpu" = torch.ops.aten.view.default(add_22, [32, 256]);  add_22 = None
        t_22: "f32[256, 32][1, 256]cpu" = torch.ops.aten.t.default(view_49)
        mm_13: "f32[256, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_22, view_45);  t_22 = view_45 = None
        t_23: "f32[64, 256][1, 64]cpu" = torch.ops.aten.t.default(mm_13);  mm_13 = None
        t_24: "f32[256, 64][64, 1]cpu" = torch.ops.aten.t.default(t_21);  t_21 = None
        mm_14: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_49, t_24);  view_49 = t_24 = None
        view_50: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_14, [2, 16, 64]);  mm_14 = None
        t_25: "f32[256, 64][64, 1]cpu" = torch.ops.aten.t.default(t_23);  t_23 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_31: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(view_50, primals_40);  primals_40 = None
        mul_32: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(view_50, mul_29);  view_50 = mul_29 = None
        sum_1: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_32, [0, 1], True);  mul_32 = None
        view_51: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_1, [64]);  sum_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_33: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_31, add_20)
        mul_34: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_31, rsqrt_6);  mul_31 = rsqrt_6 = None
        sum_2: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_33, [2], True);  mul_33 = None
        alias_13: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_9);  alias_9 = None
        pow_8: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_13, 3);  alias_13 = None
        mul_35: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_2, -0.5);  sum_2 = None
        mul_36: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_35, pow_8);  mul_35 = pow_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_10: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_36, [2, 16, 64]);  mul_36 = None
        div: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_10, 64);  expand_10 = None
        pow_9: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_20, 1.0);  add_20 = None
        mul_37: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_9, 2.0);  pow_9 = None
        mul_38: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div, mul_37);  div = mul_37 = None
        add_23: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(mul_34, mul_38);  mul_34 = mul_38 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_52: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_23, [32, 64])
        t_26: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_52)
        mm_15: "f32[64, 128][128, 1]cpu" = torch.ops.aten.mm.default(t_26, view_44);  t_26 = view_44 = None
        t_27: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(mm_15);  mm_15 = None
        t_28: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_20);  t_20 = None
        mm_16: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_52, t_28);  view_52 = t_28 = None
        view_53: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.view.default(mm_16, [2, 16, 128]);  mm_16 = None
        t_29: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_27);  t_27 = None
        mul_39: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_53, silu_2);  silu_2 = None
        mul_40: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_53, _unsafe_view_16);  view_53 = _unsafe_view_16 = None
        view_54: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_39, [32, 128]);  mul_39 = None
        t_30: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_54)
        mm_17: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_30, view_43);  t_30 = view_43 = None
        t_31: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_17);  mm_17 = None
        t_32: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_19);  t_19 = None
        mm_18: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_54, t_32);  view_54 = t_32 = None
        view_55: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_18, [2, 16, 64]);  mm_18 = None
        t_33: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_31);  t_31 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        neg_6: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.neg.default(_unsafe_view_15)
        exp: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.exp.default(neg_6);  neg_6 = None
        add_24: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(exp, 1);  exp = None
        reciprocal: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.reciprocal.default(add_24);  add_24 = None
        mul_41: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(reciprocal, 1);  reciprocal = None
        mul_42: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_40, mul_41);  mul_40 = None
        rsub: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.rsub.Scalar(mul_41, 1);  mul_41 = None
        mul_43: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(_unsafe_view_15, rsub);  _unsafe_view_15 = rsub = None
        add_25: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(mul_43, 1);  mul_43 = None
        mul_44: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_42, add_25);  mul_42 = add_25 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_56: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_44, [32, 128]);  mul_44 = None
        t_34: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_56)
        mm_19: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_34, view_42);  t_34 = view_42 = None
        t_35: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_19);  mm_19 = None
        t_36: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_18);  t_18 = None
        mm_20: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_56, t_36);  view_56 = t_36 = None
        view_57: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_20, [2, 16, 64]);  mm_20 = None
        add_26: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_55, view_57);  view_55 = view_57 = None
        t_37: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_35);  t_35 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_45: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_26, primals_36);  primals_36 = None
        mul_46: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_26, mul_26);  add_26 = mul_26 = None
        sum_3: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_46, [0, 1], True);  mul_46 = None
        view_58: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_3, [64]);  sum_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_47: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_45, add_18)
        mul_48: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_45, rsqrt_5);  mul_45 = rsqrt_5 = None
        sum_4: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_47, [2], True);  mul_47 = None
        add_27: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_23, mul_48);  add_23 = mul_48 = None
        alias_14: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_8);  alias_8 = None
        pow_10: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_14, 3);  alias_14 = None
        mul_49: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_4, -0.5);  sum_4 = None
        mul_50: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_49, pow_10);  mul_49 = pow_10 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_11: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_50, [2, 16, 64]);  mul_50 = None
        div_1: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_11, 64);  expand_11 = None
        pow_11: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_18, 1.0);  add_18 = None
        mul_51: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_11, 2.0);  pow_11 = None
        mul_52: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_1, mul_51);  div_1 = mul_51 = None
        add_28: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_27, mul_52);  add_27 = mul_52 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        view_59: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_28, [32, 64])
        t_38: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_59)
        mm_21: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_38, view_41);  t_38 = view_41 = None
        t_39: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_21);  mm_21 = None
        t_40: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_17);  t_17 = None
        mm_22: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_59, t_40);  view_59 = t_40 = None
        view_60: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_22, [2, 16, 64]);  mm_22 = None
        t_41: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_39);  t_39 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_61: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_60, [2, 16, 4, 16]);  view_60 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_13: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_61, 1, 2);  view_61 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        alias_15: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(alias_7);  alias_7 = None
        _scaled_dot_product_flash_attention_for_cpu_backward = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default(transpose_13, add_16, _unsafe_view_12, _unsafe_view_13, alias_15, getitem_5, 0.0, False, attn_mask = where_2, scale = 0.25);  transpose_13 = add_16 = _unsafe_view_12 = _unsafe_view_13 = alias_15 = getitem_5 = where_2 = None
        getitem_8: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward[0]
        getitem_9: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward[1]
        getitem_10: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward[2];  _scaled_dot_product_flash_attention_for_cpu_backward = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_62: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_10, [2, 2, 2, 16, 16]);  getitem_10 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_5: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_62, [2], True);  view_62 = None
        squeeze: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_5, 2);  sum_5 = None
        add_29: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_5, squeeze);  tangents_5 = squeeze = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_63: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_9, [2, 2, 2, 16, 16]);  getitem_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_6: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_63, [2], True);  view_63 = None
        squeeze_1: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_6, 2);  sum_6 = None
        add_30: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_6, squeeze_1);  tangents_6 = squeeze_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        slice_14: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_29, 2, 0, 16);  add_29 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        slice_15: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_30, 2, 0, 16);  add_30 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_53: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_15, unsqueeze_19)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_16: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_53, 3, 0, 8)
        slice_17: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_53, 3, 8, 16);  mul_53 = None
        neg_7: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu" = torch.ops.aten.neg.default(slice_16);  slice_16 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_7, [2, 2, 16, 16], 3, 8, 9223372036854775807, 1);  neg_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_1: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_17, [2, 2, 16, 16], 3, 0, 8, 1);  slice_17 = None
        add_31: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward, slice_backward_1);  slice_backward = slice_backward_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_54: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_15, unsqueeze_18);  slice_15 = None
        add_32: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_31, mul_54);  add_31 = mul_54 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_55: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_8, unsqueeze_19);  unsqueeze_19 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_18: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_55, 3, 0, 8)
        slice_19: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_55, 3, 8, 16);  mul_55 = None
        neg_8: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_18);  slice_18 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_8, [2, 4, 16, 16], 3, 8, 9223372036854775807, 1);  neg_8 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_3: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_19, [2, 4, 16, 16], 3, 0, 8, 1);  slice_19 = None
        add_33: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward_2, slice_backward_3);  slice_backward_2 = slice_backward_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_56: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_8, unsqueeze_18);  getitem_8 = unsqueeze_18 = None
        add_34: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_33, mul_56);  add_33 = mul_56 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_14: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(slice_14, 1, 2);  slice_14 = None
        clone_7: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_14, memory_format = torch.contiguous_format);  transpose_14 = None
        _unsafe_view_19: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_7, [2, 16, 32]);  clone_7 = None
        view_64: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_19, [32, 32]);  _unsafe_view_19 = None
        t_42: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_16);  t_16 = None
        mm_23: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_64, t_42);  t_42 = None
        t_43: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_64)
        mm_24: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_43, view_37);  t_43 = view_37 = None
        t_44: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_24);  mm_24 = None
        sum_7: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_64, [0], True);  view_64 = None
        view_65: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_7, [32]);  sum_7 = None
        t_45: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_44);  t_44 = None
        view_66: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_23, [2, 16, 64]);  mm_23 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_15: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_32, 1, 2);  add_32 = None
        clone_8: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_15, memory_format = torch.contiguous_format);  transpose_15 = None
        _unsafe_view_20: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_8, [2, 16, 32]);  clone_8 = None
        view_67: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_20, [32, 32]);  _unsafe_view_20 = None
        t_46: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_15);  t_15 = None
        mm_25: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_67, t_46);  t_46 = None
        t_47: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_67)
        mm_26: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_47, view_34);  t_47 = view_34 = None
        t_48: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_26);  mm_26 = None
        sum_8: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_67, [0], True);  view_67 = None
        view_68: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_8, [32]);  sum_8 = None
        t_49: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_48);  t_48 = None
        view_69: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_25, [2, 16, 64]);  mm_25 = None
        add_35: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_66, view_69);  view_66 = view_69 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_16: "f32[2, 16, 4, 16][1024, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_34, 1, 2);  add_34 = None
        clone_9: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_16, memory_format = torch.contiguous_format);  transpose_16 = None
        _unsafe_view_21: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_9, [2, 16, 64]);  clone_9 = None
        view_70: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_21, [32, 64]);  _unsafe_view_21 = None
        t_50: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_14);  t_14 = None
        mm_27: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_70, t_50);  t_50 = None
        t_51: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_70)
        mm_28: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_51, view_31);  t_51 = view_31 = None
        t_52: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_28);  mm_28 = None
        sum_9: "f32[1, 64][64, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_70, [0], True);  view_70 = None
        view_71: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_9, [64]);  sum_9 = None
        t_53: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_52);  t_52 = None
        view_72: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_27, [2, 16, 64]);  mm_27 = None
        add_36: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_35, view_72);  add_35 = view_72 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_57: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_36, primals_28);  primals_28 = None
        mul_58: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_36, mul_20);  add_36 = mul_20 = None
        sum_10: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_58, [0, 1], True);  mul_58 = None
        view_73: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_10, [64]);  sum_10 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_59: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_57, add_14)
        mul_60: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_57, rsqrt_4);  mul_57 = rsqrt_4 = None
        sum_11: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_59, [2], True);  mul_59 = None
        add_37: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_28, mul_60);  add_28 = mul_60 = None
        alias_16: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_6);  alias_6 = None
        pow_12: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_16, 3);  alias_16 = None
        mul_61: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_11, -0.5);  sum_11 = None
        mul_62: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_61, pow_12);  mul_61 = pow_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_12: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_62, [2, 16, 64]);  mul_62 = None
        div_2: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_12, 64);  expand_12 = None
        pow_13: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_14, 1.0);  add_14 = None
        mul_63: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_13, 2.0);  pow_13 = None
        mul_64: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_2, mul_63);  div_2 = mul_63 = None
        add_38: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_37, mul_64);  add_37 = mul_64 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_74: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_38, [32, 64])
        t_54: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_74)
        mm_29: "f32[64, 128][128, 1]cpu" = torch.ops.aten.mm.default(t_54, view_30);  t_54 = view_30 = None
        t_55: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(mm_29);  mm_29 = None
        t_56: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_13);  t_13 = None
        mm_30: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_74, t_56);  view_74 = t_56 = None
        view_75: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.view.default(mm_30, [2, 16, 128]);  mm_30 = None
        t_57: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_55);  t_55 = None
        mul_65: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_75, silu_1);  silu_1 = None
        mul_66: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_75, _unsafe_view_10);  view_75 = _unsafe_view_10 = None
        view_76: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_65, [32, 128]);  mul_65 = None
        t_58: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_76)
        mm_31: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_58, view_29);  t_58 = view_29 = None
        t_59: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_31);  mm_31 = None
        t_60: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_12);  t_12 = None
        mm_32: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_76, t_60);  view_76 = t_60 = None
        view_77: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_32, [2, 16, 64]);  mm_32 = None
        t_61: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_59);  t_59 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        neg_9: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.neg.default(_unsafe_view_9)
        exp_1: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.exp.default(neg_9);  neg_9 = None
        add_39: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(exp_1, 1);  exp_1 = None
        reciprocal_1: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.reciprocal.default(add_39);  add_39 = None
        mul_67: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(reciprocal_1, 1);  reciprocal_1 = None
        mul_68: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_66, mul_67);  mul_66 = None
        rsub_1: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.rsub.Scalar(mul_67, 1);  mul_67 = None
        mul_69: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(_unsafe_view_9, rsub_1);  _unsafe_view_9 = rsub_1 = None
        add_40: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(mul_69, 1);  mul_69 = None
        mul_70: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_68, add_40);  mul_68 = add_40 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_78: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_70, [32, 128]);  mul_70 = None
        t_62: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_78)
        mm_33: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_62, view_28);  t_62 = view_28 = None
        t_63: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_33);  mm_33 = None
        t_64: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_11);  t_11 = None
        mm_34: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_78, t_64);  view_78 = t_64 = None
        view_79: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_34, [2, 16, 64]);  mm_34 = None
        add_41: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_77, view_79);  view_77 = view_79 = None
        t_65: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_63);  t_63 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_71: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_41, primals_24);  primals_24 = None
        mul_72: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_41, mul_17);  add_41 = mul_17 = None
        sum_12: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_72, [0, 1], True);  mul_72 = None
        view_80: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_12, [64]);  sum_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_73: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_71, add_12)
        mul_74: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_71, rsqrt_3);  mul_71 = rsqrt_3 = None
        sum_13: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_73, [2], True);  mul_73 = None
        add_42: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_38, mul_74);  add_38 = mul_74 = None
        alias_17: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_5);  alias_5 = None
        pow_14: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_17, 3);  alias_17 = None
        mul_75: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_13, -0.5);  sum_13 = None
        mul_76: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_75, pow_14);  mul_75 = pow_14 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_13: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_76, [2, 16, 64]);  mul_76 = None
        div_3: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_13, 64);  expand_13 = None
        pow_15: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_12, 1.0);  add_12 = None
        mul_77: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_15, 2.0);  pow_15 = None
        mul_78: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_3, mul_77);  div_3 = mul_77 = None
        add_43: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_42, mul_78);  add_42 = mul_78 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        view_81: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_43, [32, 64])
        t_66: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_81)
        mm_35: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_66, view_27);  t_66 = view_27 = None
        t_67: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_35);  mm_35 = None
        t_68: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_10);  t_10 = None
        mm_36: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_81, t_68);  view_81 = t_68 = None
        view_82: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_36, [2, 16, 64]);  mm_36 = None
        t_69: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_67);  t_67 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_83: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_82, [2, 16, 4, 16]);  view_82 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_17: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_83, 1, 2);  view_83 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        alias_18: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(alias_4);  alias_4 = None
        _scaled_dot_product_flash_attention_for_cpu_backward_1 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default(transpose_17, add_10, _unsafe_view_6, _unsafe_view_7, alias_18, getitem_3, 0.0, False, attn_mask = where_1, scale = 0.25);  transpose_17 = add_10 = _unsafe_view_6 = _unsafe_view_7 = alias_18 = getitem_3 = where_1 = None
        getitem_11: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_1[0]
        getitem_12: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_1[1]
        getitem_13: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_1[2];  _scaled_dot_product_flash_attention_for_cpu_backward_1 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_84: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_13, [2, 2, 2, 16, 16]);  getitem_13 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_14: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_84, [2], True);  view_84 = None
        squeeze_2: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_14, 2);  sum_14 = None
        add_44: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_3, squeeze_2);  tangents_3 = squeeze_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_85: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_12, [2, 2, 2, 16, 16]);  getitem_12 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_15: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_85, [2], True);  view_85 = None
        squeeze_3: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_15, 2);  sum_15 = None
        add_45: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_4, squeeze_3);  tangents_4 = squeeze_3 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        slice_20: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_44, 2, 0, 16);  add_44 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        slice_21: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_45, 2, 0, 16);  add_45 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_79: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_21, unsqueeze_15)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_22: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_79, 3, 0, 8)
        slice_23: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_79, 3, 8, 16);  mul_79 = None
        neg_10: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu" = torch.ops.aten.neg.default(slice_22);  slice_22 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward_4: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_10, [2, 2, 16, 16], 3, 8, 9223372036854775807, 1);  neg_10 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_5: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_23, [2, 2, 16, 16], 3, 0, 8, 1);  slice_23 = None
        add_46: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward_4, slice_backward_5);  slice_backward_4 = slice_backward_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_80: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_21, unsqueeze_14);  slice_21 = None
        add_47: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_46, mul_80);  add_46 = mul_80 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_81: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_11, unsqueeze_15);  unsqueeze_15 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_24: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_81, 3, 0, 8)
        slice_25: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_81, 3, 8, 16);  mul_81 = None
        neg_11: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_24);  slice_24 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward_6: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_11, [2, 4, 16, 16], 3, 8, 9223372036854775807, 1);  neg_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_7: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_25, [2, 4, 16, 16], 3, 0, 8, 1);  slice_25 = None
        add_48: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward_6, slice_backward_7);  slice_backward_6 = slice_backward_7 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_82: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_11, unsqueeze_14);  getitem_11 = unsqueeze_14 = None
        add_49: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_48, mul_82);  add_48 = mul_82 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_18: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(slice_20, 1, 2);  slice_20 = None
        clone_10: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_18, memory_format = torch.contiguous_format);  transpose_18 = None
        _unsafe_view_22: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_10, [2, 16, 32]);  clone_10 = None
        view_86: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_22, [32, 32]);  _unsafe_view_22 = None
        t_70: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_9);  t_9 = None
        mm_37: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_86, t_70);  t_70 = None
        t_71: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_86)
        mm_38: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_71, view_23);  t_71 = view_23 = None
        t_72: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_38);  mm_38 = None
        sum_16: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_86, [0], True);  view_86 = None
        view_87: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_16, [32]);  sum_16 = None
        t_73: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_72);  t_72 = None
        view_88: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_37, [2, 16, 64]);  mm_37 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_19: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_47, 1, 2);  add_47 = None
        clone_11: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_19, memory_format = torch.contiguous_format);  transpose_19 = None
        _unsafe_view_23: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_11, [2, 16, 32]);  clone_11 = None
        view_89: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_23, [32, 32]);  _unsafe_view_23 = None
        t_74: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_8);  t_8 = None
        mm_39: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_89, t_74);  t_74 = None
        t_75: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_89)
        mm_40: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_75, view_20);  t_75 = view_20 = None
        t_76: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_40);  mm_40 = None
        sum_17: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_89, [0], True);  view_89 = None
        view_90: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_17, [32]);  sum_17 = None
        t_77: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_76);  t_76 = None
        view_91: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_39, [2, 16, 64]);  mm_39 = None
        add_50: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_88, view_91);  view_88 = view_91 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_20: "f32[2, 16, 4, 16][1024, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_49, 1, 2);  add_49 = None
        clone_12: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_20, memory_format = torch.contiguous_format);  transpose_20 = None
        _unsafe_view_24: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_12, [2, 16, 64]);  clone_12 = None
        view_92: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_24, [32, 64]);  _unsafe_view_24 = None
        t_78: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_7);  t_7 = None
        mm_41: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_92, t_78);  t_78 = None
        t_79: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_92)
        mm_42: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_79, view_17);  t_79 = view_17 = None
        t_80: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_42);  mm_42 = None
        sum_18: "f32[1, 64][64, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_92, [0], True);  view_92 = None
        view_93: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_18, [64]);  sum_18 = None
        t_81: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_80);  t_80 = None
        view_94: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_41, [2, 16, 64]);  mm_41 = None
        add_51: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_50, view_94);  add_50 = view_94 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_83: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_51, primals_16);  primals_16 = None
        mul_84: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_51, mul_11);  add_51 = mul_11 = None
        sum_19: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_84, [0, 1], True);  mul_84 = None
        view_95: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_19, [64]);  sum_19 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_85: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_83, add_8)
        mul_86: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_83, rsqrt_2);  mul_83 = rsqrt_2 = None
        sum_20: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_85, [2], True);  mul_85 = None
        add_52: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_43, mul_86);  add_43 = mul_86 = None
        alias_19: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_3);  alias_3 = None
        pow_16: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_19, 3);  alias_19 = None
        mul_87: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_20, -0.5);  sum_20 = None
        mul_88: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_87, pow_16);  mul_87 = pow_16 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_14: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_88, [2, 16, 64]);  mul_88 = None
        div_4: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_14, 64);  expand_14 = None
        pow_17: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_8, 1.0);  add_8 = None
        mul_89: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_17, 2.0);  pow_17 = None
        mul_90: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_4, mul_89);  div_4 = mul_89 = None
        add_53: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_52, mul_90);  add_52 = mul_90 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_96: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_53, [32, 64])
        t_82: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_96)
        mm_43: "f32[64, 128][128, 1]cpu" = torch.ops.aten.mm.default(t_82, view_16);  t_82 = view_16 = None
        t_83: "f32[128, 64][1, 128]cpu" = torch.ops.aten.t.default(mm_43);  mm_43 = None
        t_84: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_6);  t_6 = None
        mm_44: "f32[32, 128][128, 1]cpu" = torch.ops.aten.mm.default(view_96, t_84);  view_96 = t_84 = None
        view_97: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.view.default(mm_44, [2, 16, 128]);  mm_44 = None
        t_85: "f32[64, 128][128, 1]cpu" = torch.ops.aten.t.default(t_83);  t_83 = None
        mul_91: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_97, silu);  silu = None
        mul_92: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(view_97, _unsafe_view_4);  view_97 = _unsafe_view_4 = None
        view_98: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_91, [32, 128]);  mul_91 = None
        t_86: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_98)
        mm_45: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_86, view_15);  t_86 = view_15 = None
        t_87: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_45);  mm_45 = None
        t_88: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_5);  t_5 = None
        mm_46: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_98, t_88);  view_98 = t_88 = None
        view_99: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_46, [2, 16, 64]);  mm_46 = None
        t_89: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_87);  t_87 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        neg_12: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.neg.default(_unsafe_view_3)
        exp_2: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.exp.default(neg_12);  neg_12 = None
        add_54: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(exp_2, 1);  exp_2 = None
        reciprocal_2: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.reciprocal.default(add_54);  add_54 = None
        mul_93: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(reciprocal_2, 1);  reciprocal_2 = None
        mul_94: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_92, mul_93);  mul_92 = None
        rsub_2: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.rsub.Scalar(mul_93, 1);  mul_93 = None
        mul_95: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(_unsafe_view_3, rsub_2);  _unsafe_view_3 = rsub_2 = None
        add_55: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.add.Tensor(mul_95, 1);  mul_95 = None
        mul_96: "f32[2, 16, 128][2048, 128, 1]cpu" = torch.ops.aten.mul.Tensor(mul_94, add_55);  mul_94 = add_55 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:47 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        view_100: "f32[32, 128][128, 1]cpu" = torch.ops.aten.view.default(mul_96, [32, 128]);  mul_96 = None
        t_90: "f32[128, 32][1, 128]cpu" = torch.ops.aten.t.default(view_100)
        mm_47: "f32[128, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_90, view_14);  t_90 = view_14 = None
        t_91: "f32[64, 128][1, 64]cpu" = torch.ops.aten.t.default(mm_47);  mm_47 = None
        t_92: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_4);  t_4 = None
        mm_48: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_100, t_92);  view_100 = t_92 = None
        view_101: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_48, [2, 16, 64]);  mm_48 = None
        add_56: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_99, view_101);  view_99 = view_101 = None
        t_93: "f32[128, 64][64, 1]cpu" = torch.ops.aten.t.default(t_91);  t_91 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_97: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_56, primals_12);  primals_12 = None
        mul_98: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_56, mul_8);  add_56 = mul_8 = None
        sum_21: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_98, [0, 1], True);  mul_98 = None
        view_102: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_21, [64]);  sum_21 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_99: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_97, add_6)
        mul_100: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_97, rsqrt_1);  mul_97 = rsqrt_1 = None
        sum_22: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_99, [2], True);  mul_99 = None
        add_57: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_53, mul_100);  add_53 = mul_100 = None
        alias_20: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias_2);  alias_2 = None
        pow_18: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_20, 3);  alias_20 = None
        mul_101: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_22, -0.5);  sum_22 = None
        mul_102: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_101, pow_18);  mul_101 = pow_18 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_15: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_102, [2, 16, 64]);  mul_102 = None
        div_5: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_15, 64);  expand_15 = None
        pow_19: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(add_6, 1.0);  add_6 = None
        mul_103: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_19, 2.0);  pow_19 = None
        mul_104: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_5, mul_103);  div_5 = mul_103 = None
        add_58: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_57, mul_104);  add_57 = mul_104 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:233 in forward, code: attn_output = self.o_proj(attn_output)
        view_103: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(add_58, [32, 64])
        t_94: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_103)
        mm_49: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_94, view_13);  t_94 = view_13 = None
        t_95: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_49);  mm_49 = None
        t_96: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_3);  t_3 = None
        mm_50: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_103, t_96);  view_103 = t_96 = None
        view_104: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_50, [2, 16, 64]);  mm_50 = None
        t_97: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_95);  t_95 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:232 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_105: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.view.default(view_104, [2, 16, 4, 16]);  view_104 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:168 in sdpa_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_21: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.transpose.int(view_105, 1, 2);  view_105 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:158 in sdpa_attention_forward, code: attn_output = torch.nn.functional.scaled_dot_product_attention(
        alias_21: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        _scaled_dot_product_flash_attention_for_cpu_backward_2 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default(transpose_21, add_4, _unsafe_view, _unsafe_view_1, alias_21, getitem_1, 0.0, False, attn_mask = where, scale = 0.25);  transpose_21 = add_4 = _unsafe_view = _unsafe_view_1 = alias_21 = getitem_1 = where = None
        getitem_14: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_2[0]
        getitem_15: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_2[1]
        getitem_16: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = _scaled_dot_product_flash_attention_for_cpu_backward_2[2];  _scaled_dot_product_flash_attention_for_cpu_backward_2 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_106: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_16, [2, 2, 2, 16, 16]);  getitem_16 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_23: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_106, [2], True);  view_106 = None
        squeeze_4: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_23, 2);  sum_23 = None
        add_59: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_1, squeeze_4);  tangents_1 = squeeze_4 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:24 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        view_107: "f32[2, 2, 2, 16, 16][1024, 32, 16, 64, 1]cpu" = torch.ops.aten.view.default(getitem_15, [2, 2, 2, 16, 16]);  getitem_15 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py:23 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        sum_24: "f32[2, 2, 1, 16, 16][512, 256, 256, 16, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_107, [2], True);  view_107 = None
        squeeze_5: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.squeeze.dim(sum_24, 2);  sum_24 = None
        add_60: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(tangents_2, squeeze_5);  tangents_2 = squeeze_5 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        slice_26: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_59, 2, 0, 16);  add_59 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        slice_27: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(add_60, 2, 0, 16);  add_60 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_105: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_27, unsqueeze_11)

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_28: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_105, 3, 0, 8)
        slice_29: "f32[2, 2, 16, 8][512, 256, 16, 1]cpu" = torch.ops.aten.slice.Tensor(mul_105, 3, 8, 16);  mul_105 = None
        neg_13: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu" = torch.ops.aten.neg.default(slice_28);  slice_28 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward_8: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_13, [2, 2, 16, 16], 3, 8, 9223372036854775807, 1);  neg_13 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_9: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_29, [2, 2, 16, 16], 3, 0, 8, 1);  slice_29 = None
        add_61: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward_8, slice_backward_9);  slice_backward_8 = slice_backward_9 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:134 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_106: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.mul.Tensor(slice_27, unsqueeze_10);  slice_27 = None
        add_62: "f32[2, 2, 16, 16][512, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_61, mul_106);  add_61 = mul_106 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_107: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_14, unsqueeze_11);  unsqueeze_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:109 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        slice_30: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_107, 3, 0, 8)
        slice_31: "f32[2, 4, 16, 8][1024, 16, 64, 1]cpu" = torch.ops.aten.slice.Tensor(mul_107, 3, 8, 16);  mul_107 = None
        neg_14: "f32[2, 4, 16, 8][512, 8, 32, 1]cpu" = torch.ops.aten.neg.default(slice_30);  slice_30 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:108 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_backward_10: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(neg_14, [2, 4, 16, 16], 3, 8, 9223372036854775807, 1);  neg_14 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:107 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_backward_11: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.slice_backward.default(slice_31, [2, 4, 16, 16], 3, 0, 8, 1);  slice_31 = None
        add_63: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(slice_backward_10, slice_backward_11);  slice_backward_10 = slice_backward_11 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:133 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_108: "f32[2, 4, 16, 16][1024, 16, 64, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_14, unsqueeze_10);  getitem_14 = unsqueeze_10 = None
        add_64: "f32[2, 4, 16, 16][1024, 256, 16, 1]cpu" = torch.ops.aten.add.Tensor(add_63, mul_108);  add_63 = mul_108 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:208 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_22: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(slice_26, 1, 2);  slice_26 = None
        clone_13: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_22, memory_format = torch.contiguous_format);  transpose_22 = None
        _unsafe_view_25: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_13, [2, 16, 32]);  clone_13 = None
        view_108: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_25, [32, 32]);  _unsafe_view_25 = None
        t_98: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_2);  t_2 = None
        mm_51: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_108, t_98);  t_98 = None
        t_99: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_108)
        mm_52: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_99, view_9);  t_99 = view_9 = None
        t_100: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_52);  mm_52 = None
        sum_25: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_108, [0], True);  view_108 = None
        view_109: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_25, [32]);  sum_25 = None
        t_101: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_100);  t_100 = None
        view_110: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_51, [2, 16, 64]);  mm_51 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:207 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_23: "f32[2, 16, 2, 16][512, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_62, 1, 2);  add_62 = None
        clone_14: "f32[2, 16, 2, 16][512, 32, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_23, memory_format = torch.contiguous_format);  transpose_23 = None
        _unsafe_view_26: "f32[2, 16, 32][512, 32, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_14, [2, 16, 32]);  clone_14 = None
        view_111: "f32[32, 32][32, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_26, [32, 32]);  _unsafe_view_26 = None
        t_102: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_53: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_111, t_102);  t_102 = None
        t_103: "f32[32, 32][1, 32]cpu" = torch.ops.aten.t.default(view_111)
        mm_54: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_103, view_6);  t_103 = view_6 = None
        t_104: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(mm_54);  mm_54 = None
        sum_26: "f32[1, 32][32, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_111, [0], True);  view_111 = None
        view_112: "f32[32][1]cpu" = torch.ops.aten.view.default(sum_26, [32]);  sum_26 = None
        t_105: "f32[32, 64][64, 1]cpu" = torch.ops.aten.t.default(t_104);  t_104 = None
        view_113: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_53, [2, 16, 64]);  mm_53 = None
        add_65: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(view_110, view_113);  view_110 = view_113 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:206 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        transpose_24: "f32[2, 16, 4, 16][1024, 16, 256, 1]cpu" = torch.ops.aten.transpose.int(add_64, 1, 2);  add_64 = None
        clone_15: "f32[2, 16, 4, 16][1024, 64, 16, 1]cpu" = torch.ops.aten.clone.default(transpose_24, memory_format = torch.contiguous_format);  transpose_24 = None
        _unsafe_view_27: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten._unsafe_view.default(clone_15, [2, 16, 64]);  clone_15 = None
        view_114: "f32[32, 64][64, 1]cpu" = torch.ops.aten.view.default(_unsafe_view_27, [32, 64]);  _unsafe_view_27 = None
        t_106: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t);  t = None
        mm_55: "f32[32, 64][64, 1]cpu" = torch.ops.aten.mm.default(view_114, t_106);  t_106 = None
        t_107: "f32[64, 32][1, 64]cpu" = torch.ops.aten.t.default(view_114)
        mm_56: "f32[64, 64][64, 1]cpu" = torch.ops.aten.mm.default(t_107, view_3);  t_107 = view_3 = None
        t_108: "f32[64, 64][1, 64]cpu" = torch.ops.aten.t.default(mm_56);  mm_56 = None
        sum_27: "f32[1, 64][64, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_114, [0], True);  view_114 = None
        view_115: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_27, [64]);  sum_27 = None
        t_109: "f32[64, 64][64, 1]cpu" = torch.ops.aten.t.default(t_108);  t_108 = None
        view_116: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.view.default(mm_55, [2, 16, 64]);  mm_55 = None
        add_66: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_65, view_116);  add_65 = view_116 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:252 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_109: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_66, primals_4);  primals_4 = None
        mul_110: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(add_66, mul_2);  add_66 = mul_2 = None
        sum_28: "f32[1, 1, 64][64, 64, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_110, [0, 1], True);  mul_110 = None
        view_117: "f32[64][1]cpu" = torch.ops.aten.view.default(sum_28, [64]);  sum_28 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:251 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        mul_111: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_109, embedding)
        mul_112: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(mul_109, rsqrt);  mul_109 = rsqrt = None
        sum_29: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.sum.dim_IntList(mul_111, [2], True);  mul_111 = None
        add_67: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_58, mul_112);  add_58 = mul_112 = None
        alias_22: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        pow_20: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(alias_22, 3);  alias_22 = None
        mul_113: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Scalar(sum_29, -0.5);  sum_29 = None
        mul_114: "f32[2, 16, 1][16, 1, 1]cpu" = torch.ops.aten.mul.Tensor(mul_113, pow_20);  mul_113 = pow_20 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:250 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        expand_16: "f32[2, 16, 64][16, 1, 0]cpu" = torch.ops.aten.expand.default(mul_114, [2, 16, 64]);  mul_114 = None
        div_6: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.div.Scalar(expand_16, 64);  expand_16 = None
        pow_21: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.pow.Tensor_Scalar(embedding, 1.0);  embedding = None
        mul_115: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Scalar(pow_21, 2.0);  pow_21 = None
        mul_116: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.mul.Tensor(div_6, mul_115);  div_6 = mul_115 = None
        add_68: "f32[2, 16, 64][1024, 64, 1]cpu" = torch.ops.aten.add.Tensor(add_67, mul_116);  add_67 = mul_116 = None

        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/transformers/models/qwen2/modeling_qwen2.py:356 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        embedding_dense_backward: "f32[256, 64][64, 1]cpu" = torch.ops.aten.embedding_dense_backward.default(add_68, primals_1, 256, -1, False);  add_68 = primals_1 = None
        return pytree.tree_unflatten([cat_4, cat_3, cat_8, cat_7, cat_12, cat_11, getitem_6, _unsafe_view_18, None, embedding_dense_backward, None, view_117, t_109, view_115, t_105, view_112, t_101, view_109, t_97, view_102, t_93, t_89, t_85, view_95, t_81, view_93, t_77, view_90, t_73, view_87, t_69, view_80, t_65, t_61, t_57, view_73, t_53, view_71, t_49, view_68, t_45, view_65, t_41, view_58, t_37, t_33, t_29, view_51, t_25], self._out_spec)
