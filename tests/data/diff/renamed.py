# base.py with every node renamed (inputs arg0_1.. as AOTAutograd names them in inference graphs, ops with other
# suffixes) and independent nodes reordered (t first, the two getitems swapped, sub before add). No differences.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu", arg1_1: "f32[32, 16][16, 1]cpu", arg2_1: "f32[32][1]cpu", arg3_1: "f32[16][1]cpu"):
        # File: /src/model.py:11 in forward, code: y = self.fc(h)
        permute_7: "f32[16, 32][1, 16]cpu" = torch.ops.aten.t.default(arg1_1);  arg1_1 = None

        # File: /src/model.py:10 in forward, code: h = self.norm(x)
        var_mean_3 = torch.ops.aten.var_mean.correction(arg0_1, [1], correction = 0, keepdim = True)
        getitem_9: "f32[8, 1][1, 1]cpu" = var_mean_3[1]
        getitem_8: "f32[8, 1][1, 1]cpu" = var_mean_3[0];  var_mean_3 = None
        sub_4: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sub.Tensor(arg0_1, getitem_9);  arg0_1 = getitem_9 = None
        add_7: "f32[8, 1][1, 1]cpu" = torch.ops.aten.add.Tensor(getitem_8, 1e-05);  getitem_8 = None
        rsqrt_2: "f32[8, 1][1, 1]cpu" = torch.ops.aten.rsqrt.default(add_7);  add_7 = None
        mul_5: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(sub_4, rsqrt_2);  sub_4 = None
        mul_6: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(mul_5, arg3_1);  mul_5 = arg3_1 = None

        # File: /src/model.py:11 in forward, code: y = self.fc(h)
        addmm_3: "f32[8, 32][32, 1]cpu" = torch.ops.aten.addmm.default(arg2_1, mul_6, permute_7);  arg2_1 = mul_6 = None

        # File: /src/model.py:12 in forward, code: y = torch.relu(y)
        relu_2: "f32[8, 32][32, 1]cpu" = torch.ops.aten.relu.default(addmm_3);  addmm_3 = None

        # File: /src/model.py:13 in forward, code: return y.sum(1), y
        sum_9: "f32[8][1]cpu" = torch.ops.aten.sum.dim_IntList(relu_2, [1])
        return (sum_9, relu_2, rsqrt_2, permute_7)
