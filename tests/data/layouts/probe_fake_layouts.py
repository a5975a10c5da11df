#!/usr/bin/env python3
"""Which ops' fake-tensor rules lay an output out otherwise than their eager kernels (the list in
core/replay/engine/fake_layouts.cpp comes from this probe; not a test, run by hand when torch changes):

    python tests/data/layouts/probe_fake_layouts.py [--device cuda] [--json out.json]

Each op is called on inputs of mixed layouts -- a channels-last-like grad (a transposed view, as LeViT's
flatten(2).transpose(1, 2) makes it) with a contiguous input, then a contiguous grad with a channels-last input --
eagerly and under FakeTensorMode, and the output strides compared. Only mixed layouts show a difference: with the
inputs alike, fake and eager agree for every op here. Prints one line per op and case; exit 0."""
from __future__ import annotations

import argparse
import json
import sys

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

A = torch.ops.aten


def cases(dev):
    c = 8
    w, m, v = torch.randn(c, device=dev), torch.randn(c, device=dev), torch.rand(c, device=dev) + 0.5
    mask = lambda x: x > 0  # noqa: E731
    return {
        "native_batch_norm_backward": lambda g, x: A.native_batch_norm_backward(g, x, w, m, v, m, v, True, 1e-5, [True] * 3),
        "batch_norm_backward": lambda g, x: A.batch_norm_backward(g, x, w, m, v, m, v, True, 1e-5, [True] * 3,
                                                                  torch.empty(0, dtype=torch.uint8, device=dev)),
        "native_group_norm_backward": lambda g, x: A.native_group_norm_backward(
            g, x, torch.randn(2, 2, device=dev), torch.rand(2, 2, device=dev), w, 2, c, 16, 2, [True] * 3),
        "native_layer_norm_backward": lambda g, x: A.native_layer_norm_backward(
            g, x, [4], torch.randn(2, c, 4, 1, device=dev), torch.rand(2, c, 4, 1, device=dev),
            torch.randn(4, device=dev), torch.randn(4, device=dev), [True] * 3),
        "_log_softmax_backward_data": lambda g, x: A._log_softmax_backward_data(g, x, 1, torch.float32),
        "_softmax_backward_data": lambda g, x: A._softmax_backward_data(g, x, 1, torch.float32),
        "hardswish_backward": lambda g, x: A.hardswish_backward(g, x),
        "hardsigmoid_backward": lambda g, x: A.hardsigmoid_backward(g, x),
        "hardtanh_backward": lambda g, x: A.hardtanh_backward(g, x, -1.0, 1.0),
        "elu_backward": lambda g, x: A.elu_backward(g, 1.0, 1, 1, False, x),
        "softplus_backward": lambda g, x: A.softplus_backward(g, x, 1.0, 20.0),
        "logit_backward": lambda g, x: A.logit_backward(g, x.sigmoid()),
        "leaky_relu_backward": lambda g, x: A.leaky_relu_backward(g, x, 0.1, False),
        "threshold_backward": lambda g, x: A.threshold_backward(g, x, 0.0),
        "gelu_backward": lambda g, x: A.gelu_backward(g, x),
        "silu_backward": lambda g, x: A.silu_backward(g, x),
        "mish_backward": lambda g, x: A.mish_backward(g, x),
        "sigmoid_backward": lambda g, x: A.sigmoid_backward(g, x),
        "tanh_backward": lambda g, x: A.tanh_backward(g, x),
        "native_dropout_backward": lambda g, x: A.native_dropout_backward(g, mask(x), 2.0),
        "avg_pool2d_backward": lambda g, x: A.avg_pool2d_backward(g, x, [1, 1], [1, 1], [0, 0], False, True, None),
        "_adaptive_avg_pool2d_backward": lambda g, x: A._adaptive_avg_pool2d_backward(g, x),
        "max_pool2d_with_indices_backward": lambda g, x: A.max_pool2d_with_indices_backward(
            g, x, [1, 1], [1, 1], [0, 0], [1, 1], False, A.max_pool2d_with_indices(x, [1, 1], [1, 1])[1]),
        "native_batch_norm": lambda g, x: A.native_batch_norm(g, w, m, None, None, True, 0.1, 1e-5),
        "native_group_norm": lambda g, x: A.native_group_norm(g, w, m, 2, c, 16, 2, 1e-5),
        "where": lambda g, x: A.where.self(mask(x), g, x),
        "add": lambda g, x: A.add.Tensor(g, x),
        "mul": lambda g, x: A.mul.Tensor(g, x),
    }


def strides(out):
    if isinstance(out, (tuple, list)):
        return [list(t.stride()) if isinstance(t, torch.Tensor) else None for t in out]
    return [list(out.stride())]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--json", help="write the rows here too")
    args = ap.parse_args(argv)
    dev = torch.device(args.device)
    torch.manual_seed(0)
    n, c, h, w = 2, 8, 4, 4
    grad_cl = torch.randn(n, h * w, c, device=dev).transpose(1, 2).reshape(n, c, h, w)  # [128, 1, 32, 8]
    x = torch.randn(n, c, h, w, device=dev)
    layouts = [("grad channels-last-like, input contiguous", grad_cl, x),
               ("grad contiguous, input channels-last", grad_cl.contiguous(), x.contiguous(memory_format=torch.channels_last))]
    rows = []
    for name, fn in cases(dev).items():
        for desc, g, inp in layouts:
            eager = strides(fn(g, inp))
            with FakeTensorMode(allow_non_fake_inputs=True) as mode:
                fake = strides(fn(mode.from_tensor(g), mode.from_tensor(inp)))
            differs = [k for k, (e, f) in enumerate(zip(eager, fake)) if e != f]
            rows.append({"op": name, "case": desc, "device": str(dev), "eager": eager, "fake": fake, "outputs_differ": differs})
            print(f"{name:34s} {desc:44s} {'DIFFERS at output ' + str(differs) if differs else 'same'}"
                  f"{'  eager ' + str(eager) + ' fake ' + str(fake) if differs else ''}")
    print("differ:", sorted({r["op"] for r in rows if r["outputs_differ"]}))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"torch": torch.__version__, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
