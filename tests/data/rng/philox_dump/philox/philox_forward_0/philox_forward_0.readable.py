class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[1, 2, 4, 8][64, 32, 8, 1]cpu", arg1_1: "f32[1, 2, 4, 8][64, 32, 8, 1]cpu", arg2_1: "f32[1, 2, 4, 8][64, 32, 8, 1]cpu"):
        # File: /work/main/tests/data/rng/make_philox_dump.py:49 in step, code: d = torch.nn.functional.dropout(q, 0.5, training=True)
        native_dropout = torch.ops.aten.native_dropout.default(arg0_1, 0.5, True);  arg0_1 = None
        getitem: "f32[1, 2, 4, 8][64, 32, 8, 1]cpu" = native_dropout[0];  native_dropout = None

        # File: /work/main/tests/data/rng/make_philox_dump.py:52 in step, code: _, lse, seed, offset = torch.ops.aten._scaled_dot_product_efficient_attention(d, k, v, None, True, scale=1.0)
        _scaled_dot_product_efficient_attention = torch.ops.aten._scaled_dot_product_efficient_attention.default(getitem, arg1_1, arg2_1, None, True, scale = 1.0);  arg1_1 = arg2_1 = None
        getitem_3: "f32[1, 2, 32][64, 32, 1]cpu" = _scaled_dot_product_efficient_attention[1]
        getitem_4: "i64[][]cpu" = _scaled_dot_product_efficient_attention[2]
        getitem_5: "i64[][]cpu" = _scaled_dot_product_efficient_attention[3];  _scaled_dot_product_efficient_attention = None

        # File: /work/main/tests/data/rng/make_philox_dump.py:53 in step, code: return d * 2, lse, seed, offset
        mul: "f32[1, 2, 4, 8][64, 32, 8, 1]cpu" = torch.ops.aten.mul.Tensor(getitem, 2);  getitem = None
        return (mul, getitem_3, getitem_4, getitem_5)
