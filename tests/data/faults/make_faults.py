#!/usr/bin/env python3
"""Writes the planted-fault dumps the replay tests use, from samples/h100/dumps/mlp/mlp_forward_0 (stdlib only).

Each variant edits module.py and the readable file alike, so the dump stays self-consistent, and plants one
fault the replay must catch at a known node:
  wrong_stride  t's annotation says [128, 1] (actual [1, 64])          -> stride mismatch at t
  wrong_dtype   relu's annotation says f16 (actual f32)                 -> dtype mismatch at relu
  wrong_size    addmm_1's annotation says [32, 11] (actual [32, 10])    -> size mismatch at addmm_1
  op_raises     addmm_1 multiplies relu [32, 128] by primals_4 [10, 128] -> error at addmm_1
  nan_source    relu becomes log(addmm) of mixed-sign values             -> NaN origin at relu
Run from the repository root: python3 tests/data/faults/make_faults.py"""
import os
import shutil

SRC = os.path.join("samples", "h100", "dumps", "mlp", "mlp_forward_0")
OUT = os.path.join("tests", "data", "faults")
NAME = "mlp_forward_0"

VARIANTS = {
    "wrong_stride": {"readable": [('t: "f32[64, 128][1, 64]cuda:0"', 't: "f32[64, 128][128, 1]cuda:0"')]},
    "wrong_dtype": {"readable": [('relu: "f32[32, 128][128, 1]cuda:0"', 'relu: "f16[32, 128][128, 1]cuda:0"')]},
    "wrong_size": {"readable": [('addmm_1: "f32[32, 10][10, 1]cuda:0"', 'addmm_1: "f32[32, 11][11, 1]cuda:0"')]},
    "op_raises": {
        "both": [("addmm.default(primals_5, relu, t_1);  primals_5 = None", "addmm.default(primals_5, relu, primals_4);  primals_5 = primals_4 = None"),
                 ("t.default(primals_4);  primals_4 = None", "t.default(primals_4)")],
    },
    "nan_source": {"both": [("torch.ops.aten.relu.default(addmm)", "torch.ops.aten.log.default(addmm)")]},
}


def edit(text, pairs):
    for old, new in pairs:
        assert old in text, (old, text)
        text = text.replace(old, new)
    return text


def main():
    for variant, edits in VARIANTS.items():
        dst = os.path.join(OUT, variant, NAME)
        shutil.rmtree(os.path.join(OUT, variant), ignore_errors=True)
        os.makedirs(dst)
        for f in ("module.py", f"{NAME}.readable.py", f"{NAME}.input", f"{NAME}.pt"):
            text_file = f.endswith(".py")
            if not text_file:
                shutil.copy(os.path.join(SRC, f), os.path.join(dst, f))
                continue
            text = open(os.path.join(SRC, f)).read()
            text = edit(text, edits.get("both", []))
            if f.endswith(".readable.py"):
                text = edit(text, edits.get("readable", []))
            open(os.path.join(dst, f), "w").write(text)
        print("wrote", dst)


if __name__ == "__main__":
    main()
