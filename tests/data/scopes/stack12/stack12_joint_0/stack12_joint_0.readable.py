class inner_f(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: "f32[8, 4][4, 1]cpu"; primals_2: "f32[8][1]cpu"; primals_3: "f32[3, 4][4, 1]cpu"; primals_4: "f32[8][1]cpu"; primals_5: "f32[8][1]cpu"; primals_6: "f32[16, 8][8, 1]cpu"; primals_7: "f32[16][1]cpu"; primals_8: "f32[8, 16][16, 1]cpu"; primals_9: "f32[8][1]cpu"; primals_10: "f32[8][1]cpu"; primals_11: "f32[8][1]cpu"; primals_12: "f32[16, 8][8, 1]cpu"; primals_13: "f32[16][1]cpu"; primals_14: "f32[8, 16][16, 1]cpu"; primals_15: "f32[8][1]cpu"; primals_16: "f32[8][1]cpu"; primals_17: "f32[8][1]cpu"; primals_18: "f32[16, 8][8, 1]cpu"; primals_19: "f32[16][1]cpu"; primals_20: "f32[8, 16][16, 1]cpu"; primals_21: "f32[8][1]cpu"; primals_22: "f32[8][1]cpu"; primals_23: "f32[8][1]cpu"; primals_24: "f32[16, 8][8, 1]cpu"; primals_25: "f32[16][1]cpu"; primals_26: "f32[8, 16][16, 1]cpu"; primals_27: "f32[8][1]cpu"; primals_28: "f32[8][1]cpu"; primals_29: "f32[8][1]cpu"; primals_30: "f32[16, 8][8, 1]cpu"; primals_31: "f32[16][1]cpu"; primals_32: "f32[8, 16][16, 1]cpu"; primals_33: "f32[8][1]cpu"; primals_34: "f32[8][1]cpu"; primals_35: "f32[8][1]cpu"; primals_36: "f32[16, 8][8, 1]cpu"; primals_37: "f32[16][1]cpu"; primals_38: "f32[8, 16][16, 1]cpu"; primals_39: "f32[8][1]cpu"; primals_40: "f32[8][1]cpu"; primals_41: "f32[8][1]cpu"; primals_42: "f32[16, 8][8, 1]cpu"; primals_43: "f32[16][1]cpu"; primals_44: "f32[8, 16][16, 1]cpu"; primals_45: "f32[8][1]cpu"; primals_46: "f32[8][1]cpu"; primals_47: "f32[8][1]cpu"; primals_48: "f32[16, 8][8, 1]cpu"; primals_49: "f32[16][1]cpu"; primals_50: "f32[8, 16][16, 1]cpu"; primals_51: "f32[8][1]cpu"; primals_52: "f32[8][1]cpu"; primals_53: "f32[8][1]cpu"; primals_54: "f32[16, 8][8, 1]cpu"; primals_55: "f32[16][1]cpu"; primals_56: "f32[8, 16][16, 1]cpu"; primals_57: "f32[8][1]cpu"; primals_58: "f32[8][1]cpu"; primals_59: "f32[8][1]cpu"; primals_60: "f32[16, 8][8, 1]cpu"; primals_61: "f32[16][1]cpu"; primals_62: "f32[8, 16][16, 1]cpu"; primals_63: "f32[8][1]cpu"; primals_64: "f32[8][1]cpu"; primals_65: "f32[8][1]cpu"; primals_66: "f32[16, 8][8, 1]cpu"; primals_67: "f32[16][1]cpu"; primals_68: "f32[8, 16][16, 1]cpu"; primals_69: "f32[8][1]cpu"; primals_70: "f32[8][1]cpu"; primals_71: "f32[8][1]cpu"; primals_72: "f32[16, 8][8, 1]cpu"; primals_73: "f32[16][1]cpu"; primals_74: "f32[8, 16][16, 1]cpu"; primals_75: "f32[8][1]cpu"; primals_76: "f32[2, 8][8, 1]cpu"; primals_77: "f32[2][1]cpu"; tangents_1: "f32[3, 2][2, 1]cpu"; 

        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, primals_25, primals_26, primals_27, primals_28, primals_29, primals_30, primals_31, primals_32, primals_33, primals_34, primals_35, primals_36, primals_37, primals_38, primals_39, primals_40, primals_41, primals_42, primals_43, primals_44, primals_45, primals_46, primals_47, primals_48, primals_49, primals_50, primals_51, primals_52, primals_53, primals_54, primals_55, primals_56, primals_57, primals_58, primals_59, primals_60, primals_61, primals_62, primals_63, primals_64, primals_65, primals_66, primals_67, primals_68, primals_69, primals_70, primals_71, primals_72, primals_73, primals_74, primals_75, primals_76, primals_77, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: tools/capture/scope_samples.py:41 in forward, code: h = self.embed(x)
        t: "f32[4, 8][1, 4]cpu" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_2, primals_3, t);  primals_2 = t = None

        # File: tools/capture/scope_samples.py:30 in forward, code: return x + self.fc2(torch.relu(self.fc1(self.ln(x))))
        native_layer_norm = torch.ops.aten.native_layer_norm.default(addmm, [8], primals_4, primals_5, 1e-05)
        getitem: "f32[3, 8][8, 1]cpu" = native_layer_norm[0]
        getitem_1: "f32[3, 1][1, 1]cpu" = native_layer_norm[1]
        getitem_2: "f32[3, 1][1, 1]cpu" = native_layer_norm[2];  native_layer_norm = None
        t_1: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_6);  primals_6 = None
        addmm_1: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_7, getitem, t_1);  primals_7 = None
        relu: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_1);  addmm_1 = None
        alias: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu)
        t_2: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_8);  primals_8 = None
        addmm_2: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_9, relu, t_2);  primals_9 = None
        add: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(addmm, addmm_2);  addmm_2 = None
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add, [8], primals_10, primals_11, 1e-05)
        getitem_3: "f32[3, 8][8, 1]cpu" = native_layer_norm_1[0]
        getitem_4: "f32[3, 1][1, 1]cpu" = native_layer_norm_1[1]
        getitem_5: "f32[3, 1][1, 1]cpu" = native_layer_norm_1[2];  native_layer_norm_1 = None
        t_3: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_12);  primals_12 = None
        addmm_3: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_13, getitem_3, t_3);  primals_13 = None
        relu_1: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_3);  addmm_3 = None
        alias_1: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_1)
        t_4: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_14);  primals_14 = None
        addmm_4: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_15, relu_1, t_4);  primals_15 = None
        add_1: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add, addmm_4);  addmm_4 = None
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_1, [8], primals_16, primals_17, 1e-05)
        getitem_6: "f32[3, 8][8, 1]cpu" = native_layer_norm_2[0]
        getitem_7: "f32[3, 1][1, 1]cpu" = native_layer_norm_2[1]
        getitem_8: "f32[3, 1][1, 1]cpu" = native_layer_norm_2[2];  native_layer_norm_2 = None
        t_5: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_18);  primals_18 = None
        addmm_5: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_19, getitem_6, t_5);  primals_19 = None
        relu_2: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_5);  addmm_5 = None
        alias_2: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_2)
        t_6: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_20);  primals_20 = None
        addmm_6: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_21, relu_2, t_6);  primals_21 = None
        add_2: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_1, addmm_6);  addmm_6 = None
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_2, [8], primals_22, primals_23, 1e-05)
        getitem_9: "f32[3, 8][8, 1]cpu" = native_layer_norm_3[0]
        getitem_10: "f32[3, 1][1, 1]cpu" = native_layer_norm_3[1]
        getitem_11: "f32[3, 1][1, 1]cpu" = native_layer_norm_3[2];  native_layer_norm_3 = None
        t_7: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_24);  primals_24 = None
        addmm_7: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_25, getitem_9, t_7);  primals_25 = None
        relu_3: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_7);  addmm_7 = None
        alias_3: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_3)
        t_8: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_26);  primals_26 = None
        addmm_8: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_27, relu_3, t_8);  primals_27 = None
        add_3: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_2, addmm_8);  addmm_8 = None
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_3, [8], primals_28, primals_29, 1e-05)
        getitem_12: "f32[3, 8][8, 1]cpu" = native_layer_norm_4[0]
        getitem_13: "f32[3, 1][1, 1]cpu" = native_layer_norm_4[1]
        getitem_14: "f32[3, 1][1, 1]cpu" = native_layer_norm_4[2];  native_layer_norm_4 = None
        t_9: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_30);  primals_30 = None
        addmm_9: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_31, getitem_12, t_9);  primals_31 = None
        relu_4: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_9);  addmm_9 = None
        alias_4: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_4)
        t_10: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_32);  primals_32 = None
        addmm_10: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_33, relu_4, t_10);  primals_33 = None
        add_4: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_3, addmm_10);  addmm_10 = None
        native_layer_norm_5 = torch.ops.aten.native_layer_norm.default(add_4, [8], primals_34, primals_35, 1e-05)
        getitem_15: "f32[3, 8][8, 1]cpu" = native_layer_norm_5[0]
        getitem_16: "f32[3, 1][1, 1]cpu" = native_layer_norm_5[1]
        getitem_17: "f32[3, 1][1, 1]cpu" = native_layer_norm_5[2];  native_layer_norm_5 = None
        t_11: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_36);  primals_36 = None
        addmm_11: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_37, getitem_15, t_11);  primals_37 = None
        relu_5: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_11);  addmm_11 = None
        alias_5: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_5)
        t_12: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_38);  primals_38 = None
        addmm_12: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_39, relu_5, t_12);  primals_39 = None
        add_5: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_4, addmm_12);  addmm_12 = None
        native_layer_norm_6 = torch.ops.aten.native_layer_norm.default(add_5, [8], primals_40, primals_41, 1e-05)
        getitem_18: "f32[3, 8][8, 1]cpu" = native_layer_norm_6[0]
        getitem_19: "f32[3, 1][1, 1]cpu" = native_layer_norm_6[1]
        getitem_20: "f32[3, 1][1, 1]cpu" = native_layer_norm_6[2];  native_layer_norm_6 = None
        t_13: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_42);  primals_42 = None
        addmm_13: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_43, getitem_18, t_13);  primals_43 = None
        relu_6: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_13);  addmm_13 = None
        alias_6: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_6)
        t_14: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_44);  primals_44 = None
        addmm_14: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_45, relu_6, t_14);  primals_45 = None
        add_6: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_5, addmm_14);  addmm_14 = None
        native_layer_norm_7 = torch.ops.aten.native_layer_norm.default(add_6, [8], primals_46, primals_47, 1e-05)
        getitem_21: "f32[3, 8][8, 1]cpu" = native_layer_norm_7[0]
        getitem_22: "f32[3, 1][1, 1]cpu" = native_layer_norm_7[1]
        getitem_23: "f32[3, 1][1, 1]cpu" = native_layer_norm_7[2];  native_layer_norm_7 = None
        t_15: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_48);  primals_48 = None
        addmm_15: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_49, getitem_21, t_15);  primals_49 = None
        relu_7: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_15);  addmm_15 = None
        alias_7: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_7)
        t_16: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_50);  primals_50 = None
        addmm_16: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_51, relu_7, t_16);  primals_51 = None
        add_7: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_6, addmm_16);  addmm_16 = None
        native_layer_norm_8 = torch.ops.aten.native_layer_norm.default(add_7, [8], primals_52, primals_53, 1e-05)
        getitem_24: "f32[3, 8][8, 1]cpu" = native_layer_norm_8[0]
        getitem_25: "f32[3, 1][1, 1]cpu" = native_layer_norm_8[1]
        getitem_26: "f32[3, 1][1, 1]cpu" = native_layer_norm_8[2];  native_layer_norm_8 = None
        t_17: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_54);  primals_54 = None
        addmm_17: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_55, getitem_24, t_17);  primals_55 = None
        relu_8: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_17);  addmm_17 = None
        alias_8: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_8)
        t_18: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_56);  primals_56 = None
        addmm_18: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_57, relu_8, t_18);  primals_57 = None
        add_8: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_7, addmm_18);  addmm_18 = None
        native_layer_norm_9 = torch.ops.aten.native_layer_norm.default(add_8, [8], primals_58, primals_59, 1e-05)
        getitem_27: "f32[3, 8][8, 1]cpu" = native_layer_norm_9[0]
        getitem_28: "f32[3, 1][1, 1]cpu" = native_layer_norm_9[1]
        getitem_29: "f32[3, 1][1, 1]cpu" = native_layer_norm_9[2];  native_layer_norm_9 = None
        t_19: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_60);  primals_60 = None
        addmm_19: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_61, getitem_27, t_19);  primals_61 = None
        relu_9: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_19);  addmm_19 = None
        alias_9: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_9)
        t_20: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_62);  primals_62 = None
        addmm_20: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_63, relu_9, t_20);  primals_63 = None
        add_9: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_8, addmm_20);  addmm_20 = None
        native_layer_norm_10 = torch.ops.aten.native_layer_norm.default(add_9, [8], primals_64, primals_65, 1e-05)
        getitem_30: "f32[3, 8][8, 1]cpu" = native_layer_norm_10[0]
        getitem_31: "f32[3, 1][1, 1]cpu" = native_layer_norm_10[1]
        getitem_32: "f32[3, 1][1, 1]cpu" = native_layer_norm_10[2];  native_layer_norm_10 = None
        t_21: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_66);  primals_66 = None
        addmm_21: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_67, getitem_30, t_21);  primals_67 = None
        relu_10: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_21);  addmm_21 = None
        alias_10: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_10)
        t_22: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_68);  primals_68 = None
        addmm_22: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_69, relu_10, t_22);  primals_69 = None
        add_10: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_9, addmm_22);  addmm_22 = None
        native_layer_norm_11 = torch.ops.aten.native_layer_norm.default(add_10, [8], primals_70, primals_71, 1e-05)
        getitem_33: "f32[3, 8][8, 1]cpu" = native_layer_norm_11[0]
        getitem_34: "f32[3, 1][1, 1]cpu" = native_layer_norm_11[1]
        getitem_35: "f32[3, 1][1, 1]cpu" = native_layer_norm_11[2];  native_layer_norm_11 = None
        t_23: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(primals_72);  primals_72 = None
        addmm_23: "f32[3, 16][16, 1]cpu" = torch.ops.aten.addmm.default(primals_73, getitem_33, t_23);  primals_73 = None
        relu_11: "f32[3, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm_23);  addmm_23 = None
        alias_11: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(relu_11)
        t_24: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(primals_74);  primals_74 = None
        addmm_24: "f32[3, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_75, relu_11, t_24);  primals_75 = None
        add_11: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_10, addmm_24);  addmm_24 = None

        # File: tools/capture/scope_samples.py:44 in forward, code: return self.head(h)
        t_25: "f32[8, 2][1, 8]cpu" = torch.ops.aten.t.default(primals_76);  primals_76 = None
        addmm_25: "f32[3, 2][2, 1]cpu" = torch.ops.aten.addmm.default(primals_77, add_11, t_25);  primals_77 = None
        t_26: "f32[2, 8][8, 1]cpu" = torch.ops.aten.t.default(t_25);  t_25 = None
        mm: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(tangents_1, t_26);  t_26 = None
        t_27: "f32[2, 3][1, 2]cpu" = torch.ops.aten.t.default(tangents_1)
        mm_1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_27, add_11);  t_27 = add_11 = None
        t_28: "f32[8, 2][1, 8]cpu" = torch.ops.aten.t.default(mm_1);  mm_1 = None
        sum_1: "f32[1, 2][2, 1]cpu" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[2][1]cpu" = torch.ops.aten.view.default(sum_1, [2]);  sum_1 = None
        t_29: "f32[2, 8][8, 1]cpu" = torch.ops.aten.t.default(t_28);  t_28 = None

        # File: tools/capture/scope_samples.py:30 in forward, code: return x + self.fc2(torch.relu(self.fc1(self.ln(x))))
        t_30: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_24);  t_24 = None
        mm_2: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(mm, t_30);  t_30 = None
        t_31: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(mm)
        mm_3: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_31, relu_11);  t_31 = relu_11 = None
        t_32: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_3);  mm_3 = None
        sum_2: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(mm, [0], True)
        view_1: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_2, [8]);  sum_2 = None
        t_33: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_32);  t_32 = None
        alias_12: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_11);  alias_11 = None
        le: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_12, 0);  alias_12 = None
        scalar_tensor: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le, scalar_tensor, mm_2);  le = scalar_tensor = mm_2 = None
        t_34: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_23);  t_23 = None
        mm_4: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where, t_34);  t_34 = None
        t_35: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where)
        mm_5: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_35, getitem_33);  t_35 = getitem_33 = None
        t_36: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_5);  mm_5 = None
        sum_3: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_2: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_3, [16]);  sum_3 = None
        t_37: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_36);  t_36 = None
        native_layer_norm_backward = torch.ops.aten.native_layer_norm_backward.default(mm_4, add_10, [8], getitem_34, getitem_35, primals_70, primals_71, [True, True, True]);  mm_4 = add_10 = getitem_34 = getitem_35 = primals_70 = primals_71 = None
        getitem_36: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward[0]
        getitem_37: "f32[8][1]cpu" = native_layer_norm_backward[1]
        getitem_38: "f32[8][1]cpu" = native_layer_norm_backward[2];  native_layer_norm_backward = None
        add_12: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(mm, getitem_36);  mm = getitem_36 = None
        t_38: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_22);  t_22 = None
        mm_6: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_12, t_38);  t_38 = None
        t_39: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_12)
        mm_7: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_39, relu_10);  t_39 = relu_10 = None
        t_40: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_7);  mm_7 = None
        sum_4: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_12, [0], True)
        view_3: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_4, [8]);  sum_4 = None
        t_41: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_40);  t_40 = None
        alias_13: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_10);  alias_10 = None
        le_1: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_13, 0);  alias_13 = None
        scalar_tensor_1: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_1: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_1, scalar_tensor_1, mm_6);  le_1 = scalar_tensor_1 = mm_6 = None
        t_42: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_21);  t_21 = None
        mm_8: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_1, t_42);  t_42 = None
        t_43: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_1)
        mm_9: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_43, getitem_30);  t_43 = getitem_30 = None
        t_44: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_9);  mm_9 = None
        sum_5: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_1, [0], True);  where_1 = None
        view_4: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_5, [16]);  sum_5 = None
        t_45: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_44);  t_44 = None
        native_layer_norm_backward_1 = torch.ops.aten.native_layer_norm_backward.default(mm_8, add_9, [8], getitem_31, getitem_32, primals_64, primals_65, [True, True, True]);  mm_8 = add_9 = getitem_31 = getitem_32 = primals_64 = primals_65 = None
        getitem_39: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_1[0]
        getitem_40: "f32[8][1]cpu" = native_layer_norm_backward_1[1]
        getitem_41: "f32[8][1]cpu" = native_layer_norm_backward_1[2];  native_layer_norm_backward_1 = None
        add_13: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_12, getitem_39);  add_12 = getitem_39 = None
        t_46: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_20);  t_20 = None
        mm_10: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_13, t_46);  t_46 = None
        t_47: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_13)
        mm_11: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_47, relu_9);  t_47 = relu_9 = None
        t_48: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_11);  mm_11 = None
        sum_6: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_13, [0], True)
        view_5: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_6, [8]);  sum_6 = None
        t_49: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_48);  t_48 = None
        alias_14: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_9);  alias_9 = None
        le_2: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_14, 0);  alias_14 = None
        scalar_tensor_2: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_2: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_2, scalar_tensor_2, mm_10);  le_2 = scalar_tensor_2 = mm_10 = None
        t_50: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_19);  t_19 = None
        mm_12: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_2, t_50);  t_50 = None
        t_51: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_2)
        mm_13: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_51, getitem_27);  t_51 = getitem_27 = None
        t_52: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_13);  mm_13 = None
        sum_7: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_2, [0], True);  where_2 = None
        view_6: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_7, [16]);  sum_7 = None
        t_53: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_52);  t_52 = None
        native_layer_norm_backward_2 = torch.ops.aten.native_layer_norm_backward.default(mm_12, add_8, [8], getitem_28, getitem_29, primals_58, primals_59, [True, True, True]);  mm_12 = add_8 = getitem_28 = getitem_29 = primals_58 = primals_59 = None
        getitem_42: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_2[0]
        getitem_43: "f32[8][1]cpu" = native_layer_norm_backward_2[1]
        getitem_44: "f32[8][1]cpu" = native_layer_norm_backward_2[2];  native_layer_norm_backward_2 = None
        add_14: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_13, getitem_42);  add_13 = getitem_42 = None
        t_54: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_18);  t_18 = None
        mm_14: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_14, t_54);  t_54 = None
        t_55: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_14)
        mm_15: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_55, relu_8);  t_55 = relu_8 = None
        t_56: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_15);  mm_15 = None
        sum_8: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_14, [0], True)
        view_7: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_8, [8]);  sum_8 = None
        t_57: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_56);  t_56 = None
        alias_15: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_8);  alias_8 = None
        le_3: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_15, 0);  alias_15 = None
        scalar_tensor_3: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_3: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_3, scalar_tensor_3, mm_14);  le_3 = scalar_tensor_3 = mm_14 = None
        t_58: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_17);  t_17 = None
        mm_16: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_3, t_58);  t_58 = None
        t_59: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_3)
        mm_17: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_59, getitem_24);  t_59 = getitem_24 = None
        t_60: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_17);  mm_17 = None
        sum_9: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_3, [0], True);  where_3 = None
        view_8: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_9, [16]);  sum_9 = None
        t_61: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_60);  t_60 = None
        native_layer_norm_backward_3 = torch.ops.aten.native_layer_norm_backward.default(mm_16, add_7, [8], getitem_25, getitem_26, primals_52, primals_53, [True, True, True]);  mm_16 = add_7 = getitem_25 = getitem_26 = primals_52 = primals_53 = None
        getitem_45: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_3[0]
        getitem_46: "f32[8][1]cpu" = native_layer_norm_backward_3[1]
        getitem_47: "f32[8][1]cpu" = native_layer_norm_backward_3[2];  native_layer_norm_backward_3 = None
        add_15: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_14, getitem_45);  add_14 = getitem_45 = None
        t_62: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_16);  t_16 = None
        mm_18: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_15, t_62);  t_62 = None
        t_63: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_15)
        mm_19: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_63, relu_7);  t_63 = relu_7 = None
        t_64: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_19);  mm_19 = None
        sum_10: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_15, [0], True)
        view_9: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_10, [8]);  sum_10 = None
        t_65: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_64);  t_64 = None
        alias_16: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_7);  alias_7 = None
        le_4: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_16, 0);  alias_16 = None
        scalar_tensor_4: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_4: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_4, scalar_tensor_4, mm_18);  le_4 = scalar_tensor_4 = mm_18 = None
        t_66: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_15);  t_15 = None
        mm_20: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_4, t_66);  t_66 = None
        t_67: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_4)
        mm_21: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_67, getitem_21);  t_67 = getitem_21 = None
        t_68: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_21);  mm_21 = None
        sum_11: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_4, [0], True);  where_4 = None
        view_10: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_11, [16]);  sum_11 = None
        t_69: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_68);  t_68 = None
        native_layer_norm_backward_4 = torch.ops.aten.native_layer_norm_backward.default(mm_20, add_6, [8], getitem_22, getitem_23, primals_46, primals_47, [True, True, True]);  mm_20 = add_6 = getitem_22 = getitem_23 = primals_46 = primals_47 = None
        getitem_48: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_4[0]
        getitem_49: "f32[8][1]cpu" = native_layer_norm_backward_4[1]
        getitem_50: "f32[8][1]cpu" = native_layer_norm_backward_4[2];  native_layer_norm_backward_4 = None
        add_16: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_15, getitem_48);  add_15 = getitem_48 = None
        t_70: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_14);  t_14 = None
        mm_22: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_16, t_70);  t_70 = None
        t_71: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_16)
        mm_23: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_71, relu_6);  t_71 = relu_6 = None
        t_72: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_23);  mm_23 = None
        sum_12: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_16, [0], True)
        view_11: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_12, [8]);  sum_12 = None
        t_73: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_72);  t_72 = None
        alias_17: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_6);  alias_6 = None
        le_5: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_17, 0);  alias_17 = None
        scalar_tensor_5: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_5: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_5, scalar_tensor_5, mm_22);  le_5 = scalar_tensor_5 = mm_22 = None
        t_74: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_13);  t_13 = None
        mm_24: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_5, t_74);  t_74 = None
        t_75: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_5)
        mm_25: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_75, getitem_18);  t_75 = getitem_18 = None
        t_76: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_25);  mm_25 = None
        sum_13: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_5, [0], True);  where_5 = None
        view_12: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_13, [16]);  sum_13 = None
        t_77: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_76);  t_76 = None
        native_layer_norm_backward_5 = torch.ops.aten.native_layer_norm_backward.default(mm_24, add_5, [8], getitem_19, getitem_20, primals_40, primals_41, [True, True, True]);  mm_24 = add_5 = getitem_19 = getitem_20 = primals_40 = primals_41 = None
        getitem_51: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_5[0]
        getitem_52: "f32[8][1]cpu" = native_layer_norm_backward_5[1]
        getitem_53: "f32[8][1]cpu" = native_layer_norm_backward_5[2];  native_layer_norm_backward_5 = None
        add_17: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_16, getitem_51);  add_16 = getitem_51 = None
        t_78: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_12);  t_12 = None
        mm_26: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_17, t_78);  t_78 = None
        t_79: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_17)
        mm_27: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_79, relu_5);  t_79 = relu_5 = None
        t_80: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_27);  mm_27 = None
        sum_14: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_17, [0], True)
        view_13: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_14, [8]);  sum_14 = None
        t_81: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_80);  t_80 = None
        alias_18: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_5);  alias_5 = None
        le_6: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_18, 0);  alias_18 = None
        scalar_tensor_6: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_6: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_6, scalar_tensor_6, mm_26);  le_6 = scalar_tensor_6 = mm_26 = None
        t_82: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_11);  t_11 = None
        mm_28: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_6, t_82);  t_82 = None
        t_83: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_6)
        mm_29: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_83, getitem_15);  t_83 = getitem_15 = None
        t_84: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_29);  mm_29 = None
        sum_15: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_6, [0], True);  where_6 = None
        view_14: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_15, [16]);  sum_15 = None
        t_85: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_84);  t_84 = None
        native_layer_norm_backward_6 = torch.ops.aten.native_layer_norm_backward.default(mm_28, add_4, [8], getitem_16, getitem_17, primals_34, primals_35, [True, True, True]);  mm_28 = add_4 = getitem_16 = getitem_17 = primals_34 = primals_35 = None
        getitem_54: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_6[0]
        getitem_55: "f32[8][1]cpu" = native_layer_norm_backward_6[1]
        getitem_56: "f32[8][1]cpu" = native_layer_norm_backward_6[2];  native_layer_norm_backward_6 = None
        add_18: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_17, getitem_54);  add_17 = getitem_54 = None
        t_86: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_10);  t_10 = None
        mm_30: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_18, t_86);  t_86 = None
        t_87: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_18)
        mm_31: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_87, relu_4);  t_87 = relu_4 = None
        t_88: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_31);  mm_31 = None
        sum_16: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_18, [0], True)
        view_15: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_16, [8]);  sum_16 = None
        t_89: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_88);  t_88 = None
        alias_19: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_4);  alias_4 = None
        le_7: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_19, 0);  alias_19 = None
        scalar_tensor_7: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_7: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_7, scalar_tensor_7, mm_30);  le_7 = scalar_tensor_7 = mm_30 = None
        t_90: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_9);  t_9 = None
        mm_32: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_7, t_90);  t_90 = None
        t_91: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_7)
        mm_33: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_91, getitem_12);  t_91 = getitem_12 = None
        t_92: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_33);  mm_33 = None
        sum_17: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_7, [0], True);  where_7 = None
        view_16: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_17, [16]);  sum_17 = None
        t_93: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_92);  t_92 = None
        native_layer_norm_backward_7 = torch.ops.aten.native_layer_norm_backward.default(mm_32, add_3, [8], getitem_13, getitem_14, primals_28, primals_29, [True, True, True]);  mm_32 = add_3 = getitem_13 = getitem_14 = primals_28 = primals_29 = None
        getitem_57: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_7[0]
        getitem_58: "f32[8][1]cpu" = native_layer_norm_backward_7[1]
        getitem_59: "f32[8][1]cpu" = native_layer_norm_backward_7[2];  native_layer_norm_backward_7 = None
        add_19: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_18, getitem_57);  add_18 = getitem_57 = None
        t_94: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_8);  t_8 = None
        mm_34: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_19, t_94);  t_94 = None
        t_95: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_19)
        mm_35: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_95, relu_3);  t_95 = relu_3 = None
        t_96: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_35);  mm_35 = None
        sum_18: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_19, [0], True)
        view_17: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_18, [8]);  sum_18 = None
        t_97: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_96);  t_96 = None
        alias_20: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_3);  alias_3 = None
        le_8: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_20, 0);  alias_20 = None
        scalar_tensor_8: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_8: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_8, scalar_tensor_8, mm_34);  le_8 = scalar_tensor_8 = mm_34 = None
        t_98: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_7);  t_7 = None
        mm_36: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_8, t_98);  t_98 = None
        t_99: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_8)
        mm_37: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_99, getitem_9);  t_99 = getitem_9 = None
        t_100: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_37);  mm_37 = None
        sum_19: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_8, [0], True);  where_8 = None
        view_18: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_19, [16]);  sum_19 = None
        t_101: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_100);  t_100 = None
        native_layer_norm_backward_8 = torch.ops.aten.native_layer_norm_backward.default(mm_36, add_2, [8], getitem_10, getitem_11, primals_22, primals_23, [True, True, True]);  mm_36 = add_2 = getitem_10 = getitem_11 = primals_22 = primals_23 = None
        getitem_60: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_8[0]
        getitem_61: "f32[8][1]cpu" = native_layer_norm_backward_8[1]
        getitem_62: "f32[8][1]cpu" = native_layer_norm_backward_8[2];  native_layer_norm_backward_8 = None
        add_20: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_19, getitem_60);  add_19 = getitem_60 = None
        t_102: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_6);  t_6 = None
        mm_38: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_20, t_102);  t_102 = None
        t_103: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_20)
        mm_39: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_103, relu_2);  t_103 = relu_2 = None
        t_104: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_39);  mm_39 = None
        sum_20: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_20, [0], True)
        view_19: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_20, [8]);  sum_20 = None
        t_105: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_104);  t_104 = None
        alias_21: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_2);  alias_2 = None
        le_9: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_21, 0);  alias_21 = None
        scalar_tensor_9: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_9: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_9, scalar_tensor_9, mm_38);  le_9 = scalar_tensor_9 = mm_38 = None
        t_106: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_5);  t_5 = None
        mm_40: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_9, t_106);  t_106 = None
        t_107: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_9)
        mm_41: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_107, getitem_6);  t_107 = getitem_6 = None
        t_108: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_41);  mm_41 = None
        sum_21: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_9, [0], True);  where_9 = None
        view_20: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_21, [16]);  sum_21 = None
        t_109: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_108);  t_108 = None
        native_layer_norm_backward_9 = torch.ops.aten.native_layer_norm_backward.default(mm_40, add_1, [8], getitem_7, getitem_8, primals_16, primals_17, [True, True, True]);  mm_40 = add_1 = getitem_7 = getitem_8 = primals_16 = primals_17 = None
        getitem_63: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_9[0]
        getitem_64: "f32[8][1]cpu" = native_layer_norm_backward_9[1]
        getitem_65: "f32[8][1]cpu" = native_layer_norm_backward_9[2];  native_layer_norm_backward_9 = None
        add_21: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_20, getitem_63);  add_20 = getitem_63 = None
        t_110: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_4);  t_4 = None
        mm_42: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_21, t_110);  t_110 = None
        t_111: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_21)
        mm_43: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_111, relu_1);  t_111 = relu_1 = None
        t_112: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_43);  mm_43 = None
        sum_22: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_21, [0], True)
        view_21: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_22, [8]);  sum_22 = None
        t_113: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_112);  t_112 = None
        alias_22: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        le_10: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_22, 0);  alias_22 = None
        scalar_tensor_10: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_10: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_10, scalar_tensor_10, mm_42);  le_10 = scalar_tensor_10 = mm_42 = None
        t_114: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_3);  t_3 = None
        mm_44: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_10, t_114);  t_114 = None
        t_115: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_10)
        mm_45: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_115, getitem_3);  t_115 = getitem_3 = None
        t_116: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_45);  mm_45 = None
        sum_23: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_10, [0], True);  where_10 = None
        view_22: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_23, [16]);  sum_23 = None
        t_117: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_116);  t_116 = None
        native_layer_norm_backward_10 = torch.ops.aten.native_layer_norm_backward.default(mm_44, add, [8], getitem_4, getitem_5, primals_10, primals_11, [True, True, True]);  mm_44 = add = getitem_4 = getitem_5 = primals_10 = primals_11 = None
        getitem_66: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_10[0]
        getitem_67: "f32[8][1]cpu" = native_layer_norm_backward_10[1]
        getitem_68: "f32[8][1]cpu" = native_layer_norm_backward_10[2];  native_layer_norm_backward_10 = None
        add_22: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_21, getitem_66);  add_21 = getitem_66 = None
        t_118: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_2);  t_2 = None
        mm_46: "f32[3, 16][16, 1]cpu" = torch.ops.aten.mm.default(add_22, t_118);  t_118 = None
        t_119: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_22)
        mm_47: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(t_119, relu);  t_119 = relu = None
        t_120: "f32[16, 8][1, 16]cpu" = torch.ops.aten.t.default(mm_47);  mm_47 = None
        sum_24: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_22, [0], True)
        view_23: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_24, [8]);  sum_24 = None
        t_121: "f32[8, 16][16, 1]cpu" = torch.ops.aten.t.default(t_120);  t_120 = None
        alias_23: "f32[3, 16][16, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        le_11: "b8[3, 16][16, 1]cpu" = torch.ops.aten.le.Scalar(alias_23, 0);  alias_23 = None
        scalar_tensor_11: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_11: "f32[3, 16][16, 1]cpu" = torch.ops.aten.where.self(le_11, scalar_tensor_11, mm_46);  le_11 = scalar_tensor_11 = mm_46 = None
        t_122: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_1);  t_1 = None
        mm_48: "f32[3, 8][8, 1]cpu" = torch.ops.aten.mm.default(where_11, t_122);  t_122 = None
        t_123: "f32[16, 3][1, 16]cpu" = torch.ops.aten.t.default(where_11)
        mm_49: "f32[16, 8][8, 1]cpu" = torch.ops.aten.mm.default(t_123, getitem);  t_123 = getitem = None
        t_124: "f32[8, 16][1, 8]cpu" = torch.ops.aten.t.default(mm_49);  mm_49 = None
        sum_25: "f32[1, 16][16, 1]cpu" = torch.ops.aten.sum.dim_IntList(where_11, [0], True);  where_11 = None
        view_24: "f32[16][1]cpu" = torch.ops.aten.view.default(sum_25, [16]);  sum_25 = None
        t_125: "f32[16, 8][8, 1]cpu" = torch.ops.aten.t.default(t_124);  t_124 = None
        native_layer_norm_backward_11 = torch.ops.aten.native_layer_norm_backward.default(mm_48, addmm, [8], getitem_1, getitem_2, primals_4, primals_5, [True, True, True]);  mm_48 = addmm = getitem_1 = getitem_2 = primals_4 = primals_5 = None
        getitem_69: "f32[3, 8][8, 1]cpu" = native_layer_norm_backward_11[0]
        getitem_70: "f32[8][1]cpu" = native_layer_norm_backward_11[1]
        getitem_71: "f32[8][1]cpu" = native_layer_norm_backward_11[2];  native_layer_norm_backward_11 = None
        add_23: "f32[3, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(add_22, getitem_69);  add_22 = getitem_69 = None

        # File: tools/capture/scope_samples.py:41 in forward, code: h = self.embed(x)
        t_126: "f32[8, 3][1, 8]cpu" = torch.ops.aten.t.default(add_23)
        mm_50: "f32[8, 4][4, 1]cpu" = torch.ops.aten.mm.default(t_126, primals_3);  t_126 = primals_3 = None
        t_127: "f32[4, 8][1, 4]cpu" = torch.ops.aten.t.default(mm_50);  mm_50 = None
        sum_26: "f32[1, 8][8, 1]cpu" = torch.ops.aten.sum.dim_IntList(add_23, [0], True);  add_23 = None
        view_25: "f32[8][1]cpu" = torch.ops.aten.view.default(sum_26, [8]);  sum_26 = None
        t_128: "f32[8, 4][4, 1]cpu" = torch.ops.aten.t.default(t_127);  t_127 = None
        return pytree.tree_unflatten([addmm_25, t_128, view_25, None, getitem_70, getitem_71, t_125, view_24, t_121, view_23, getitem_67, getitem_68, t_117, view_22, t_113, view_21, getitem_64, getitem_65, t_109, view_20, t_105, view_19, getitem_61, getitem_62, t_101, view_18, t_97, view_17, getitem_58, getitem_59, t_93, view_16, t_89, view_15, getitem_55, getitem_56, t_85, view_14, t_81, view_13, getitem_52, getitem_53, t_77, view_12, t_73, view_11, getitem_49, getitem_50, t_69, view_10, t_65, view_9, getitem_46, getitem_47, t_61, view_8, t_57, view_7, getitem_43, getitem_44, t_53, view_6, t_49, view_5, getitem_40, getitem_41, t_45, view_4, t_41, view_3, getitem_37, getitem_38, t_37, view_2, t_33, view_1, t_29, view], self._out_spec)
