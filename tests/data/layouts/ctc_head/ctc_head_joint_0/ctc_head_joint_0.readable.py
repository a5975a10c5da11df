class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[2, 12, 16][192, 16, 1]cpu"; tangents_1: "f32[12, 2, 16][32, 16, 1]cpu"; 

        primals_1, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /work/wt-gaps21/tests/data/layouts/make_log_softmax.py:26 in ctc_head, code: log_probs = torch.nn.functional.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)
        _log_softmax: "f32[2, 12, 16][192, 16, 1]cpu" = torch.ops.aten._log_softmax.default(primals_1, -1, False);  primals_1 = None
        alias: "f32[2, 12, 16][192, 16, 1]cpu" = torch.ops.aten.alias.default(_log_softmax)
        transpose: "f32[12, 2, 16][16, 192, 1]cpu" = torch.ops.aten.transpose.int(_log_softmax, 0, 1);  _log_softmax = None

        # File: /work/wt-gaps21/tests/data/layouts/make_log_softmax.py:27 in ctc_head, code: lengths = torch.full((logits.shape[0],), logits.shape[1], dtype=torch.long)
        full: "i64[2][1]cpu" = torch.ops.aten.full.default([2], 12, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)

        # File: /work/wt-gaps21/tests/data/layouts/make_log_softmax.py:28 in ctc_head, code: target_lengths = torch.full((logits.shape[0],), targets.shape[1], dtype=torch.long)
        full_1: "i64[2][1]cpu" = torch.ops.aten.full.default([2], 4, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)

        # File: /work/wt-gaps21/tests/data/layouts/make_log_softmax.py:26 in ctc_head, code: log_probs = torch.nn.functional.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)
        transpose_1: "f32[2, 12, 16][16, 32, 1]cpu" = torch.ops.aten.transpose.int(tangents_1, 0, 1);  tangents_1 = None
        alias_1: "f32[2, 12, 16][192, 16, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        _log_softmax_backward_data: "f32[2, 12, 16][16, 32, 1]cpu" = torch.ops.aten._log_softmax_backward_data.default(transpose_1, alias_1, -1, torch.float32);  transpose_1 = alias_1 = None
        return pytree.tree_unflatten([transpose, full, full_1, _log_softmax_backward_data], self._out_spec)
