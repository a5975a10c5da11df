"""Writes lowerings.log here: a TORCH_TRACE of one CPU compile under mode="max-autotune-no-cudagraphs" whose post-grad
graph holds inductor's lowering-pattern handlers as plain Python calls (issue 21: the corpus' max-autotune recipe on
the H100 stopped at `torch__inductor_fx_passes_post_grad_mm_plus_mm`): two `mm(a, b) + mm(c, d)` sums (the second
FX names `..._mm_plus_mm_1`) and `cat([c, c[:, :size]], 1)` of a `c = cat(xs, 1)` (cat_slice_cat).
Run with torch 2.11: python3 tests/data/inductor_lowerings/make_lowerings.py"""
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if os.environ.get("TORCH_TRACE"):
    import torch

    def f(a, b, c, d, x, y):
        first = torch.relu(a @ b + c @ d)
        second = (a * 2) @ b + (c * 2) @ d
        joined = torch.cat([x, y], 1)
        folded = torch.cat([joined, joined[:, :5]], 1)
        return first, second, folded

    g = torch.Generator().manual_seed(0)
    args = [torch.randn(*s, generator=g) for s in ((16, 32), (32, 8), (16, 24), (24, 8), (4, 6), (4, 3))]
    compiled = torch.compile(f, mode="max-autotune-no-cudagraphs")
    for got, want in zip(compiled(*args), f(*args)):
        assert torch.allclose(got, want, atol=1e-5), (got - want).abs().max()
    sys.exit(0)

trace = os.path.join(HERE, "trace")
shutil.rmtree(trace, ignore_errors=True)
subprocess.run([sys.executable, os.path.abspath(__file__)], check=True,
               env={**os.environ, "TORCH_TRACE": trace, "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"})
(log,) = glob.glob(os.path.join(trace, "*.log"))
shutil.move(log, os.path.join(HERE, "lowerings.log"))
shutil.rmtree(trace)
