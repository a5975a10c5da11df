"""Issue 21's checks on a CUDA machine (run by scripts/rng-device.sh; writes a summary to stdout and $OUT):
1. the dropout training log (tests/data/rng/make_rng_logs.py) captured on CUDA: every graph replays on CUDA (inductor's
   RNG prims natively), the dropout compile's stages agree under aligned RNG, T5's log(0) is a transient Inf;
2. a dropout training step captured on CUDA with fxray's capture backend: saved-input replays on CUDA restore the
   captured philox state and equal eager by value;
3. a compiled attention block's log captured on CUDA (make_attention_log.py), replayed on the CPU: stride differences
   of the attention kernels are cross-device layouts, not mismatches.
Usage: python scripts/rng_device_check.py FXRAY OUT"""
import json
import os
import subprocess
import sys

FXRAY, OUT = sys.argv[1], sys.argv[2]
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable


def fx(*args):
    p = subprocess.run([FXRAY, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def fxj(*args):
    code, out, err = fx(*args, "--json")
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return {"verdict": "error", "fatal": err[-500:], "code": code}


def reports(j):
    return j["reports"] if "reports" in j else [j]


def replay_log(log, device):
    info = fxj("info", log)
    rows = []
    for g in info.get("graphs", []):
        r = reports(fxj("replay", g["address"], "--device", device))[0]
        transient = [n["name"] for n in r.get("nodes", []) if n.get("transient_nonfinite")]
        layouts = [n["name"] for n in r.get("nodes", []) if n.get("cross_device_layouts")]
        rows.append((g["address"].split("#")[-1], r.get("verdict"), len(r.get("nodes", [])), transient, layouts,
                     r.get("unsupported", [])[:2]))
    return rows


def main():
    summary = {}
    log = os.path.join(OUT, "dropout_cuda.log")
    subprocess.run([PY, os.path.join(SRC, "tests/data/rng/make_rng_logs.py"), log, "cuda"], check=True, capture_output=True)
    rows = replay_log(log, "cuda")
    print("== dropout/T5 log captured on CUDA, every graph replayed on CUDA")
    for row in rows:
        print("  %-40s %-12s nodes %4d transient %s layouts %s %s" % row)
    summary["cuda_log_graphs"] = len(rows)
    summary["cuda_log_pass"] = sum(r[1] == "pass" for r in rows)
    for compile_ in ("0/0", "1/0"):
        c = fxj("compare", log + "#" + compile_, "--device", "cuda")
        print("== compare %s on cuda: %s  %s" % (compile_, c.get("verdict"), c.get("reason", "")))
        summary["compare_" + compile_] = c.get("verdict")
    # 2. capture backend on CUDA, saved-input replays
    dumps = os.path.join(OUT, "captured")
    snippet = ("import sys; sys.path.insert(0, %r)\nimport torch, torch.nn as nn, fxray_capture\ntorch.manual_seed(0)\n"
               "m = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 8)).cuda().train()\n"
               "c = torch.compile(m, backend=fxray_capture.backend('drop', %r))\n"
               "c(torch.randn(16, 32, device='cuda', requires_grad=True)).sum().backward()\n") % (
                   os.path.join(SRC, "tools/capture"), dumps)
    subprocess.run([PY, "-c", snippet], check=True, capture_output=True)
    j = fxj("replay", dumps, "--inputs", "saved", "--expected", "auto", "--device", "cuda")
    print("== dropout step captured on CUDA, saved-input replays on CUDA")
    for r in reports(j):
        comps = r.get("comparisons", [])
        print("  %-50s %-10s compared by value %d/%d, by rate %d, notes: %s" % (
            r["address"].split("/")[-1], r["verdict"], sum(1 for c in comps if c.get("compared") and not c.get("by_rate")),
            len(comps), sum(1 for c in comps if c.get("by_rate")),
            [n for n in r.get("notes", []) if "random" in n][:1]))
    summary["saved_cuda"] = [(r["address"].split("/")[-1], r["verdict"]) for r in reports(j)]
    # 3. attention log captured on CUDA, replayed on the CPU
    attn = os.path.join(OUT, "attention_cuda.log")
    subprocess.run([PY, os.path.join(SRC, "tests/data/rng/make_attention_log.py"), attn, "cuda"], check=True, capture_output=True)
    rows = replay_log(attn, "cpu")
    print("== attention log captured on CUDA, replayed on the CPU")
    for row in rows:
        print("  %-40s %-12s nodes %4d transient %s layouts %s %s" % row)
    with open(os.path.join(OUT, "rng_summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


main()
