
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
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/embed_ce/embed_ce_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5):
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
        return (getitem, primals_2, view, t, view_3, _log_softmax, alias, getitem_1)

