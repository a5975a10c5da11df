
import torch
from math import inf
from math import nan
NoneType = type(None)
import torch
from torch import device
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree

from torch.nn import *
class FxModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/embed_ce/embed_ce_joint_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, tangents_1):
        embedding = torch.ops.aten.embedding.default(primals_1, primals_2);  primals_1 = None
        view = torch.ops.aten.view.default(embedding, [32, 16]);  embedding = None
        t = torch.ops.aten.t.default(primals_3);  primals_3 = None
        addmm = torch.ops.aten.addmm.default(primals_4, view, t);  primals_4 = None
        view_1 = torch.ops.aten.view.default(addmm, [4, 8, 100]);  addmm = None
        view_2 = torch.ops.aten.view.default(view_1, [-1, 100]);  view_1 = None
        view_3 = torch.ops.aten.view.default(primals_5, [-1]);  primals_5 = None
        _log_softmax = torch.ops.aten._log_softmax.default(view_2, 1, False);  view_2 = None
        alias = torch.ops.aten.alias.default(_log_softmax)
        nll_loss_forward = torch.ops.aten.nll_loss_forward.default(_log_softmax, view_3, None, 1, -100)
        getitem = nll_loss_forward[0]
        getitem_1 = nll_loss_forward[1];  nll_loss_forward = None
        nll_loss_backward = torch.ops.aten.nll_loss_backward.default(tangents_1, _log_softmax, view_3, None, 1, -100, getitem_1);  tangents_1 = _log_softmax = view_3 = getitem_1 = None
        alias_1 = torch.ops.aten.alias.default(alias);  alias = None
        _log_softmax_backward_data = torch.ops.aten._log_softmax_backward_data.default(nll_loss_backward, alias_1, 1, torch.float32);  nll_loss_backward = alias_1 = None
        view_4 = torch.ops.aten.view.default(_log_softmax_backward_data, [4, 8, 100]);  _log_softmax_backward_data = None
        view_5 = torch.ops.aten.view.default(view_4, [32, 100]);  view_4 = None
        t_1 = torch.ops.aten.t.default(t);  t = None
        mm = torch.ops.aten.mm.default(view_5, t_1);  t_1 = None
        t_2 = torch.ops.aten.t.default(view_5)
        mm_1 = torch.ops.aten.mm.default(t_2, view);  t_2 = view = None
        t_3 = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(view_5, [0], True);  view_5 = None
        view_6 = torch.ops.aten.view.default(sum_1, [100]);  sum_1 = None
        t_4 = torch.ops.aten.t.default(t_3);  t_3 = None
        view_7 = torch.ops.aten.view.default(mm, [4, 8, 16]);  mm = None
        embedding_dense_backward = torch.ops.aten.embedding_dense_backward.default(view_7, primals_2, 100, -1, False);  view_7 = primals_2 = None
        return [getitem, embedding_dense_backward, None, t_4, view_6, None]

