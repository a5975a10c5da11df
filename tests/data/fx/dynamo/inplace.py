class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 32][32, 1]cpu", L_y_: "f32[4, 32][32, 1]cpu", L_m_: "b8[4, 32][32, 1]cpu"):
        l_x_ = L_x_
        l_y_ = L_y_
        l_m_ = L_m_

        # File: tools/capture/dynamo_grammar_samples.py:59 in inplace, code: out = x.clone()
        out: "f32[4, 32][32, 1]cpu" = l_x_.clone()

        # File: tools/capture/dynamo_grammar_samples.py:60 in inplace, code: out += y
        out += l_y_;  out_1: "f32[4, 32][32, 1]cpu" = out;  out = None

        # File: tools/capture/dynamo_grammar_samples.py:61 in inplace, code: out *= 2
        out_1 *= 2;  out_2: "f32[4, 32][32, 1]cpu" = out_1;  out_1 = None

        # File: tools/capture/dynamo_grammar_samples.py:62 in inplace, code: out -= y
        out_2 -= l_y_;  out_3: "f32[4, 32][32, 1]cpu" = out_2;  out_2 = l_y_ = None

        # File: tools/capture/dynamo_grammar_samples.py:63 in inplace, code: out /= 2
        out_3 /= 2;  out_4: "f32[4, 32][32, 1]cpu" = out_3;  out_3 = None

        # File: tools/capture/dynamo_grammar_samples.py:64 in inplace, code: mask = m.clone()
        mask: "b8[4, 32][32, 1]cpu" = l_m_.clone();  l_m_ = None

        # File: tools/capture/dynamo_grammar_samples.py:65 in inplace, code: mask |= x > 0
        gt: "b8[4, 32][32, 1]cpu" = l_x_ > 0;  l_x_ = None
        mask |= gt;  mask_1: "b8[4, 32][32, 1]cpu" = mask;  mask = gt = None

        # File: tools/capture/dynamo_grammar_samples.py:66 in inplace, code: t = torch.zeros(4, 32)
        t: "f32[4, 32][32, 1]cpu" = torch.zeros(4, 32)

        # File: tools/capture/dynamo_grammar_samples.py:67 in inplace, code: t[0, 1:] = 1.0
        t[(0, slice(1, None, None))] = 1.0;  setitem = t;  setitem = None
        return (out_4, mask_1, t)
