#!/usr/bin/env python3
"""Chained forward -> backward replay of a 24-layer transformer on CUDA: fxray vs Python eager, in one run.

Captures one training step of a 24-layer nn.TransformerEncoder with tools/capture (forward_0 / backward_0 dumps
with their real inputs), then times, on the same device and the same run:
  fxray   `fxray replay --in-process --no-values --repeat N` of the forward and of the chained backward (its saved
          activations taken from a replay of the forward, as `fxray replay` does by default), every node's dtype,
          size, strides and device checked; per pass = forward median + backward median
  eager   the dumped GraphModules (module.py) called from Python on the saved inputs, forward then backward on
          the forward's outputs (synchronised, median of N)
and prints µs per pass and the ratio. usage: bench/chain_bench.py --fxray build/app/cli/fxray [--repeats 30]"""
import argparse
import importlib.util
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "capture"))
import fxray_capture  # noqa: E402


def sync():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def capture(out, layers, device):
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False).to(device)
    x = torch.randn(8, 128, 256, device=device)
    compiled = torch.compile(model, backend=fxray_capture.backend("enc", out))
    compiled(x).sum().backward()
    sync()
    return os.path.join(out, "enc", "enc_forward_0"), os.path.join(out, "enc", "enc_backward_0")


def load_module(dump):
    spec = importlib.util.spec_from_file_location("m_" + os.path.basename(dump), os.path.join(dump, "module.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FxModule()


def eager_pass_us(fw_dump, bw_dump, repeats, warmup):
    fw, bw = load_module(fw_dump), load_module(bw_dump)
    fw_in = torch.load(os.path.join(fw_dump, os.path.basename(fw_dump) + ".pt"))
    bw_saved = torch.load(os.path.join(bw_dump, os.path.basename(bw_dump) + ".pt"))
    bw_names = list(inspect.signature(bw.forward).parameters)
    tangents = [v for n, v in zip(bw_names, bw_saved) if n.startswith("tangents")]
    times, fw_t, bw_t = [], [], []
    with torch.no_grad():
        for k in range(warmup + repeats):
            sync()
            t0 = time.perf_counter()
            outs = fw(*fw_in)
            sync()
            t1 = time.perf_counter()
            saved = list(outs[len(outs) - (len(bw_names) - len(tangents)):])
            bw(*saved, *tangents)
            sync()
            t2 = time.perf_counter()
            if k >= warmup:
                fw_t.append((t1 - t0) * 1e6)
                bw_t.append((t2 - t1) * 1e6)
                times.append((t2 - t0) * 1e6)
    return statistics.median(fw_t), statistics.median(bw_t), statistics.median(times)


def fxray_median_us(fxray, dump, repeats, warmup, device):
    p = subprocess.run([fxray, "replay", dump, "--in-process", "--device", device, "--no-values", "--json",
                        "--repeat", str(repeats), "--warmup", str(warmup)], capture_output=True, text=True)
    r = json.loads(p.stdout)
    return statistics.median(r["iteration_us"]), r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fxray", required=True)
    ap.add_argument("--layers", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--device", default="cuda")
    args = ap.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("no CUDA device: skipped")
        return 0
    with tempfile.TemporaryDirectory() as out:
        fw_dump, bw_dump = capture(out, args.layers, torch.device(args.device))
        fx_fw, rf = fxray_median_us(args.fxray, fw_dump, args.repeats, args.warmup, args.device)
        fx_bw, rb = fxray_median_us(args.fxray, bw_dump, args.repeats, args.warmup, args.device)
        # The default CLI replay (worker, chained) once, for its verdicts.
        p = subprocess.run([args.fxray, "replay", bw_dump, "--device", args.device, "--json"], capture_output=True, text=True)
        chained = json.loads(p.stdout)
        e_fw, e_bw, e_pass = eager_pass_us(fw_dump, bw_dump, args.repeats, args.warmup)
    n_fw, n_bw = len(rf["nodes"]), len(rb["nodes"])
    where = torch.cuda.get_device_name(0) if args.device == "cuda" else "cpu"
    print(f"{args.layers}-layer transformer encoder (d=256, 4 heads, batch 8 x 128), {where}")
    print(f"  forward  {n_fw:5d} nodes: fxray checked {fx_fw:9.0f} us ({fx_fw / n_fw:.2f}/node), eager {e_fw:9.0f} us")
    print(f"  backward {n_bw:5d} nodes: fxray checked {fx_bw:9.0f} us ({fx_bw / n_bw:.2f}/node), eager {e_bw:9.0f} us")
    print(f"  pass (fw + bw): fxray {fx_fw + fx_bw:9.0f} us, eager {e_pass:9.0f} us, fxray / eager {(fx_fw + fx_bw) / e_pass:.2f}x")
    print(f"  chained backward (default replay): verdict {chained['verdict']}, {len(chained.get('chained_inputs', []))} "
          f"inputs from {os.path.basename(chained.get('chained_from', '-'))}; forward verdict {rf['verdict']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
