class G(torch.nn.Module):
    def forward(self, x: "f32[s0, 4][4, 1]cpu", n: "Sym(s0)"):
        a = torch.ops.aten.full.default([2, 3], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        b = torch.ops.aten.clone.default(x, memory_format = torch.channels_last)
        c = torch.ops.aten.slice.Tensor(b, 0, 0, 9223372036854775807)
        d = torch.ops.aten.index.Tensor(c, [None, a])
        e = torch.ops.aten.foo.default(x, 1e-05, nan, 'str"q', (1, (2, 3)), (), [], slice(None, 2, None), True, device(type='cpu'))
        mul = n * 4
        floordiv = mul // 2
        neg = -floordiv
        sym = torch.ops.aten.sym_size.int(x, 0)
        m = b.view(-1)
        _tensor_constant0 = self._tensor_constant0
        return [e, mul, floordiv, neg, sym, m, _tensor_constant0]
