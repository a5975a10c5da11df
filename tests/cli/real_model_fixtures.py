"""Small graphs with the traits of real models' graphs, written at test time with torch (nothing committed):
attention masks filled with -inf, saved inputs that are views (expand, transpose, a select into a larger
storage), outputs that depend on dropout, uint64 values, a custom op registered from Python. Shared by the CPU
test (tests/cli/test_real_model_traits.py) and its CUDA twin (tests/cuda/test_real_model_traits_cuda.py)."""
import os

import torch

MASKS = '''
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]{dev}", arg1_1: "b8[4, 4][4, 1]{dev}"):
        scalar_tensor: "f32[][]{dev}" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, layout = torch.strided, device = device(type='{devtype}'))
        where: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.where.self(arg1_1, scalar_tensor, arg0_1)
        masked_fill: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.masked_fill.Scalar(arg0_1, arg1_1, -inf)
        add: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.add.Tensor(where, masked_fill)
        amax: "f32[4, 1][1, 1]{dev}" = torch.ops.aten.amax.default(arg0_1, [-1], True)
        return (add, amax)
'''

NAN_FROM_FINITE = '''
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]{dev}"):
        abs_1: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.abs.default(arg0_1)
        sub: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.sub.Tensor(abs_1, 1000000.0)
        log: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.log.default(sub)
        return (log,)
'''

# a: an expand (stride 0), b: a transpose, c: a select into a larger storage (offset 32).
VIEWS = '''
class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[4, 8][0, 1]{dev}", b: "f32[8, 4][1, 8]{dev}", c: "f32[4, 8][8, 1]{dev}"):
        permute: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.permute.default(b, [1, 0])
        add: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.add.Tensor(a, permute)
        mul: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.mul.Tensor(add, c)
        native_dropout = torch.ops.aten.native_dropout.default(mul, 0.5, True)
        getitem: "f32[4, 8][8, 1]{dev}" = native_dropout[0]
        getitem_1: "b8[4, 8][8, 1]{dev}" = native_dropout[1];  native_dropout = None
        empty: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.empty.memory_format([4, 8], dtype = torch.float32, device = device(type='{devtype}'), pin_memory = False)
        return (mul, getitem, empty)
'''

UINT64 = '''
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "i64[6][1]{dev}"):
        _to_copy: "u64[6][1]{dev}" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.uint64)
        return (_to_copy,)
'''

CUSTOM_OP = '''
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]{dev}"):
        relu: "f32[4, 4][4, 1]{dev}" = torch.ops.aten.relu.default(arg0_1)
        grouped: "f32[4, 4][4, 1]{dev}" = torch.ops.transformers.grouped_mm_fallback_backward.default(relu)
        return (grouped,)
'''

BATCH_NORM = '''
class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}", w: "f32[3][1]{dev}", b: "f32[3][1]{dev}", mean: "f32[3][1]{dev}", var: "f32[3][1]{dev}", ids: "i64[2, 5][5, 1]{dev}", table: "f32[7, 4][4, 1]{dev}"):
        bn = torch.ops.aten._native_batch_norm_legit_no_training.default(x, w, b, mean, var, 0.1, 1e-05)
        getitem: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}" = bn[0];  bn = None
        add: "i64[2, 5][5, 1]{dev}" = torch.ops.aten.add.Tensor(ids, 2)
        embedding: "f32[2, 5, 4][20, 4, 1]{dev}" = torch.ops.aten.embedding.default(table, add)
        return (getitem, embedding)
'''

# Inputs whose valid values are a structure, not a range: embedding_bag's offsets (sorted, from 0, within the
# indices; CUDA asserts otherwise), segment_reduce's lengths (summing to the data's rows), a matrix with a
# Cholesky factor, acosh's x >= 1 and xlogy's y >= 0.
STRUCTURED_DOMAINS = '''
class GraphModule(torch.nn.Module):
    def forward(self, weight: "f32[10, 4][4, 1]{dev}", indices: "i64[12][1]{dev}", offsets: "i64[4][1]{dev}", data: "f32[9, 3][3, 1]{dev}", lengths: "i64[5][1]{dev}", spd: "f32[2, 5, 5][25, 5, 1]{dev}", x: "f32[6][1]{dev}", y: "f32[6][1]{dev}"):
        _embedding_bag = torch.ops.aten._embedding_bag.default(weight, indices, offsets, False, 0, False, None)
        getitem: "f32[4, 4][4, 1]{dev}" = _embedding_bag[0];  _embedding_bag = None
        segment_reduce: "f32[5, 3][3, 1]{dev}" = torch.ops.aten.segment_reduce.default(data, 'sum', lengths = lengths)
        cholesky: "f32[2, 5, 5][25, 1, 5]{dev}" = torch.ops.aten.cholesky.default(spd)
        acosh: "f32[6][1]{dev}" = torch.ops.aten.acosh.default(x)
        xlogy: "f32[6][1]{dev}" = torch.ops.aten.xlogy.Tensor(x, y)
        return (getitem, segment_reduce, cholesky, acosh, xlogy)
'''

