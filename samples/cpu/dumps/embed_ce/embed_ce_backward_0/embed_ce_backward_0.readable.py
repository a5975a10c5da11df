class GraphModule(torch.nn.Module):
    def forward(self, primals_2: "i64[4, 8][8, 1]cpu", view: "f32[32, 16][16, 1]cpu", t: "f32[16, 100][1, 16]cpu", view_3: "i64[32][1]cpu", _log_softmax: "f32[32, 100][100, 1]cpu", alias: "f32[32, 100][100, 1]cpu", getitem_1: "f32[][]cpu", tangents_1: "f32[][]cpu"):
        # File: tools/capture/make_samples.py:69 in forward, code: return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        nll_loss_backward: "f32[32, 100][100, 1]cpu" = torch.ops.aten.nll_loss_backward.default(tangents_1, _log_softmax, view_3, None, 1, -100, getitem_1);  tangents_1 = _log_softmax = view_3 = getitem_1 = None
        alias_1: "f32[32, 100][100, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        _log_softmax_backward_data: "f32[32, 100][100, 1]cpu" = torch.ops.aten._log_softmax_backward_data.default(nll_loss_backward, alias_1, 1, torch.float32);  nll_loss_backward = alias_1 = None
        view_4: "f32[4, 8, 100][800, 100, 1]cpu" = torch.ops.aten.view.default(_log_softmax_backward_data, [4, 8, 100]);  _log_softmax_backward_data = None

        # File: tools/capture/make_samples.py:68 in forward, code: logits = self.head(self.emb(idx))
        view_5: "f32[32, 100][100, 1]cpu" = torch.ops.aten.view.default(view_4, [32, 100]);  view_4 = None
        t_1: "f32[100, 16][16, 1]cpu" = torch.ops.aten.t.default(t);  t = None
        mm: "f32[32, 16][16, 1]cpu" = torch.ops.aten.mm.default(view_5, t_1);  t_1 = None
        t_2: "f32[100, 32][1, 100]cpu" = torch.ops.aten.t.default(view_5)
        mm_1: "f32[100, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_2, view);  t_2 = view = None
        t_3: "f32[16, 100][1, 16]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1: "f32[1, 100][100, 1]cpu" = torch.ops.aten.sum.dim_IntList(view_5, [0], True);  view_5 = None
        view_6: "f32[100][1]cpu" = torch.ops.aten.view.default(sum_1, [100]);  sum_1 = None
        t_4: "f32[100, 16][16, 1]cpu" = torch.ops.aten.t.default(t_3);  t_3 = None
        view_7: "f32[4, 8, 16][128, 16, 1]cpu" = torch.ops.aten.view.default(mm, [4, 8, 16]);  mm = None
        embedding_dense_backward: "f32[100, 16][16, 1]cpu" = torch.ops.aten.embedding_dense_backward.default(view_7, primals_2, 100, -1, False);  view_7 = primals_2 = None
        return (embedding_dense_backward, None, t_4, view_6, None)
