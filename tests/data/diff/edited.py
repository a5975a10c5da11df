# base.py with exactly three differences: one inserted op (mul_2, scaling the norm's output before the linear),
# one changed overload (add.Tensor -> add.Scalar) and one changed stride annotation (t: [1, 16] -> [32, 1]).
class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 16][16, 1]cpu", primals_2: "f32[32, 16][16, 1]cpu", primals_3: "f32[32][1]cpu", primals_4: "f32[16][1]cpu"):
        # File: /src/model.py:10 in forward, code: h = self.norm(x)
        var_mean = torch.ops.aten.var_mean.correction(primals_1, [1], correction = 0, keepdim = True)
        getitem: "f32[8, 1][1, 1]cpu" = var_mean[0]
        getitem_1: "f32[8, 1][1, 1]cpu" = var_mean[1];  var_mean = None
        add: "f32[8, 1][1, 1]cpu" = torch.ops.aten.add.Scalar(getitem, 1e-05);  getitem = None
        rsqrt: "f32[8, 1][1, 1]cpu" = torch.ops.aten.rsqrt.default(add);  add = None
        sub: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sub.Tensor(primals_1, getitem_1);  primals_1 = getitem_1 = None
        mul: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        mul_1: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(mul, primals_4);  mul = primals_4 = None
        mul_2: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(mul_1, 0.5);  mul_1 = None

        # File: /src/model.py:11 in forward, code: y = self.fc(h)
        t: "f32[16, 32][32, 1]cpu" = torch.ops.aten.t.default(primals_2);  primals_2 = None
        addmm: "f32[8, 32][32, 1]cpu" = torch.ops.aten.addmm.default(primals_3, mul_2, t);  primals_3 = mul_2 = None

        # File: /src/model.py:12 in forward, code: y = torch.relu(y)
        relu: "f32[8, 32][32, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None

        # File: /src/model.py:13 in forward, code: return y.sum(1), y
        sum_1: "f32[8][1]cpu" = torch.ops.aten.sum.dim_IntList(relu, [1])
        return (sum_1, relu, rsqrt, t)
