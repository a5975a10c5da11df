#!/usr/bin/env python3
"""Expected outputs for the replay accuracy tests, produced by PyTorch eager itself (never typed by hand).

For every seed dump under samples/: runs the dump's own module.py (FxModule) on the CPU with the dump's saved
real inputs, and torch.save's the list of outputs to tests/data/expected/<samples-relative dump path>.pt.
CUDA device literals in the code become CPU ones (these are CPU references). Needs torch (the venv's).
Run from the repository root: ~/.cache/fxray/venv/bin/python tests/data/expected/make_expected.py"""
import argparse
import glob
import os

import torch

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "tests", "data", "expected")


def load_module(folder, device):
    src = open(os.path.join(folder, "module.py")).read()
    # module.py loads state_dict.pt from the dumping machine's path; load it from the folder instead.
    src = "\n".join(line for line in src.split("\n") if "load_state_dict" not in line)
    if device == "cpu":
        src = src.replace("device(type='cuda'", "device(type='cpu'")
    scope = {}
    exec(compile(src, os.path.join(folder, "module.py"), "exec"), scope)
    mod = scope["FxModule"]()
    sd = torch.load(os.path.join(folder, "state_dict.pt"), map_location=device)
    for k, v in sd.items():
        setattr(mod, k, v)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", help="cuda: references from eager CUDA (for checks on a GPU box)")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    torch.manual_seed(0)
    dumps = sorted(glob.glob(os.path.join(ROOT, "samples", "*", "dumps", "*", "*_*_[0-9]*")))
    for folder in dumps:
        name = os.path.basename(folder)
        # On a GPU box tensors load where they were saved (CPU 0-dim scalars stay on the CPU), as fxray does.
        inputs = torch.load(os.path.join(folder, name + ".pt"), map_location="cpu" if args.device == "cpu" else None)
        with torch.no_grad():
            outputs = load_module(folder, args.device)(*inputs)
        outputs = [o.cpu() if isinstance(o, torch.Tensor) else o for o in outputs]
        outputs = [o.contiguous() if isinstance(o, torch.Tensor) else o for o in outputs]
        rel = os.path.relpath(folder, os.path.join(ROOT, "samples"))
        dst = os.path.join(args.out, rel + ".pt")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        torch.save(outputs, dst)
        print(f"{dst}: {len(outputs)} outputs")


if __name__ == "__main__":
    main()