# CUDA's efficient attention pads its logsumexp to 32 rows with inf (eager too): by design, not a NaN finding;
# a NaN made from the attention's finite output is still one. The output is computed as (B, M, H, K) and
# transposed: strides [512, 16, 64, 1], kept by the elementwise ops after it.
ATTENTION = '''
class GraphModule(torch.nn.Module):
    def forward(self, q: "f32[2, 4, 8, 16][512, 128, 16, 1]{dev}", k: "f32[2, 4, 8, 16][512, 128, 16, 1]{dev}", v: "f32[2, 4, 8, 16][512, 128, 16, 1]{dev}"):
        attn = torch.ops.aten._scaled_dot_product_efficient_attention.default(q, k, v, None, True, scale = 1.0)
        getitem: "f32[2, 4, 8, 16][512, 16, 64, 1]{dev}" = attn[0]
        getitem_1: "f32[2, 4, 32][128, 32, 1]{dev}" = attn[1];  attn = None
        abs_1: "f32[2, 4, 8, 16][512, 16, 64, 1]{dev}" = torch.ops.aten.abs.default(getitem)
        sub: "f32[2, 4, 8, 16][512, 16, 64, 1]{dev}" = torch.ops.aten.sub.Tensor(abs_1, 1000000.0)
        log: "f32[2, 4, 8, 16][512, 16, 64, 1]{dev}" = torch.ops.aten.log.default(sub)
        return (getitem, getitem_1, log)
'''

# What inductor's AOT graphs in a TORCH_TRACE carry: prims.iota (position ids) and lifted tensor constants whose
# values the trace does not log.
TRACE_TRAITS = '''
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16][1]{dev}"):
        iota: "i64[16][1]{dev}" = torch.ops.prims.iota.default(16, start = 0, step = 1, dtype = torch.int64, device = device(type='{devtype}'), requires_grad = False)
        _tensor_constant0: "f32[16][1]{dev}" = self._tensor_constant0
        mul: "f32[16][1]{dev}" = torch.ops.aten.mul.Tensor(iota, arg0_1)
        add: "f32[16][1]{dev}" = torch.ops.aten.add.Tensor(mul, _tensor_constant0)
        return (add,)
'''

PLAIN = '''
class GraphModule(torch.nn.Module):
    def forward(self, x):
        relu = torch.ops.aten.relu.default(x)
        return (relu,)
'''


def render(text, device):
    dev = "cpu" if device == "cpu" else "cuda:0"
    return text.replace("{dev}", dev).replace("{devtype}", device.split(":")[0])


def write_py(root, name, text, device="cpu"):
    path = os.path.join(root, name + ".py")
    with open(path, "w") as f:
        f.write(render(text, device))
    return path


