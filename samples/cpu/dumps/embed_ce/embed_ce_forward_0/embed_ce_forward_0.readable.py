class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[100, 16][16, 1]cpu", primals_2: "i64[4, 8][8, 1]cpu", primals_3: "f32[100, 16][16, 1]cpu", primals_4: "f32[100][1]cpu", primals_5: "i64[4, 8][8, 1]cpu"):
        # File: tools/capture/make_samples.py:68 in forward, code: logits = self.head(self.emb(idx))
        embedding: "f32[4, 8, 16][128, 16, 1]cpu" = torch.ops.aten.embedding.default(primals_1, primals_2);  primals_1 = None
        view: "f32[32, 16][16, 1]cpu" = torch.ops.aten.view.default(embedding, [32, 16]);  embedding = None
        t: "f32[16, 100][1, 16]cpu" = torch.ops.aten.t.default(primals_3);  primals_3 = None
        addmm: "f32[32, 100][100, 1]cpu" = torch.ops.aten.addmm.default(primals_4, view, t);  primals_4 = None
        view_1: "f32[4, 8, 100][800, 100, 1]cpu" = torch.ops.aten.view.default(addmm, [4, 8, 100]);  addmm = None

        # File: tools/capture/make_samples.py:69 in forward, code: return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        view_2: "f32[32, 100][100, 1]cpu" = torch.ops.aten.view.default(view_1, [-1, 100]);  view_1 = None
        view_3: "i64[32][1]cpu" = torch.ops.aten.view.default(primals_5, [-1]);  primals_5 = None
        _log_softmax: "f32[32, 100][100, 1]cpu" = torch.ops.aten._log_softmax.default(view_2, 1, False);  view_2 = None
        alias: "f32[32, 100][100, 1]cpu" = torch.ops.aten.alias.default(_log_softmax)
        nll_loss_forward = torch.ops.aten.nll_loss_forward.default(_log_softmax, view_3, None, 1, -100)
        getitem: "f32[][]cpu" = nll_loss_forward[0]
        getitem_1: "f32[][]cpu" = nll_loss_forward[1];  nll_loss_forward = None
        return (getitem, primals_2, view, t, view_3, _log_softmax, alias, getitem_1)
