"""Writes sdpa_region_cpu.log here: a TORCH_TRACE of a CPU compile whose dynamo graph holds
`with torch.nn.attention.sdpa_kernel(SDPBackend.MATH):` around one SDPA call and another SDPA call after it (dynamo
writes the region as torch.nn.attention._sdpa_kernel calls). Run with torch 2.11:
    python3 tests/data/cross_device/make_sdpa_region_cpu.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def f(q, k, v):
        with sdpa_kernel([SDPBackend.MATH]):
            inside = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return inside + F.scaled_dot_product_attention(q, k, v)

    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 2, 8, 16, generator=g) for _ in range(3))
    torch.testing.assert_close(torch.compile(f)(q, k, v), f(q, k, v))
    sys.exit(0)

sys.path.insert(0, os.path.dirname(HERE))
from trace_fixture import write_trace_log  # noqa: E402

write_trace_log(__file__, os.path.join(HERE, "sdpa_region_cpu.log"))
