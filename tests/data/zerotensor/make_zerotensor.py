#!/usr/bin/env python3
"""Captures the ZeroTensor fixture with tools/capture on the CPU (committed: a few KB; rerun to refresh).

    python tests/data/zerotensor/make_zerotensor.py

sgn          torch.sgn's gradient is zero: AOTAutograd's backward returns aten._efficientzerotensor([20, 20]), a tensor
             that is zeros by its ZeroTensor dispatch key and has no data. OpInfo's sgn on an H100 (an illegal
             memory access) and on the CPU (a segfault) found fxray reading its null pointer for statistics.
"""
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools" / "capture"))

import torch  # noqa: E402

import fxray_capture  # noqa: E402


def main():
    torch.manual_seed(0)
    shutil.rmtree(HERE / "sgn", ignore_errors=True)
    cap = fxray_capture.backend("sgn", str(HERE), strict=True, dump_example_input=True)
    x = torch.randn(20, 20, requires_grad=True)
    torch.compile(torch.sgn, backend=cap)(x).sum().backward()
    for d in cap.written:
        print(d)


if __name__ == "__main__":
    main()
