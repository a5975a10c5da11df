
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
        self.load_state_dict(torch.load(r'tests/data/scopes/stack12/stack12_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, primals_25, primals_26, primals_27, primals_28, primals_29, primals_30, primals_31, primals_32, primals_33, primals_34, primals_35, primals_36, primals_37, primals_38, primals_39, primals_40, primals_41, primals_42, primals_43, primals_44, primals_45, primals_46, primals_47, primals_48, primals_49, primals_50, primals_51, primals_52, primals_53, primals_54, primals_55, primals_56, primals_57, primals_58, primals_59, primals_60, primals_61, primals_62, primals_63, primals_64, primals_65, primals_66, primals_67, primals_68, primals_69, primals_70, primals_71, primals_72, primals_73, primals_74, primals_75, primals_76, primals_77):
        t = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_3, t);  primals_2 = t = None
        native_layer_norm = torch.ops.aten.native_layer_norm.default(addmm, [8], primals_4, primals_5, 1e-05)
        getitem = native_layer_norm[0]
        getitem_1 = native_layer_norm[1]
        getitem_2 = native_layer_norm[2];  native_layer_norm = None
        t_1 = torch.ops.aten.t.default(primals_6);  primals_6 = None
        addmm_1 = torch.ops.aten.addmm.default(primals_7, getitem, t_1);  primals_7 = None
        relu = torch.ops.aten.relu.default(addmm_1);  addmm_1 = None
        alias = torch.ops.aten.alias.default(relu)
        t_2 = torch.ops.aten.t.default(primals_8);  primals_8 = None
        addmm_2 = torch.ops.aten.addmm.default(primals_9, relu, t_2);  primals_9 = None
        add = torch.ops.aten.add.Tensor(addmm, addmm_2);  addmm_2 = None
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add, [8], primals_10, primals_11, 1e-05)
        getitem_3 = native_layer_norm_1[0]
        getitem_4 = native_layer_norm_1[1]
        getitem_5 = native_layer_norm_1[2];  native_layer_norm_1 = None
        t_3 = torch.ops.aten.t.default(primals_12);  primals_12 = None
        addmm_3 = torch.ops.aten.addmm.default(primals_13, getitem_3, t_3);  primals_13 = None
        relu_1 = torch.ops.aten.relu.default(addmm_3);  addmm_3 = None
        alias_1 = torch.ops.aten.alias.default(relu_1)
        t_4 = torch.ops.aten.t.default(primals_14);  primals_14 = None
        addmm_4 = torch.ops.aten.addmm.default(primals_15, relu_1, t_4);  primals_15 = None
        add_1 = torch.ops.aten.add.Tensor(add, addmm_4);  addmm_4 = None
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_1, [8], primals_16, primals_17, 1e-05)
        getitem_6 = native_layer_norm_2[0]
        getitem_7 = native_layer_norm_2[1]
        getitem_8 = native_layer_norm_2[2];  native_layer_norm_2 = None
        t_5 = torch.ops.aten.t.default(primals_18);  primals_18 = None
        addmm_5 = torch.ops.aten.addmm.default(primals_19, getitem_6, t_5);  primals_19 = None
        relu_2 = torch.ops.aten.relu.default(addmm_5);  addmm_5 = None
        alias_2 = torch.ops.aten.alias.default(relu_2)
        t_6 = torch.ops.aten.t.default(primals_20);  primals_20 = None
        addmm_6 = torch.ops.aten.addmm.default(primals_21, relu_2, t_6);  primals_21 = None
        add_2 = torch.ops.aten.add.Tensor(add_1, addmm_6);  addmm_6 = None
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_2, [8], primals_22, primals_23, 1e-05)
        getitem_9 = native_layer_norm_3[0]
        getitem_10 = native_layer_norm_3[1]
        getitem_11 = native_layer_norm_3[2];  native_layer_norm_3 = None
        t_7 = torch.ops.aten.t.default(primals_24);  primals_24 = None
        addmm_7 = torch.ops.aten.addmm.default(primals_25, getitem_9, t_7);  primals_25 = None
        relu_3 = torch.ops.aten.relu.default(addmm_7);  addmm_7 = None
        alias_3 = torch.ops.aten.alias.default(relu_3)
        t_8 = torch.ops.aten.t.default(primals_26);  primals_26 = None
        addmm_8 = torch.ops.aten.addmm.default(primals_27, relu_3, t_8);  primals_27 = None
        add_3 = torch.ops.aten.add.Tensor(add_2, addmm_8);  addmm_8 = None
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_3, [8], primals_28, primals_29, 1e-05)
        getitem_12 = native_layer_norm_4[0]
        getitem_13 = native_layer_norm_4[1]
        getitem_14 = native_layer_norm_4[2];  native_layer_norm_4 = None
        t_9 = torch.ops.aten.t.default(primals_30);  primals_30 = None
        addmm_9 = torch.ops.aten.addmm.default(primals_31, getitem_12, t_9);  primals_31 = None
        relu_4 = torch.ops.aten.relu.default(addmm_9);  addmm_9 = None
        alias_4 = torch.ops.aten.alias.default(relu_4)
        t_10 = torch.ops.aten.t.default(primals_32);  primals_32 = None
        addmm_10 = torch.ops.aten.addmm.default(primals_33, relu_4, t_10);  primals_33 = None
        add_4 = torch.ops.aten.add.Tensor(add_3, addmm_10);  addmm_10 = None
        native_layer_norm_5 = torch.ops.aten.native_layer_norm.default(add_4, [8], primals_34, primals_35, 1e-05)
        getitem_15 = native_layer_norm_5[0]
        getitem_16 = native_layer_norm_5[1]
        getitem_17 = native_layer_norm_5[2];  native_layer_norm_5 = None
        t_11 = torch.ops.aten.t.default(primals_36);  primals_36 = None
        addmm_11 = torch.ops.aten.addmm.default(primals_37, getitem_15, t_11);  primals_37 = None
        relu_5 = torch.ops.aten.relu.default(addmm_11);  addmm_11 = None
        alias_5 = torch.ops.aten.alias.default(relu_5)
        t_12 = torch.ops.aten.t.default(primals_38);  primals_38 = None
        addmm_12 = torch.ops.aten.addmm.default(primals_39, relu_5, t_12);  primals_39 = None
        add_5 = torch.ops.aten.add.Tensor(add_4, addmm_12);  addmm_12 = None
        native_layer_norm_6 = torch.ops.aten.native_layer_norm.default(add_5, [8], primals_40, primals_41, 1e-05)
        getitem_18 = native_layer_norm_6[0]
        getitem_19 = native_layer_norm_6[1]
        getitem_20 = native_layer_norm_6[2];  native_layer_norm_6 = None
        t_13 = torch.ops.aten.t.default(primals_42);  primals_42 = None
        addmm_13 = torch.ops.aten.addmm.default(primals_43, getitem_18, t_13);  primals_43 = None
        relu_6 = torch.ops.aten.relu.default(addmm_13);  addmm_13 = None
        alias_6 = torch.ops.aten.alias.default(relu_6)
        t_14 = torch.ops.aten.t.default(primals_44);  primals_44 = None
        addmm_14 = torch.ops.aten.addmm.default(primals_45, relu_6, t_14);  primals_45 = None
        add_6 = torch.ops.aten.add.Tensor(add_5, addmm_14);  addmm_14 = None
        native_layer_norm_7 = torch.ops.aten.native_layer_norm.default(add_6, [8], primals_46, primals_47, 1e-05)
        getitem_21 = native_layer_norm_7[0]
        getitem_22 = native_layer_norm_7[1]
        getitem_23 = native_layer_norm_7[2];  native_layer_norm_7 = None
        t_15 = torch.ops.aten.t.default(primals_48);  primals_48 = None
        addmm_15 = torch.ops.aten.addmm.default(primals_49, getitem_21, t_15);  primals_49 = None
        relu_7 = torch.ops.aten.relu.default(addmm_15);  addmm_15 = None
        alias_7 = torch.ops.aten.alias.default(relu_7)
        t_16 = torch.ops.aten.t.default(primals_50);  primals_50 = None
        addmm_16 = torch.ops.aten.addmm.default(primals_51, relu_7, t_16);  primals_51 = None
        add_7 = torch.ops.aten.add.Tensor(add_6, addmm_16);  addmm_16 = None
        native_layer_norm_8 = torch.ops.aten.native_layer_norm.default(add_7, [8], primals_52, primals_53, 1e-05)
        getitem_24 = native_layer_norm_8[0]
        getitem_25 = native_layer_norm_8[1]
        getitem_26 = native_layer_norm_8[2];  native_layer_norm_8 = None
        t_17 = torch.ops.aten.t.default(primals_54);  primals_54 = None
        addmm_17 = torch.ops.aten.addmm.default(primals_55, getitem_24, t_17);  primals_55 = None
        relu_8 = torch.ops.aten.relu.default(addmm_17);  addmm_17 = None
        alias_8 = torch.ops.aten.alias.default(relu_8)
        t_18 = torch.ops.aten.t.default(primals_56);  primals_56 = None
        addmm_18 = torch.ops.aten.addmm.default(primals_57, relu_8, t_18);  primals_57 = None
        add_8 = torch.ops.aten.add.Tensor(add_7, addmm_18);  addmm_18 = None
        native_layer_norm_9 = torch.ops.aten.native_layer_norm.default(add_8, [8], primals_58, primals_59, 1e-05)
        getitem_27 = native_layer_norm_9[0]
        getitem_28 = native_layer_norm_9[1]
        getitem_29 = native_layer_norm_9[2];  native_layer_norm_9 = None
        t_19 = torch.ops.aten.t.default(primals_60);  primals_60 = None
        addmm_19 = torch.ops.aten.addmm.default(primals_61, getitem_27, t_19);  primals_61 = None
        relu_9 = torch.ops.aten.relu.default(addmm_19);  addmm_19 = None
        alias_9 = torch.ops.aten.alias.default(relu_9)
        t_20 = torch.ops.aten.t.default(primals_62);  primals_62 = None
        addmm_20 = torch.ops.aten.addmm.default(primals_63, relu_9, t_20);  primals_63 = None
        add_9 = torch.ops.aten.add.Tensor(add_8, addmm_20);  addmm_20 = None
        native_layer_norm_10 = torch.ops.aten.native_layer_norm.default(add_9, [8], primals_64, primals_65, 1e-05)
        getitem_30 = native_layer_norm_10[0]
        getitem_31 = native_layer_norm_10[1]
        getitem_32 = native_layer_norm_10[2];  native_layer_norm_10 = None
        t_21 = torch.ops.aten.t.default(primals_66);  primals_66 = None
        addmm_21 = torch.ops.aten.addmm.default(primals_67, getitem_30, t_21);  primals_67 = None
        relu_10 = torch.ops.aten.relu.default(addmm_21);  addmm_21 = None
        alias_10 = torch.ops.aten.alias.default(relu_10)
        t_22 = torch.ops.aten.t.default(primals_68);  primals_68 = None
        addmm_22 = torch.ops.aten.addmm.default(primals_69, relu_10, t_22);  primals_69 = None
        add_10 = torch.ops.aten.add.Tensor(add_9, addmm_22);  addmm_22 = None
        native_layer_norm_11 = torch.ops.aten.native_layer_norm.default(add_10, [8], primals_70, primals_71, 1e-05)
        getitem_33 = native_layer_norm_11[0]
        getitem_34 = native_layer_norm_11[1]
        getitem_35 = native_layer_norm_11[2];  native_layer_norm_11 = None
        t_23 = torch.ops.aten.t.default(primals_72);  primals_72 = None
        addmm_23 = torch.ops.aten.addmm.default(primals_73, getitem_33, t_23);  primals_73 = None
        relu_11 = torch.ops.aten.relu.default(addmm_23);  addmm_23 = None
        alias_11 = torch.ops.aten.alias.default(relu_11)
        t_24 = torch.ops.aten.t.default(primals_74);  primals_74 = None
        addmm_24 = torch.ops.aten.addmm.default(primals_75, relu_11, t_24);  primals_75 = None
        add_11 = torch.ops.aten.add.Tensor(add_10, addmm_24);  addmm_24 = None
        t_25 = torch.ops.aten.t.default(primals_76);  primals_76 = None
        addmm_25 = torch.ops.aten.addmm.default(primals_77, add_11, t_25);  primals_77 = None
        return (addmm_25, primals_3, primals_4, primals_5, primals_10, primals_11, primals_16, primals_17, primals_22, primals_23, primals_28, primals_29, primals_34, primals_35, primals_40, primals_41, primals_46, primals_47, primals_52, primals_53, primals_58, primals_59, primals_64, primals_65, primals_70, primals_71, addmm, getitem, getitem_1, getitem_2, t_1, relu, alias, t_2, add, getitem_3, getitem_4, getitem_5, t_3, relu_1, alias_1, t_4, add_1, getitem_6, getitem_7, getitem_8, t_5, relu_2, alias_2, t_6, add_2, getitem_9, getitem_10, getitem_11, t_7, relu_3, alias_3, t_8, add_3, getitem_12, getitem_13, getitem_14, t_9, relu_4, alias_4, t_10, add_4, getitem_15, getitem_16, getitem_17, t_11, relu_5, alias_5, t_12, add_5, getitem_18, getitem_19, getitem_20, t_13, relu_6, alias_6, t_14, add_6, getitem_21, getitem_22, getitem_23, t_15, relu_7, alias_7, t_16, add_7, getitem_24, getitem_25, getitem_26, t_17, relu_8, alias_8, t_18, add_8, getitem_27, getitem_28, getitem_29, t_19, relu_9, alias_9, t_20, add_9, getitem_30, getitem_31, getitem_32, t_21, relu_10, alias_10, t_22, add_10, getitem_33, getitem_34, getitem_35, t_23, relu_11, alias_11, t_24, add_11, t_25)

