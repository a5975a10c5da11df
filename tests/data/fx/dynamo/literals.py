class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 32][32, 1]cpu"):
        l_x_ = L_x_

        # File: tools/capture/dynamo_grammar_samples.py:72 in literals, code: a = torch.zeros(3, dtype=torch.float16, layout=torch.strided, device="cpu")
        a: "f16[3][1]cpu" = torch.zeros(3, dtype = torch.float16, layout = torch.strided, device = 'cpu')

        # File: tools/capture/dynamo_grammar_samples.py:73 in literals, code: b = x.contiguous(memory_format=torch.contiguous_format)
        b: "f32[4, 32][32, 1]cpu" = l_x_.contiguous(memory_format = torch.contiguous_format)

        # File: tools/capture/dynamo_grammar_samples.py:74 in literals, code: c = torch.view_as_real(torch.view_as_complex(x.reshape(-1, 2)) * 1j)
        reshape: "f32[64, 2][2, 1]cpu" = l_x_.reshape(-1, 2)
        view_as_complex: "c64[64][1]cpu" = torch.view_as_complex(reshape);  reshape = None
        mul: "c64[64][1]cpu" = view_as_complex * 1j;  view_as_complex = None
        c: "f32[64, 2][2, 1]cpu" = torch.view_as_real(mul);  mul = None

        # File: tools/capture/dynamo_grammar_samples.py:75 in literals, code: d = x * (0.5 - 2j)
        d: "c64[4, 32][32, 1]cpu" = l_x_ * (0.5-2j)

        # File: tools/capture/dynamo_grammar_samples.py:76 in literals, code: return a, b, c, d, x.to(torch.device("cpu"), torch.bfloat16)
        to: "bf16[4, 32][32, 1]cpu" = l_x_.to(device(type='cpu'), torch.bfloat16);  l_x_ = None
        return (a, b, c, d, to)