def write_dump(root, folder, text, device="cpu"):
    """A seed dump folder holding just module.py (annotated): what a directory walk finds."""
    d = os.path.join(root, folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.py"), "w") as f:
        f.write(render(text, device))
    return d


def view_inputs(device):
    """The three saved inputs of VIEWS with their exact layout (what a capture of a real model saves)."""
    g = torch.Generator().manual_seed(0)
    a = torch.randn(8, generator=g).to(device).expand(4, 8)
    b = torch.randn(4, 8, generator=g).to(device).t()
    c = torch.randn(3, 4, 8, generator=g).to(device)[1]
    assert a.stride() == (0, 1) and b.stride() == (1, 8) and c.storage_offset() == 32
    return [a, b, c]


def write_views_dump(root, device="cpu", folder="views_forward_0", stem="views_forward_0"):
    """A seed dump folder of VIEWS with saved inputs (<stem>.pt) and eager outputs (<stem>.expected.pt)."""
    d = os.path.join(root, folder)
    os.makedirs(d, exist_ok=True)
    text = render(VIEWS, device)
    for name in ("module.py", stem + ".readable.py"):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    a, b, c = view_inputs(device)
    torch.save([a, b, c], os.path.join(d, stem + ".pt"))
    mul = (a + b.t()) * c
    dropped = torch.nn.functional.dropout(mul, 0.5, True)
    torch.save([mul, dropped, torch.empty(4, 8, device=device)], os.path.join(d, stem + ".expected.pt"))
    return d


# fft_ifft's graph ends in aten._conj: its output is a view with the lazy conjugate bit, and torch.save keeps the
# bit in the rebuild's metadata ({"conj": True}) over the unconjugated bytes. The input is conjugated too.
CONJ = '''
class GraphModule(torch.nn.Module):
    def forward(self, z: "c64[6][1]{dev}"):
        mul: "c64[6][1]{dev}" = torch.ops.aten.mul.Tensor(z, 2)
        _conj: "c64[6][1]{dev}" = torch.ops.aten._conj.default(mul)
        neg: "c64[6][1]{dev}" = torch.ops.aten._neg_view.default(z)
        return (_conj, neg)
'''


def write_conj_dump(root, device="cpu", folder="conj_forward_0"):
    """A seed dump of CONJ whose saved input and eager outputs are conjugate and negative views."""
    d = os.path.join(root, folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.py"), "w") as f:
        f.write(render(CONJ, device))
    g = torch.Generator().manual_seed(0)
    z = torch.randn(6, dtype=torch.complex64, generator=g).to(device).conj()
    assert z.is_conj()
    torch.save([z], os.path.join(d, folder + ".pt"))
    out = [torch.ops.aten._conj.default(z * 2), torch.ops.aten._neg_view.default(z)]
    assert out[0].is_conj() and out[1].is_neg()
    torch.save(out, os.path.join(d, folder + ".expected.pt"))
    return d


# Inductor's post-grad passes on CUDA put its own prims (registered from Python) into the graphs they log:
# fma(a, b, c) and prepare_softmax_online(x, dim) -> (amax, sum of exp).
INDUCTOR_PRIMS = '''
class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[4, 8][8, 1]{dev}", b: "f32[4, 8][8, 1]{dev}", c: "f32[4, 8][8, 1]{dev}"):
        fma: "f32[4, 8][8, 1]{dev}" = torch.ops.prims.fma.default(a, b, c)
        prepare_softmax_online_default = torch.ops.prims.prepare_softmax_online.default(fma, 1)
        getitem: "f32[4, 1][1, 1]{dev}" = prepare_softmax_online_default[0]
        getitem_1: "f32[4, 1][1, 1]{dev}" = prepare_softmax_online_default[1];  prepare_softmax_online_default = None
        sub: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.sub.Tensor(fma, getitem)
        exp: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.exp.default(sub)
        div: "f32[4, 8][8, 1]{dev}" = torch.ops.aten.div.Tensor(exp, getitem_1)
        return (fma, div)
'''


def write_inductor_prims_dump(root, device="cpu", folder="prims_forward_0"):
    """A seed dump of INDUCTOR_PRIMS with eager outputs from inductor's own Python definitions of the prims."""
    import torch._inductor.inductor_prims  # noqa: F401  (registers prims.fma and prims.prepare_softmax_online)
    d = os.path.join(root, folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.py"), "w") as f:
        f.write(render(INDUCTOR_PRIMS, device))
    g = torch.Generator().manual_seed(0)
    a, b, c = (torch.randn(4, 8, generator=g).to(device) for _ in range(3))
    torch.save([a, b, c], os.path.join(d, folder + ".pt"))
    fma = torch.ops.prims.fma.default(a, b, c)
    amax, total = torch.ops.prims.prepare_softmax_online.default(fma, 1)
    torch.save([fma, torch.exp(fma - amax) / total], os.path.join(d, folder + ".expected.pt"))
    return d


# A forward that returns a saved activation contiguous, and the backward that records it channels-last: inductor
# picks the layout of what it saves in generated code (CLIP's vision patch embedding), so the backward's graph,
# not the forward's, says what the backward receives; or pads its rows (DeiT's attention weights on the H100).
LAYOUT_FORWARD = '''
class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}"):
        relu: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}" = torch.ops.aten.relu.default(primals_1)
        return (relu, primals_1)
'''

LAYOUT_BACKWARD = '''
class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[2, 3, 4, 4][48, 1, 12, 3]{dev}", relu: "f32[2, 3, 4, 4][52, 16, 4, 1]{dev}", tangents_1: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}"):
        mul: "f32[2, 3, 4, 4][48, 1, 12, 3]{dev}" = torch.ops.aten.mul.Tensor(primals_1, tangents_1)
        mul_1: "f32[2, 3, 4, 4][48, 16, 4, 1]{dev}" = torch.ops.aten.mul.Tensor(relu, tangents_1)
        return (mul, mul_1)
'''

