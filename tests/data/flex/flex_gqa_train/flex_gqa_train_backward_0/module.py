
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
        setattr(self, 'fw_graph0', torch.load(r'/work/main/tests/data/flex/flex_gqa_train/flex_gqa_train_backward_0/fw_graph0.pt', weights_only=False)) # GraphModule()
        setattr(self, 'joint_graph0', torch.load(r'/work/main/tests/data/flex/flex_gqa_train/flex_gqa_train_backward_0/joint_graph0.pt', weights_only=False)) # GraphModule()
        setattr(self, 'mask_graph0', torch.load(r'/work/main/tests/data/flex/flex_gqa_train/flex_gqa_train_backward_0/mask_graph0.pt', weights_only=False)) # GraphModule()
        self.load_state_dict(torch.load(r'/work/main/tests/data/flex/flex_gqa_train/flex_gqa_train_backward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, _to_copy_3, _to_copy_4, _to_copy_6, _to_copy_7, _to_copy_8, _to_copy_9, _to_copy_10, _to_copy_11, alias, alias_1, tangents_1):
        alias_2 = torch.ops.aten.alias.default(alias);  alias = None
        alias_3 = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        fw_graph0 = self.fw_graph0
        joint_graph0 = self.joint_graph0
        mask_graph0 = self.mask_graph0
        flex_attention_backward = torch.ops.higher_order.flex_attention_backward(primals_1, primals_2, primals_3, alias_2, alias_3, tangents_1, None, fw_graph0, joint_graph0, (16, 16, _to_copy_3, _to_copy_4, _to_copy_6, _to_copy_7, _to_copy_8, _to_copy_9, _to_copy_10, _to_copy_11, 128, 128, mask_graph0), 0.35355339059327373, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': False, 'OUTPUT_MAX': False}, (), ());  primals_1 = primals_2 = primals_3 = alias_2 = alias_3 = tangents_1 = fw_graph0 = joint_graph0 = _to_copy_3 = _to_copy_4 = _to_copy_6 = _to_copy_7 = _to_copy_8 = _to_copy_9 = _to_copy_10 = _to_copy_11 = mask_graph0 = None
        getitem_11 = flex_attention_backward[0]
        getitem_12 = flex_attention_backward[1]
        getitem_13 = flex_attention_backward[2];  flex_attention_backward = None
        return (getitem_11, getitem_12, getitem_13)

