#!/usr/bin/env python3
"""Expected outputs for the replay accuracy tests, produced by PyTorch eager itself (never typed by hand).

For every seed dump under samples/: runs the dump's own module.py (FxModule) with the dump's saved real inputs
on --device (CPU: CUDA device literals become CPU ones), and torch.save's the list of outputs to
<out>/<samples-relative dump path>.pt. The replay tests run it at test time, into a temporary folder, so the
references come from the machine's own kernels. Needs torch.
Run from the repository root: python tests/data/replay/make_expected.py --out DIR [--device cuda]"""
import argparse
import glob
import os

import torch

ROOT = os.getcwd()


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
    ap.add_argument("--out", required=True)
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
