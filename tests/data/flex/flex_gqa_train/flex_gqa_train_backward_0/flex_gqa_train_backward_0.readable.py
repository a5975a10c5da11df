class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[2, 4, 16, 8][512, 128, 8, 1]cpu", primals_2: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu", primals_3: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu", _to_copy_3: "i32[1, 1, 1][1, 1, 1]cpu", _to_copy_4: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu", _to_copy_6: "i32[1, 1, 1][1, 1, 1]cpu", _to_copy_7: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu", _to_copy_8: "i32[1, 1, 1][1, 1, 1]cpu", _to_copy_9: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu", _to_copy_10: "i32[1, 1, 1][1, 1, 1]cpu", _to_copy_11: "i32[1, 1, 1, 1][1, 1, 1, 1]cpu", alias: "f32[2, 4, 16, 8][512, 128, 8, 1]cpu", alias_1: "f32[2, 4, 16][64, 16, 1]cpu", tangents_1: "f32[2, 4, 16, 8][512, 128, 8, 1]cpu"):
        # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
        alias_2: "f32[2, 4, 16, 8][512, 128, 8, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        alias_3: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.alias.default(alias_1);  alias_1 = None
        fw_graph0 = self.fw_graph0
        joint_graph0 = self.joint_graph0
        mask_graph0 = self.mask_graph0
        flex_attention_backward = torch.ops.higher_order.flex_attention_backward(primals_1, primals_2, primals_3, alias_2, alias_3, tangents_1, None, fw_graph0, joint_graph0, (16, 16, _to_copy_3, _to_copy_4, _to_copy_6, _to_copy_7, _to_copy_8, _to_copy_9, _to_copy_10, _to_copy_11, 128, 128, mask_graph0), 0.35355339059327373, {'BACKEND': 'AUTO', 'PRESCALE_QK': False, 'ROWS_GUARANTEED_SAFE': False, 'BLOCKS_ARE_CONTIGUOUS': False, 'WRITE_DQ': True, 'OUTPUT_LOGSUMEXP': False, 'OUTPUT_MAX': False}, (), ());  primals_1 = primals_2 = primals_3 = alias_2 = alias_3 = tangents_1 = fw_graph0 = joint_graph0 = _to_copy_3 = _to_copy_4 = _to_copy_6 = _to_copy_7 = _to_copy_8 = _to_copy_9 = _to_copy_10 = _to_copy_11 = mask_graph0 = None
        getitem_11: "f32[2, 4, 16, 8][512, 128, 8, 1]cpu" = flex_attention_backward[0]
        getitem_12: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu" = flex_attention_backward[1]
        getitem_13: "f32[2, 2, 16, 8][256, 128, 8, 1]cpu" = flex_attention_backward[2];  flex_attention_backward = None
        return (getitem_11, getitem_12, getitem_13)

    class fw_graph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[][]cpu", arg1_1: "i32[][]cpu", arg2_1: "i32[][]cpu", arg3_1: "i32[][]cpu", arg4_1: "i32[][]cpu"):
            # File: /root/.cache/fxray/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1690 in flex_attention, code: out, lse, max_scores = flex_attention_hop(
            sub: "i32[][]cpu" = torch.ops.aten.sub.Tensor(arg3_1, arg4_1);  arg3_1 = arg4_1 = None
            mul: "f32[][]cpu" = torch.ops.aten.mul.Tensor(sub, 0.1);  sub = None
            add: "f32[][]cpu" = torch.ops.aten.add.Tensor(arg0_1, mul);  arg0_1 = mul = None
            return add

    class joint_graph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[][]cpu", arg1_1: "i32[][]cpu", arg2_1: "i32[][]cpu", arg3_1: "i32[][]cpu", arg4_1: "i32[][]cpu", arg5_1: "f32[][]cpu"):
            return [arg5_1, None, None, None, None]

    class mask_graph0(torch.nn.Module):
        def forward(self, arg0_1: "i32[][]cpu", arg1_1: "i32[][]cpu", arg2_1: "i32[][]cpu", arg3_1: "i32[][]cpu"):
            # File: /work/main/tests/data/flex/make_flex.py:33 in causal, code: return kv_idx <= q_idx
            le: "b8[][]cpu" = torch.ops.aten.le.Tensor(arg3_1, arg2_1);  arg3_1 = arg2_1 = None
            return le
