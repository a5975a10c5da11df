"""Writes cuda_only_ops.log here: a TORCH_TRACE of compiled bf16 training steps on a GPU whose graphs hold ops with a
CUDA kernel and no CPU one (issue 21, cross-device replay: a graph recorded on a GPU replayed on a machine without
one), one compile each, so each shows on its own:
  0. SDPA forced onto cuDNN's attention backend (_scaled_dot_product_cudnn_attention and its backward);
  1. nn.RMSNorm (on CUDA the fused kernel: _fused_rms_norm, _fused_rms_norm_backward, where AOT keeps them);
  2. nn.GRUCell and nn.LSTMCell (on CUDA _thnn_fused_gru_cell / _thnn_fused_lstm_cell and their backwards);
  3. a depthwise and a grouped convolution in channels_last (cuDNN or _conv_depthwise2d, as the dispatcher picks).
Needs a CUDA GPU (run on the device machine; the log comes home as a test fixture):
    python3 tests/data/cross_device/make_cuda_only_ops.py [OUT_DIR]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    torch.manual_seed(0)
    dev = "cuda"
    dt = torch.bfloat16

    def step(fn, *args):
        """One compiled training step; the ops' CPU gaps do not matter here, only that the graphs are logged."""
        try:
            out = torch.compile(fn)(*args)
            out.float().sum().backward()
            print(fn.__name__, "ok")
        except Exception as e:  # the log still holds what was traced
            print(fn.__name__, "failed:", type(e).__name__, str(e).splitlines()[0][:200])

    q, k, v = (torch.randn(2, 4, 64, 32, device=dev, dtype=dt, requires_grad=True) for _ in range(3))

    def cudnn_attention(q, k, v):
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    step(cudnn_attention, q, k, v)

    norm = torch.nn.RMSNorm(64, device=dev, dtype=dt)
    x = torch.randn(8, 64, device=dev, dtype=dt, requires_grad=True)

    def rms_norm(x):
        return norm(x) * 2

    step(rms_norm, x)

    gru = torch.nn.GRUCell(16, 32, device=dev)
    lstm = torch.nn.LSTMCell(16, 32, device=dev)
    inp = torch.randn(4, 16, device=dev, requires_grad=True)

    def rnn_cells(inp):
        h = gru(inp)
        hl, cl = lstm(inp)
        return h + hl + cl

    step(rnn_cells, inp)

    dw = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16, device=dev, dtype=dt).to(memory_format=torch.channels_last)
    gconv = torch.nn.Conv2d(16, 32, 3, padding=1, groups=4, device=dev, dtype=dt).to(memory_format=torch.channels_last)
    img = torch.randn(2, 16, 12, 12, device=dev, dtype=dt).to(memory_format=torch.channels_last).requires_grad_()

    def convolutions(img):
        return gconv(F.relu(dw(img)))

    step(convolutions, img)
    sys.exit(0)

sys.path.insert(0, os.path.dirname(HERE))
from trace_fixture import write_trace_log  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else HERE
write_trace_log(__file__, os.path.join(out, "cuda_only_ops.log"))
