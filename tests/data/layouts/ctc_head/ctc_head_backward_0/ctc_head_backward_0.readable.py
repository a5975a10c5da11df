class GraphModule(torch.nn.Module):
    def forward(self, alias: "f32[2, 12, 16][192, 16, 1]cpu", tangents_1: "f32[12, 2, 16][32, 16, 1]cpu"):
        # File: /work/wt-gaps21/tests/data/layouts/make_log_softmax.py:26 in ctc_head, code: log_probs = torch.nn.functional.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)
        transpose_1: "f32[2, 12, 16][16, 32, 1]cpu" = torch.ops.aten.transpose.int(tangents_1, 0, 1);  tangents_1 = None
        alias_1: "f32[2, 12, 16][192, 16, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        _log_softmax_backward_data: "f32[2, 12, 16][16, 32, 1]cpu" = torch.ops.aten._log_softmax_backward_data.default(transpose_1, alias_1, -1, torch.float32);  transpose_1 = alias_1 = None
        return (_log_softmax_backward_data,)
